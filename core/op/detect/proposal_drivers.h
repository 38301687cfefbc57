// The driver of the RPN proposal ops (proposal.cc): _contrib_Proposal and
// _contrib_MultiProposal. It is a template over a loop policy L with
// L::For(ctx, n, f), L::Temp(ctx, bytes, &hold) and L::kHalf
// (core/op/common/loop_policy.h), run by the CPU kernels (detect_cpu.cc) and
// the GPU kernels (detect.cu), and included by those two files.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/op/common/hd.h"
#include "core/op/common/loop_policy.h"
#include "core/op/detect/box_rules.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace detect {

// _contrib_Proposal / _contrib_MultiProposal's settings (host side,
// detect_cpu.cc); the base anchors (ratios outer, scales inner) are computed
// there once per call and captured by value.
constexpr int kMaxProposalAnchors = 64;
struct ProposalArgs {
  int64_t pre_nms, post_nms, anchors;
  double threshold, min_size, stride;
  bool iou_loss;
  double base[kMaxProposalAnchors][4];
};
ProposalArgs ProposalArgsOf(const Params& p);

// One image of the RPN proposal ops, run by one index (MXNet's CPU
// ProposalForward): every anchor shifted over the (H, W) map is moved by its
// deltas (or, iou_loss, offset corner by corner), clipped to the image; boxes
// smaller than rpn_min_size * scale are widened by it and scored -1; the
// rpn_pre_nms_top_n best (stable sort by score) go through NMS (IoU with +1
// pixel areas > threshold), and the kept boxes fill the rpn_post_nms_top_n
// output rows, repeated cyclically when fewer were kept.
template <typename T, typename A>
WEFT_HD inline void ProposalImage(int64_t b, const ProposalArgs& a, const T* cls, const T* deltas, const T* im_info,
                                  T* rois, T* scores, double* dwork, int32_t* iwork, int64_t h, int64_t w) {
  const int64_t na = a.anchors, count = na * h * w;
  double* prop = dwork + b * count * 5;
  int32_t* idx = iwork + b * 4 * count;
  int32_t* tmp = idx + count;
  int32_t* gone = tmp + count;
  int32_t* keep = gone + count;
  const T* sc = cls + b * 2 * na * h * w + na * h * w;  // the foreground half
  const T* dl = deltas + b * 4 * na * h * w;
  const double im_h = static_cast<double>(static_cast<A>(im_info[b * 3])),
               im_w = static_cast<double>(static_cast<A>(im_info[b * 3 + 1]));
  const double min_size = a.min_size * static_cast<double>(static_cast<A>(im_info[b * 3 + 2]));
  for (int64_t i = 0; i < na; ++i) {
    for (int64_t y = 0; y < h; ++y) {
      for (int64_t x = 0; x < w; ++x) {
        const int64_t index = y * (w * na) + x * na + i;
        double* pb = prop + index * 5;
        const double x1 = a.base[i][0] + static_cast<double>(x) * a.stride;
        const double y1 = a.base[i][1] + static_cast<double>(y) * a.stride;
        const double x2 = a.base[i][2] + static_cast<double>(x) * a.stride;
        const double y2 = a.base[i][3] + static_cast<double>(y) * a.stride;
        const int64_t hw = y * w + x;
        const double d0 = static_cast<double>(static_cast<A>(dl[(i * 4 + 0) * h * w + hw]));
        const double d1 = static_cast<double>(static_cast<A>(dl[(i * 4 + 1) * h * w + hw]));
        const double d2 = static_cast<double>(static_cast<A>(dl[(i * 4 + 2) * h * w + hw]));
        const double d3 = static_cast<double>(static_cast<A>(dl[(i * 4 + 3) * h * w + hw]));
        double px1, py1, px2, py2;
        if (a.iou_loss) {
          px1 = x1 + d0;
          py1 = y1 + d1;
          px2 = x2 + d2;
          py2 = y2 + d3;
        } else {
          const double bw = x2 - x1 + 1, bh = y2 - y1 + 1;
          const double cx = x1 + 0.5 * (bw - 1), cy = y1 + 0.5 * (bh - 1);
          const double pcx = d0 * bw + cx, pcy = d1 * bh + cy;
          const double pw = std::exp(d2) * bw, ph = std::exp(d3) * bh;
          px1 = pcx - 0.5 * (pw - 1);
          py1 = pcy - 0.5 * (ph - 1);
          px2 = pcx + 0.5 * (pw - 1);
          py2 = pcy + 0.5 * (ph - 1);
        }
        auto clampd = [](double v, double hi) { return v < 0 ? 0.0 : (v > hi ? hi : v); };
        pb[0] = clampd(px1, im_w - 1);
        pb[1] = clampd(py1, im_h - 1);
        pb[2] = clampd(px2, im_w - 1);
        pb[3] = clampd(py2, im_h - 1);
        pb[4] = static_cast<double>(static_cast<A>(sc[i * h * w + hw]));
        if (pb[2] - pb[0] + 1 < min_size || pb[3] - pb[1] + 1 < min_size) {
          pb[0] -= min_size / 2;
          pb[1] -= min_size / 2;
          pb[2] += min_size / 2;
          pb[3] += min_size / 2;
          pb[4] = -1;
        }
      }
    }
  }
  for (int64_t j = 0; j < count; ++j) idx[j] = static_cast<int32_t>(j);
  SortByScoreDesc<double, double>(idx, tmp, count, prop, 5, 4);
  const int64_t pre = a.pre_nms > 0 && a.pre_nms < count ? a.pre_nms : count;
  const int64_t post = a.post_nms < pre ? a.post_nms : pre;
  for (int64_t j = 0; j < pre; ++j) gone[j] = 0;
  int64_t kept = 0;
  for (int64_t i = 0; i < pre && kept < post; ++i) {
    if (gone[i]) continue;
    keep[kept++] = static_cast<int32_t>(i);
    const double* bi = prop + idx[i] * 5;
    const double ai = (bi[2] - bi[0] + 1) * (bi[3] - bi[1] + 1);
    for (int64_t j = i + 1; j < pre; ++j) {
      if (gone[j]) continue;
      const double* bj = prop + idx[j] * 5;
      const double iw = (bi[2] < bj[2] ? bi[2] : bj[2]) - (bi[0] > bj[0] ? bi[0] : bj[0]) + 1;
      const double ih = (bi[3] < bj[3] ? bi[3] : bj[3]) - (bi[1] > bj[1] ? bi[1] : bj[1]) + 1;
      const double inter = (iw > 0 ? iw : 0) * (ih > 0 ? ih : 0);
      const double aj = (bj[2] - bj[0] + 1) * (bj[3] - bj[1] + 1);
      if (inter / (ai + aj - inter) > a.threshold) gone[j] = 1;
    }
  }
  for (int64_t i = 0; i < a.post_nms; ++i) {
    const double* bx = prop + idx[keep[kept > 0 ? i % kept : 0]] * 5;
    T* r = rois + (b * a.post_nms + i) * 5;
    r[0] = static_cast<T>(static_cast<A>(b));
    for (int c = 0; c < 4; ++c) r[1 + c] = static_cast<T>(static_cast<A>(bx[c]));
    scores[b * a.post_nms + i] = static_cast<T>(static_cast<A>(bx[4]));
  }
}

