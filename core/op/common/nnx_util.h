// Helpers shared by the declarations of the normalisation, activation,
// softmax, loss, dropout, embedding, pad, upsampling, sequence and optimizer
// operators (namespace nnx; the layer ops FullyConnected/Convolution/Pooling
// use core/op/common/layer_util.h): floating-point type rules, required enums and the
// (outer, n, inner) view of an array around one axis.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/shape.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace nnx {

// Throws kDType "<op>: input 'x' must be floating-point (...), got int32".
void CheckFloating(DType t, const std::string& op, const std::string& what);

// The default one-dtype rule, restricted to floating dtypes (float16,
// bfloat16, float32, float64).
bool FloatSameTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out);

// Declares a required enum parameter (MXNet fields with add_enum and no default).
OpDef& AddRequiredEnum(OpDef& op, const std::string& name, std::vector<std::string> allowed, const std::string& doc);

// Shape s seen as (outer, n, inner) around axis: outer = prod(s[:axis]),
// n = s[axis], inner = prod(s[axis+1:]).
struct AxisSplit {
  int64_t outer = 1, n = 1, inner = 1;
};
AxisSplit SplitAt(const Shape& s, int axis);

// Name of input i of p's op ("data", "gamma", ...) for error messages.
std::string InputName(const Params& p, size_t i);

}  // namespace nnx
}  // namespace weft
