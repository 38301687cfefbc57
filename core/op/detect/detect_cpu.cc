// CPU kernels of the detection ops: the drivers of box_drivers.h,
// multibox_drivers.h and proposal_drivers.h over a loop split across threads,
// and the settings they read (host code, shared with detect.cu).
#include "core/op/detect/detect_cpu.h"

#include <cmath>

#include "core/op/detect/box_drivers.h"
#include "core/op/detect/multibox_drivers.h"
#include "core/op/detect/proposal_drivers.h"

namespace weft {
namespace detect {
namespace {

using L = ::weft::CpuLoop;  // common/loop_policy.h

}  // namespace

NmsArgs NmsArgsOf(const Params& p) {
  NmsArgs a;
  a.overlap_thresh = p.GetFloat("overlap_thresh");
  a.valid_thresh = p.GetFloat("valid_thresh");
  a.topk = p.GetInt("topk");
  a.coord_start = p.GetInt("coord_start");
  a.score_index = p.GetInt("score_index");
  a.id_index = p.GetInt("id_index");
  a.background_id = p.GetInt("background_id");
  a.force_suppress = p.GetBool("force_suppress");
  a.in_format = p.GetString("in_format") == "center" ? kCenter : kCorner;
  a.out_format = p.GetString("out_format") == "center" ? kCenter : kCorner;
  return a;
}

PriorArgs PriorArgsOf(const Params& p, const Shape& data) {
  PriorArgs a{};
  const std::vector<double>& sizes = p.GetFloatTuple("sizes");
  const std::vector<double>& ratios = p.GetFloatTuple("ratios");
  const std::vector<double>& steps = p.GetFloatTuple("steps");
  const std::vector<double>& offsets = p.GetFloatTuple("offsets");
  a.num_sizes = static_cast<int>(sizes.size());
  a.num_ratios = static_cast<int>(ratios.size());
  for (size_t i = 0; i < sizes.size(); ++i) a.sizes[i] = sizes[i];
  for (size_t i = 0; i < ratios.size(); ++i) a.ratios[i] = ratios[i];
  a.h = data[2];
  a.w = data[3];
  a.step_y = steps[0] > 0 ? steps[0] : 1.0 / static_cast<double>(a.h);
  a.step_x = steps[1] > 0 ? steps[1] : 1.0 / static_cast<double>(a.w);
  a.offset_y = offsets[0];
  a.offset_x = offsets[1];
  a.clip = p.GetBool("clip");
  return a;
}

DetectionArgs DetectionArgsOf(const Params& p) {
  DetectionArgs a{};
  a.clip = p.GetBool("clip");
  a.force_suppress = p.GetBool("force_suppress");
  a.threshold = p.GetFloat("threshold");
  a.nms_threshold = p.GetFloat("nms_threshold");
  const std::vector<double>& v = p.GetFloatTuple("variances");
  for (int i = 0; i < 4; ++i) a.variances[i] = v[static_cast<size_t>(i)];
  a.background_id = p.GetInt("background_id");
  a.nms_topk = p.GetInt("nms_topk");
  return a;
}

TargetArgs TargetArgsOf(const Params& p) {
  TargetArgs a{};
  a.overlap_threshold = p.GetFloat("overlap_threshold");
  a.ignore_label = p.GetFloat("ignore_label");
  a.negative_mining_ratio = p.GetFloat("negative_mining_ratio");
  a.negative_mining_thresh = p.GetFloat("negative_mining_thresh");
  const std::vector<double>& v = p.GetFloatTuple("variances");
  for (int i = 0; i < 4; ++i) a.variances[i] = v[static_cast<size_t>(i)];
  return a;
}

ProposalArgs ProposalArgsOf(const Params& p) {
  ProposalArgs a{};
  a.pre_nms = p.GetInt("rpn_pre_nms_top_n");
  a.post_nms = p.GetInt("rpn_post_nms_top_n");
  a.threshold = p.GetFloat("threshold");
  a.min_size = static_cast<double>(p.GetInt("rpn_min_size"));
  a.stride = static_cast<double>(p.GetInt("feature_stride"));
  a.iou_loss = p.GetBool("iou_loss");
  const std::vector<double>& scales = p.GetFloatTuple("scales");
  const std::vector<double>& ratios = p.GetFloatTuple("ratios");
  // MXNet's GenerateAnchors from the base anchor (0, 0, stride - 1, stride - 1), in float.
  const float bw = static_cast<float>(a.stride), bh = static_cast<float>(a.stride);
  const float cx = 0.5f * (bw - 1.0f), cy = 0.5f * (bh - 1.0f);
  int64_t k = 0;
  for (double r : ratios) {
    for (double sc : scales) {
      const float ratio = static_cast<float>(r), scale = static_cast<float>(sc);
      const float size_ratios = std::floor(bw * bh / ratio);
      const float nw = std::floor(std::sqrt(size_ratios) + 0.5f) * scale;
      const float nh = std::floor(nw / scale * ratio + 0.5f) * scale;
      a.base[k][0] = cx - 0.5f * (nw - 1.0f);
      a.base[k][1] = cy - 0.5f * (nh - 1.0f);
      a.base[k][2] = cx + 0.5f * (nw - 1.0f);
      a.base[k][3] = cy + 0.5f * (nh - 1.0f);
      ++k;
    }
  }
  a.anchors = k;
  return a;
}

#define WEFT_DETECT_CPU_DEF(name, ...) \
  WEFT_GPU_KERNEL_DECL(name##Cpu) { __VA_ARGS__(ctx, p, in, req, out); }
WEFT_DETECT_KERNELS(WEFT_DETECT_CPU_DEF)
#undef WEFT_DETECT_CPU_DEF

}  // namespace detect
}  // namespace weft
