// The geometry of MXNet 1.9.1's NumPy-mode stacking operators (np_stack.cc):
// _npi_vstack, _npi_hstack, _npi_dstack, _npi_column_stack and their backward
// ops, shared by the declarations, the CPU kernels and the GPU kernels.
//
// Note [Stacks as promoted concatenations]
// Each function first gives its inputs the axes NumPy gives them, then joins
// them along one axis:
//   vstack        atleast_2d: () -> (1, 1), (n,) -> (1, n)             axis 0
//   hstack        atleast_1d: () -> (1,)        axis 0 if the first input is 1-D, else 1
//   dstack        atleast_3d: () -> (1, 1, 1), (n,) -> (1, n, 1), (m, n) -> (m, n, 1)   axis 2
//   column_stack  () -> (1, 1), (n,) -> (n, 1) (a column)               axis 1
// The promotion never moves data (a new axis of size 1), so input i fills, in
// every one of the `outer` blocks of the output (the product of the axes before
// the joined one), a contiguous run of its own inner size at a running offset:
// one strided copy per input (Note [Ops that are one strided copy]), read back
// by the backward op.
#pragma once
#include <string>
#include <vector>

#include "core/base/shape.h"
#include "core/op/shape/view_plan.h"

namespace weft {
namespace tensor {

struct NpStackParts {
  int axis = 0;
  Shape out;
  std::vector<int64_t> inner;  // per input: the product of its promoted axes from `axis` on
  int64_t outer = 1, total_inner = 0;
};

// `op` is the forward op's name (or its backward op's: _backward_npi_<what>).
// Throws kShape naming op and the input that does not fit input 0.
NpStackParts NpStackPartsOf(const std::string& op, const std::vector<Shape>& ins);

// Input i's copy into the output; `backward` reads it back from out_grad.
ViewPlan NpStackPlan(const NpStackParts& parts, size_t i, bool backward);

}  // namespace tensor
}  // namespace weft
