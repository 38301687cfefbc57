#include "core/graph/partial_shape.h"

namespace weft {

bool HasUnknownDim(const Shape& s) {
  for (int i = 0; i < s.ndim(); ++i)
    if (s[i] < 0) return true;
  return false;
}

Shape FromLegacyShape(const Shape& s) {
  if (!s.known()) return s;
  Shape r = s;
  for (int i = 0; i < r.ndim(); ++i)
    if (r[i] <= 0) r[i] = kUnknownDim;
  return r;
}

Shape ToLegacyShape(const Shape& s) {
  if (!s.known()) return s;
  Shape r = s;
  for (int i = 0; i < r.ndim(); ++i)
    if (r[i] < 0) r[i] = 0;
  return r;
}

MergeResult MergeShape(Shape* a, const Shape& b) {
  if (!b.known()) return MergeResult::kSame;
  if (!a->known()) {
    *a = b;
    return MergeResult::kChanged;
  }
  if (a->ndim() != b.ndim()) return MergeResult::kConflict;
  bool changed = false;
  for (int i = 0; i < b.ndim(); ++i) {
    if (b[i] < 0 || (*a)[i] == b[i]) continue;
    if ((*a)[i] >= 0) return MergeResult::kConflict;
    changed = true;
  }
  if (!changed) return MergeResult::kSame;
  for (int i = 0; i < b.ndim(); ++i)
    if ((*a)[i] < 0) (*a)[i] = b[i];
  return MergeResult::kChanged;
}

std::string PartialShapeString(const Shape& s) {
  if (!s.known()) return "?";
  std::string r = "(";
  for (int i = 0; i < s.ndim(); ++i) {
    if (i) r += ", ";
    r += s[i] < 0 ? std::string("?") : std::to_string(s[i]);
  }
  return r + (s.ndim() == 1 ? ",)" : ")");
}

}  // namespace weft
