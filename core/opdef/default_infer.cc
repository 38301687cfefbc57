#include "core/opdef/default_infer.h"

#include "core/base/error.h"

namespace weft {

void AssignShape(std::vector<Shape>* v, size_t i, const Shape& s, const std::string& what) {
  if (!s.known()) return;
  Shape& cur = (*v)[i];
  if (!cur.known()) {
    cur = s;
    return;
  }
  WEFT_CHECK(cur == s, kShape) << what << ": expected shape " << s.ToString() << ", got "
                               << cur.ToString();
}

void AssignType(std::vector<DType>* v, size_t i, DType t, const std::string& what) {
  if (t == DType::kUnknown) return;
  DType& cur = (*v)[i];
  if (cur == DType::kUnknown) {
    cur = t;
    return;
  }
  WEFT_CHECK(cur == t, kDType) << what << ": expected dtype " << DTypeName(t) << ", got "
                               << DTypeName(cur);
}

bool SameShapeInfer(const OpDef& op, const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  Shape known = Shape::Unknown();
  for (auto* v : {in, out})
    for (const Shape& s : *v)
      if (s.known()) { known = s; break; }
  if (!known.known()) return false;
  // Every imperative call of a unary or binary elementwise op comes here: the
  // names for a message are built only when there is a mismatch to report.
  for (size_t i = 0; i < in->size(); ++i) {
    Shape& s = (*in)[i];
    if (!s.known()) s = known;
    if (s == known) continue;
    std::vector<std::string> names = op.InputNames(p);
    AssignShape(in, i, known, op.name + ": input '" + (i < names.size() ? names[i] : std::to_string(i)) + "'");
  }
  for (size_t i = 0; i < out->size(); ++i) {
    Shape& s = (*out)[i];
    if (!s.known()) s = known;
    if (s != known) AssignShape(out, i, known, op.name + ": output " + std::to_string(i));
  }
  return true;
}

bool SameTypeInfer(const OpDef& op, const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  DType known = DType::kUnknown;
  for (auto* v : {in, out})
    for (DType t : *v)
      if (t != DType::kUnknown) { known = t; break; }
  if (known == DType::kUnknown) return false;
  for (size_t i = 0; i < in->size(); ++i) {  // names built only for a message, as in SameShapeInfer
    DType& t = (*in)[i];
    if (t == DType::kUnknown) t = known;
    if (t == known) continue;
    std::vector<std::string> names = op.InputNames(p);
    AssignType(in, i, known, op.name + ": input '" + (i < names.size() ? names[i] : std::to_string(i)) + "'");
  }
  for (size_t i = 0; i < out->size(); ++i) {
    DType& t = (*out)[i];
    if (t == DType::kUnknown) t = known;
    if (t != known) AssignType(out, i, known, op.name + ": output " + std::to_string(i));
  }
  return true;
}

}  // namespace weft