// (cls_prob (B, 2A, H, W), bbox_pred (B, 4A, H, W), im_info (B, 3)) ->
// rois (B * rpn_post_nms_top_n, 5), scores (B * rpn_post_nms_top_n, 1).
template <class L>
void Proposal(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const ProposalArgs a = ProposalArgsOf(p);
  const Shape& s = in[0].shape;
  const int64_t batches = s[0], h = s[2], w = s[3];
  const int64_t count = a.anchors * h * w;
  std::vector<char> hold;
  const size_t dbytes = static_cast<size_t>(batches * count * 5) * sizeof(double);
  char* scratch = static_cast<char*>(
      L::Temp(ctx, dbytes + static_cast<size_t>(batches * count * 4) * sizeof(int32_t) + 8, &hold));
  double* dwork = reinterpret_cast<double*>(scratch);
  int32_t* iwork = reinterpret_cast<int32_t*>(scratch + dbytes);
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, p.op()->name.c_str(), T, {
    using A = typename LoopAccOf<T>::type;
    const T* cls = in[0].ptr<T>();
    const T* dl = in[1].ptr<T>();
    const T* info = in[2].ptr<T>();
    T* rois = out[0].ptr<T>();
    T* scores = out[1].ptr<T>();
    L::For(ctx, batches, [=] WEFT_HD(int64_t b) {
      ProposalImage<T, A>(b, a, cls, dl, info, rois, scores, dwork, iwork, h, w);
    });
  })
}
}  // namespace detect
}  // namespace weft
