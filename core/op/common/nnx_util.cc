#include "core/op/common/nnx_util.h"

#include <utility>

#include "core/base/error.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx {

void CheckFloating(DType t, const std::string& op, const std::string& what) {
  WEFT_CHECK(t == DType::kUnknown || IsFloating(t), kDType)
      << op << ": " << what << " must be floating-point (float16, bfloat16, float32 or float64), got "
      << DTypeName(t);
}

bool FloatSameTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  bool done = SameTypeInfer(op, p, in, out);
  for (size_t i = 0; i < in->size(); ++i) CheckFloating((*in)[i], op.name, "input '" + InputName(p, i) + "'");
  return done;
}

OpDef& AddRequiredEnum(OpDef& op, const std::string& name, std::vector<std::string> allowed, const std::string& doc) {
  op.add_required_param(name, ParamType::kEnum, doc);
  op.params.back().allowed = std::move(allowed);
  return op;
}

AxisSplit SplitAt(const Shape& s, int axis) {
  AxisSplit r;
  r.outer = s.ProdRange(0, axis);
  r.n = s[axis];
  r.inner = s.ProdRange(axis + 1, s.ndim());
  return r;
}

std::string InputName(const Params& p, size_t i) {
  std::vector<std::string> names = p.op()->InputNames(p);
  return i < names.size() ? names[i] : std::to_string(i);
}

}  // namespace nnx
}  // namespace weft
