// Declaration helpers shared by the roi ops of the spatial family (ROIPooling,
// _contrib_ROIAlign): the pooled_size parameter and the checks of data/rois.
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include "core/base/error.h"
#include "core/base/shape.h"
#include "core/opdef/params.h"

namespace weft {
namespace spatial {

// (ph, pw) of pooled_size: (s,) is (s, s); throws kInvalidArgument naming op.
inline std::pair<int64_t, int64_t> PooledSize(const Params& p, const std::string& op) {
  const std::vector<int64_t>& s = p.GetTuple("pooled_size");
  WEFT_CHECK(s.size() == 1 || s.size() == 2, kInvalidArgument)
      << op << ": parameter 'pooled_size' must be (h, w) or (s,), got " << s.size() << " values";
  const int64_t ph = s[0], pw = s.size() == 1 ? s[0] : s[1];
  WEFT_CHECK(ph >= 1 && pw >= 1, kInvalidArgument)
      << op << ": parameter 'pooled_size' must be positive, got (" << ph << ", " << pw << ")";
  return {ph, pw};
}

// data (N, C, H, W) and rois (R, cols) with cols in [min_cols, 5].
inline void CheckRoiInputs(const std::string& op, const Shape& data, const Shape& rois, int64_t min_cols) {
  WEFT_CHECK(data.ndim() == 4, kShape) << op << ": input 'data' must be 4-D (N, C, H, W), got " << data.ToString();
  WEFT_CHECK(rois.ndim() == 2 && rois[1] >= min_cols && rois[1] <= 5, kShape)
      << op << ": input 'rois' must be 2-D (num_rois, " << (min_cols == 5 ? "5" : "4 or 5")
      << ") of [batch_index, x1, y1, x2, y2], got " << rois.ToString();
  // Every roi samples data's pixels (clamped into the image): there must be some.
  WEFT_CHECK(rois[0] == 0 || (data[2] > 0 && data[3] > 0), kShape)
      << op << ": input 'data' " << data.ToString() << " has no pixels for the " << rois[0] << " rois to pool";
}

}  // namespace spatial
}  // namespace weft
