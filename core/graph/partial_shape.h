// Partially known shapes inside graph shape inference (Note [Partial shapes]
// in core/graph/infer_node.cc). Ops never see them: every op's InferShape
// still gets only whole shapes, known or Shape::Unknown().
#pragma once
#include <string>

#include "core/base/shape.h"

namespace weft {

// A dim not known yet. A shape during inference is Shape::Unknown() (not even
// its ndim), partial (ndim known, some dims kUnknownDim) or fully known.
constexpr int64_t kUnknownDim = -1;

bool HasUnknownDim(const Shape& s);
inline bool FullyKnown(const Shape& s) { return s.known() && !HasUnknownDim(s); }
inline bool IsPartial(const Shape& s) { return s.known() && HasUnknownDim(s); }

// MXNet 1.x legacy shapes (infer_shape's arguments, a variable's __shape__):
// a 0 dim, or a negative one (numpy's -1), is unknown. A 0-d shape stays a
// known scalar shape (MXNet's legacy mode cannot write one and reads () as
// unknown; Weft has 0-d arrays).
Shape FromLegacyShape(const Shape& s);
// Back to legacy: unknown dims as 0 (what MXNet 1.x's infer_shape_partial returns).
Shape ToLegacyShape(const Shape& s);

// Unifies b into *a dim by dim. kConflict leaves *a unchanged.
enum class MergeResult { kSame, kChanged, kConflict };
MergeResult MergeShape(Shape* a, const Shape& b);

// "(2, ?)" for a partial shape, "?" for an unknown one.
std::string PartialShapeString(const Shape& s);

}  // namespace weft
