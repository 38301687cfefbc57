// The interpreter behind _fused_elemwise (core/op/fused/fused_elemwise.cc): a
// chain of elementwise ops, written by the fusion pass (core/graph/fusion.cc)
// as a small program, runs as one pass over memory.
//
// Note [Fused elementwise programs]
// A program is a list of instructions separated by ';'. Values are numbered
// in SSA style: the op's inputs are values 0 .. num_args-1, instruction k
// defines value num_args + k, and the last instruction's value is the output.
// Every operand names an earlier value. Instructions:
//   u:<unary>:<a>                  unary math (abs, exp, relu, ... : the
//                                  UnaryKind names, spelled as the ops)
//   b:<binary>:<a>:<b>             binary arithmetic / comparison (add, sub,
//                                  mul, div, pow, max, min, mod, eq, ne, gt,
//                                  ge, lt, le: BinaryKind)
//   s:<binary>:<a>:<scalar>:<left> binary with a scalar, op(a, scalar), or
//                                  op(scalar, a) when left is 1; the scalar is
//                                  converted to the dtype first (as _*_scalar)
//   a:<act_type>:<a>               Activation (relu, sigmoid, log_sigmoid,
//                                  mish, tanh, softrelu, softsign)
//   g:<act_type>:<gy>:<y>[:<x>]    _backward_Activation (x for softsign, mish)
//   c:<a>                          copy
// Example: a * b + 1 is "b:mul:0:1;s:add:2:1:0".
//
// Note [Fused elementwise tiles]
// The data is cut into tiles of kFusedTile elements, split across threads
// with ParallelFor. Per tile every instruction runs over the tile through the
// elementwise kernels' block loops (Note [Elementwise blocks]) into small
// per-thread buffers; only the last one writes the output, so the output is
// written once and intermediates stay in cache. An instruction reads only the
// current tile of its operands, so the output may alias any input (in place).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/op/act/activation_cpu.h"
#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace fused_cpu {

constexpr int64_t kFusedTile = 512;

enum class InstrKind : int { kUnary, kBinary, kScalar, kAct, kActGrad, kCopy };

struct FusedInstr {
  InstrKind kind = InstrKind::kCopy;
  int code = 0;             // UnaryKind, BinaryKind or nnx_cpu::ActKind as int
  int args[3] = {0, 0, 0};  // value ids
  int num_args = 0;
  double scalar = 0.0;
  bool scalar_left = false;
};

struct FusedProgram {
  int num_inputs = 0;
  std::vector<FusedInstr> code;
  // Derived by ParseFusedProgram: the tile buffer of each value defined by an
  // instruction (index value - num_inputs), the number of buffers, and an
  // estimate of the work per element (for ParallelFor).
  std::vector<int> slot;
  int num_slots = 0;
  int64_t cost_per_element = 0;
};

// Parses and checks a program over `num_inputs` inputs; throws kInvalidArgument
// naming `op` and the offending instruction.
FusedProgram ParseFusedProgram(const std::string& text, int num_inputs, const std::string& op = "_fused_elemwise");

// Activation's act_type by name (relu, sigmoid, log_sigmoid, mish, tanh,
// softrelu, softsign); throws kInvalidArgument naming `op` otherwise.
nnx_cpu::ActKind ActKindByName(const std::string& act_type, const std::string& op);

// out (req)= program(in...). All views share dtype (float32 or float64) and
// element count; out may alias any input.
void FusedElemwiseForward(const FusedProgram& prog, const std::vector<TensorView>& in, OpReq req,
                          const TensorView& out);

}  // namespace fused_cpu
}  // namespace weft
