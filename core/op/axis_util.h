// Helpers shared by the tensor operator declarations (reduce, dot, reshape,
// concat, slice, indexing, init, random): axis checks and shape text whose
// errors name the op, the argument and what was expected.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/shape.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace tensor {

// Maps axis from [-(ndim + extra), ndim + extra) to [0, ndim + extra); throws
// kInvalidArgument "<op>: axis 3 out of range for 2-D input 'a'". `extra` is 1
// for ops that insert an axis (expand_dims, stack).
int NormalizeAxis(int64_t axis, int ndim, const std::string& op, const std::string& input,
                  int extra = 0, const char* param = "axis");

// The shape of inputs[i] must be known and have at least `min_ndim` dims.
void CheckMinNDim(const Shape& s, int min_ndim, const std::string& op, const std::string& input);

// Throws kInvalidArgument naming op and param when a tuple param holds None.
void CheckNoNone(const std::vector<int64_t>& t, const std::string& op, const std::string& param);

// "(2, 3)" text for a tuple param, None entries printed as None.
std::string TupleString(const std::vector<int64_t>& t);

// Inference helper: all inputs known?
bool AllKnown(const std::vector<Shape>& v);

// Type inference where outputs take the dtype of input `src` (others free).
bool TypeFromInput(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t src);

}  // namespace tensor
}  // namespace weft
