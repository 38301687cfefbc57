#include "core/op/optim/update_infer.h"

#include "core/base/error.h"
#include "core/op/common/nnx_util.h"

namespace weft {
namespace optim {
namespace {

// Merges b into a (0 dims unknown); false on a conflict.
bool Merge(Shape* a, const Shape& b) {
  if (!b.known()) return true;
  if (!a->known()) {
    *a = b;
    return true;
  }
  if (a->ndim() != b.ndim()) return false;
  for (int d = 0; d < a->ndim(); ++d) {
    if ((*a)[d] == 0) (*a)[d] = b[d];
    else if (b[d] != 0 && b[d] != (*a)[d]) return false;
  }
  return true;
}

bool FullyKnown(const Shape& s) {
  if (!s.known()) return false;
  for (int d = 0; d < s.ndim(); ++d)
    if (s[d] == 0) return false;
  return true;
}

}  // namespace

bool UnifyShapes(const std::string& op, const std::vector<ShapeSlot>& slots) {
  Shape merged = Shape::Unknown();
  const std::string* first = nullptr;
  for (const ShapeSlot& sl : slots) {
    if (!sl.s->known()) continue;
    WEFT_CHECK(Merge(&merged, *sl.s), kShape)
        << op << ": " << sl.name << ": expected shape " << merged.ToString() << " (that of " << *first
        << "), got " << sl.s->ToString();
    if (first == nullptr) first = &sl.name;
  }
  if (!merged.known()) return false;
  for (const ShapeSlot& sl : slots) *sl.s = merged;
  return FullyKnown(merged);
}

void FixShape(const std::string& op, const ShapeSlot& slot, const Shape& want) {
  Shape got = want;
  WEFT_CHECK(Merge(&got, *slot.s), kShape)
      << op << ": " << slot.name << ": expected shape " << want.ToString() << ", got " << slot.s->ToString();
  *slot.s = got;
}

bool UnifyFloatTypes(const std::string& op, const std::vector<TypeSlot>& slots) {
  DType t = DType::kUnknown;
  const std::string* first = nullptr;
  for (const TypeSlot& sl : slots) {
    if (*sl.t == DType::kUnknown) continue;
    WEFT_CHECK(IsFloating(*sl.t) && *sl.t != DType::kBFloat16, kDType)
        << op << ": " << sl.name << ": expected a floating-point dtype (float16, float32 or float64), got "
        << DTypeName(*sl.t);
    if (t == DType::kUnknown) {
      t = *sl.t;
      first = &sl.name;
    }
    WEFT_CHECK(*sl.t == t, kDType) << op << ": " << sl.name << ": expected dtype " << DTypeName(t) << " (that of "
                                   << *first << "), got " << DTypeName(*sl.t);
  }
  if (t == DType::kUnknown) return false;
  for (const TypeSlot& sl : slots) *sl.t = t;
  return true;
}

void FixType(const std::string& op, const TypeSlot& slot, DType want) {
  WEFT_CHECK(*slot.t == DType::kUnknown || *slot.t == want, kDType)
      << op << ": " << slot.name << ": expected dtype " << DTypeName(want) << ", got " << DTypeName(*slot.t);
  *slot.t = want;
}

bool RealSameTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  std::vector<TypeSlot> slots;
  for (size_t i = 0; i < in->size(); ++i) slots.push_back(InType(p, in, i));
  for (size_t i = 0; i < out->size(); ++i) slots.push_back(OutType(p, out, i));
  return UnifyFloatTypes(p.op()->name, slots);
}

ShapeSlot InShape(const Params& p, std::vector<Shape>* in, size_t i) {
  return {&(*in)[i], "input '" + nnx::InputName(p, i) + "'"};
}
ShapeSlot OutShape(const Params&, std::vector<Shape>* out, size_t i) {
  return {&(*out)[i], "output " + std::to_string(i)};
}
TypeSlot InType(const Params& p, std::vector<DType>* in, size_t i) {
  return {&(*in)[i], "input '" + nnx::InputName(p, i) + "'"};
}
TypeSlot OutType(const Params&, std::vector<DType>* out, size_t i) {
  return {&(*out)[i], "output " + std::to_string(i)};
}

void AddWd(OpDef& op, bool required) {
  const char* doc =
      "Weight decay augments the objective function with a regularization term that penalizes large weights. The "
      "penalty scales with the square of the magnitude of each weight.";
  if (required) op.add_required_param("wd", ParamType::kFloat, doc);
  else op.add_param("wd", ParamType::kFloat, "0", doc);
}

void AddRescaleGrad(OpDef& op) {
  op.add_param("rescale_grad", ParamType::kFloat, "1", "Rescale gradient to grad = rescale_grad*grad.");
}

void AddClipGradient(OpDef& op, const char* name) {
  op.add_param(name, ParamType::kFloat, "-1",
               std::string("Clip gradient to the range of [-") + name + ", " + name + "] If " + name +
                   " <= 0, gradient clipping is turned off. grad = max(min(grad, " + name + "), -" + name + ").");
}

void CheckTupleSize(const Params& p, const char* param, size_t size, int64_t n, const char* count) {
  WEFT_CHECK(static_cast<int64_t>(size) == n, kInvalidArgument)
      << p.op()->name << ": parameter '" << param << "' must have " << count << " = " << n << " entries, got "
      << size;
}

int64_t PositiveCount(const Params& p, const char* count) {
  const int64_t n = p.GetInt(count);
  WEFT_CHECK(n >= 1, kInvalidArgument) << p.op()->name << ": parameter '" << count << "' must be at least 1, got "
                                       << n;
  return n;
}

}  // namespace optim
}  // namespace weft
