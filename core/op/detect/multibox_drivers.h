// The drivers of the SSD ops (multibox_prior.cc, multibox_detection.cc,
// multibox_target.cc): MultiBoxPrior, MultiBoxDetection, MultiBoxTarget. They
// are templates over a loop policy L with L::For(ctx, n, f), L::Temp(ctx, bytes,
// &hold) and L::kHalf (core/op/common/loop_policy.h), run by the CPU kernels
// (detect_cpu.cc) and the GPU kernels (detect.cu), and included by those two
// files.
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

// _contrib_MultiBoxPrior's anchors, captured by value by the kernels.
constexpr int kMaxPriorParams = 16;
struct PriorArgs {
  int num_sizes, num_ratios;
  double sizes[kMaxPriorParams], ratios[kMaxPriorParams];
  double step_y, step_x, offset_y, offset_x;
  bool clip;
  int64_t h, w;
};
PriorArgs PriorArgsOf(const Params& p, const Shape& data);

// Anchor j of cell (row, col), j < num_sizes + num_ratios - 1: the sizes at
// ratio 1, then sizes[0] at ratios[1:].
template <typename A>
WEFT_HD inline void PriorBox(const PriorArgs& a, int64_t row, int64_t col, int j, A* box) {
  const A cy = (static_cast<A>(row) + static_cast<A>(a.offset_y)) * static_cast<A>(a.step_y);
  const A cx = (static_cast<A>(col) + static_cast<A>(a.offset_x)) * static_cast<A>(a.step_x);
  const A hw = static_cast<A>(a.h) / static_cast<A>(a.w);
  A bw, bh;
  if (j < a.num_sizes) {
    bw = static_cast<A>(a.sizes[j]) * hw / A(2);
    bh = static_cast<A>(a.sizes[j]) / A(2);
  } else {
    const A r = std::sqrt(static_cast<A>(a.ratios[j - a.num_sizes + 1]));
    bw = static_cast<A>(a.sizes[0]) * hw * r / A(2);
    bh = static_cast<A>(a.sizes[0]) / r / A(2);
  }
  box[0] = cx - bw;
  box[1] = cy - bh;
  box[2] = cx + bw;
  box[3] = cy + bh;
  if (a.clip)
    for (int c = 0; c < 4; ++c) box[c] = box[c] < A(0) ? A(0) : (box[c] > A(1) ? A(1) : box[c]);
}

template <class L>
void MultiBoxPrior(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const PriorArgs a = PriorArgsOf(p, in[0].shape);
  const int per = a.num_sizes + a.num_ratios - 1;
  WEFT_LOOP_FLOAT_SWITCH(L, out[0].dtype, "_contrib_MultiBoxPrior", T, {
    using A = typename LoopAccOf<T>::type;
    T* o = out[0].ptr<T>();
    L::For(ctx, a.h * a.w * per, [=] WEFT_HD(int64_t i) {
      const int64_t cell = i / per;
      A box[4];
      PriorBox<A>(a, cell / a.w, cell % a.w, static_cast<int>(i % per), box);
      for (int c = 0; c < 4; ++c) o[i * 4 + c] = static_cast<T>(box[c]);
    });
  })
}

// _contrib_MultiBoxDetection's settings (host side, detect_cpu.cc).
struct DetectionArgs {
  bool clip, force_suppress;
  double threshold, nms_threshold, variances[4];
  int64_t background_id, nms_topk;
};
DetectionArgs DetectionArgsOf(const Params& p);

// MXNet's CalculateOverlap of two corner boxes (no clamp of the areas).
template <typename A>
WEFT_HD inline A DetectionOverlap(const A* a, const A* b) {
  const A iw0 = (a[2] < b[2] ? a[2] : b[2]) - (a[0] > b[0] ? a[0] : b[0]);
  const A ih0 = (a[3] < b[3] ? a[3] : b[3]) - (a[1] > b[1] ? a[1] : b[1]);
  const A iw = iw0 > A(0) ? iw0 : A(0), ih = ih0 > A(0) ? ih0 : A(0);
  const A i = iw * ih;
  const A u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i;
  return u <= A(0) ? A(0) : i / u;
}

// One batch of _contrib_MultiBoxDetection, run by one index: each anchor's
// best non-background class (score >= threshold) becomes a row [id, score,
// xmin, ymin, xmax, ymax] of the decoded box; the rows are sorted by score
// (the first nms_topk of them, as MXNet: later rows stay in anchor order),
// then greedy suppression over all the rows (IoU >= nms_threshold, same
// class unless force_suppress) marks rows with id -1; unused rows are -1.
template <typename T, typename A>
WEFT_HD inline void DetectBatch(int64_t b, const DetectionArgs& a, const T* cls, const T* loc, const T* anchors,
                                T* out, T* temp, int32_t* work, int64_t classes, int64_t n) {
  T* o = out + b * n * 6;
  T* t = temp + b * n * 6;
  int32_t* idx = work + b * 2 * n;
  int32_t* tmp = idx + n;
  const T* pc = cls + b * classes * n;
  const T* pl = loc + b * n * 4;
  for (int64_t j = 0; j < n * 6; ++j) o[j] = static_cast<T>(A(-1));
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    A score = A(-1);
    int64_t id = -1;
    for (int64_t j = 0; j < classes; ++j) {
      if (j == a.background_id) continue;
      const A v = static_cast<A>(pc[j * n + i]);
      if (v > score) {
        score = v;
        id = j;
      }
    }
    if (id < 0 || score < static_cast<A>(a.threshold)) continue;
    A an[4];
    Load4(anchors + i * 4, an);
    const A aw = an[2] - an[0], ah = an[3] - an[1];
    const A ax = (an[0] + an[2]) / A(2), ay = (an[1] + an[3]) / A(2);
    const A ox = static_cast<A>(pl[i * 4]) * static_cast<A>(a.variances[0]) * aw + ax;
    const A oy = static_cast<A>(pl[i * 4 + 1]) * static_cast<A>(a.variances[1]) * ah + ay;
    const A ow = std::exp(static_cast<A>(pl[i * 4 + 2]) * static_cast<A>(a.variances[2])) * aw / A(2);
    const A oh = std::exp(static_cast<A>(pl[i * 4 + 3]) * static_cast<A>(a.variances[3])) * ah / A(2);
    A box[4] = {ox - ow, oy - oh, ox + ow, oy + oh};
    if (a.clip)
      for (int c = 0; c < 4; ++c) box[c] = box[c] < A(0) ? A(0) : (box[c] > A(1) ? A(1) : box[c]);
    T* row = o + count * 6;
    row[0] = static_cast<T>(static_cast<A>(id > a.background_id ? id - 1 : id));
    row[1] = static_cast<T>(score);
    for (int c = 0; c < 4; ++c) row[2 + c] = static_cast<T>(box[c]);
    ++count;
  }
  if (count < 1 || a.nms_threshold <= 0 || a.nms_threshold > 1) return;
  for (int64_t j = 0; j < count * 6; ++j) t[j] = o[j];
  for (int64_t j = 0; j < count; ++j) idx[j] = static_cast<int32_t>(j);
  SortByScoreDesc<T, A>(idx, tmp, count, t, 6, 1);
  int64_t keep = count;
  if (a.nms_topk > 0 && a.nms_topk < keep) keep = a.nms_topk;
  for (int64_t i = 0; i < keep; ++i)
    for (int c = 0; c < 6; ++c) o[i * 6 + c] = t[idx[i] * 6 + c];
  for (int64_t i = 0; i < count; ++i) {
    if (static_cast<A>(o[i * 6]) < A(0)) continue;
    A bi[4];
    Load4(o + i * 6 + 2, bi);
    for (int64_t j = i + 1; j < count; ++j) {
      if (static_cast<A>(o[j * 6]) < A(0)) continue;
      if (!a.force_suppress && static_cast<A>(o[i * 6]) != static_cast<A>(o[j * 6])) continue;
      A bj[4];
      Load4(o + j * 6 + 2, bj);
      if (DetectionOverlap(bi, bj) >= static_cast<A>(a.nms_threshold)) o[j * 6] = static_cast<T>(A(-1));
    }
  }
}

// _contrib_MultiBoxDetection (cls_prob (B, C, N), loc_pred (B, N * 4), anchor (1, N, 4)) -> (B, N, 6).
template <class L>
void MultiBoxDetection(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const DetectionArgs a = DetectionArgsOf(p);
  const int64_t batches = in[0].shape[0], classes = in[0].shape[1], n = in[0].shape[2];
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_contrib_MultiBoxDetection", T, {
    using A = typename LoopAccOf<T>::type;
    std::vector<char> hold;
    const size_t rows = static_cast<size_t>(batches * n * 6) * sizeof(T);
    char* scratch = static_cast<char*>(
        L::Temp(ctx, rows + static_cast<size_t>(batches * 2 * n) * sizeof(int32_t) + 8, &hold));
    T* temp = reinterpret_cast<T*>(scratch);
    int32_t* work = reinterpret_cast<int32_t*>(scratch + ((rows + 7) / 8) * 8);
    const T* cls = in[0].ptr<T>();
    const T* loc = in[1].ptr<T>();
    const T* anchors = in[2].ptr<T>();
    T* o = out[0].ptr<T>();
    L::For(ctx, batches, [=] WEFT_HD(int64_t b) {
      DetectBatch<T, A>(b, a, cls, loc, anchors, o, temp, work, classes, n);
    });
  })
}

// _contrib_MultiBoxTarget's settings (host side, detect_cpu.cc).
struct TargetArgs {
  double overlap_threshold, ignore_label, negative_mining_ratio, negative_mining_thresh, variances[4];
};
TargetArgs TargetArgsOf(const Params& p);

// One batch of _contrib_MultiBoxTarget, run by one index (MXNet's
// MultiBoxTargetForward): the ground truths (label rows up to the first
// class -1) are matched greedily to their best anchors, then every other
// anchor to its best ground truth when the IoU exceeds overlap_threshold;
// negatives are all the others, or with negative_mining_ratio > 0 the
// ratio * positives anchors of lowest background probability (softmax of
// cls_pred) among those with IoU < negative_mining_thresh. Positives get
// cls = label class + 1, loc targets (variance-scaled center offsets) and mask
// 1; negatives cls 0; the rest ignore_label.
template <typename T, typename A>
WEFT_HD inline void TargetBatch(int64_t b, const TargetArgs& a, const T* anchors, const T* labels, const T* cls_pred,
                                T* loc_t, T* loc_m, T* cls_t, double* dwork, int32_t* iwork, int64_t n, int64_t m,
                                int64_t lw, int64_t classes) {
  double* ov = dwork + b * (n * m + 2 * n);
  double* key = ov + n * m;
  double* best = key + n;
  int32_t* flags = iwork + b * (4 * n + m);
  int32_t* match = flags + n;
  int32_t* idx = match + n;
  int32_t* tmp = idx + n;
  int32_t* gt_used = tmp + n;
  const T* lab = labels + b * m * lw;
  for (int64_t i = 0; i < n * 4; ++i) {
    loc_t[b * n * 4 + i] = static_cast<T>(A(0));
    loc_m[b * n * 4 + i] = static_cast<T>(A(0));
  }
  for (int64_t i = 0; i < n; ++i) cls_t[b * n + i] = static_cast<T>(static_cast<A>(a.ignore_label));
  int64_t valid = 0;
  while (valid < m && static_cast<A>(lab[valid * lw]) != A(-1)) ++valid;
  if (valid == 0) return;
  for (int64_t j = 0; j < n; ++j) {
    A an[4];
    Load4(anchors + j * 4, an);
    for (int64_t k = 0; k < valid; ++k) {
      A g[4];
      Load4(lab + k * lw + 1, g);
      ov[j * m + k] = static_cast<double>(DetectionOverlap(an, g));
    }
    flags[j] = -1;
    match[j] = -1;
    best[j] = -1;
  }
  for (int64_t k = 0; k < valid; ++k) gt_used[k] = 0;
  int64_t positives = 0;
  for (;;) {
    int64_t ba = -1, bg = -1;
    double top = 1e-6;
    for (int64_t j = 0; j < n; ++j) {
      if (flags[j] == 1) continue;
      for (int64_t k = 0; k < valid; ++k) {
        if (gt_used[k]) continue;
        if (ov[j * m + k] > top) {
          ba = j;
          bg = k;
          top = ov[j * m + k];
        }
      }
    }
    if (ba < 0) break;
    best[ba] = top;
    match[ba] = static_cast<int32_t>(bg);
    gt_used[bg] = 1;
    flags[ba] = 1;
    ++positives;
    bool left = false;
    for (int64_t k = 0; k < valid; ++k) left = left || !gt_used[k];
    if (!left) break;
  }
  auto best_gt = [&](int64_t j) {
    if (best[j] >= 0) return;
    int64_t g = -1;
    double mx = -1;
    for (int64_t k = 0; k < valid; ++k)
      if (ov[j * m + k] > mx) {
        mx = ov[j * m + k];
        g = k;
      }
    if (g >= 0) {
      best[j] = mx;
      match[j] = static_cast<int32_t>(g);
    }
  };
  if (a.overlap_threshold > 0) {
    for (int64_t j = 0; j < n; ++j) {
      if (flags[j] == 1) continue;
      best_gt(j);
      if (match[j] >= 0 && best[j] > a.overlap_threshold) {
        ++positives;
        gt_used[match[j]] = 1;
        flags[j] = 1;
      }
    }
  }
  if (a.negative_mining_ratio > 0) {
    // Compared in double before converting (Note [Float to int conversions]): an
    // infinite ratio asks for every remaining anchor, and 0 * inf (no positives) for none.
    const double want = static_cast<double>(positives) * a.negative_mining_ratio;
    const int64_t rest = n - positives;
    const int64_t negatives = !(want > 0) ? 0 : want >= static_cast<double>(rest) ? rest : static_cast<int64_t>(want);
    if (negatives > 0) {
      const T* cp = cls_pred + b * classes * n;
      int64_t cnt = 0;
      for (int64_t j = 0; j < n; ++j) {
        if (flags[j] == 1) continue;
        best_gt(j);
        if (best[j] < a.negative_mining_thresh && flags[j] == -1) {
          A mx = static_cast<A>(cp[j]);
          for (int64_t c = 1; c < classes; ++c) {
            const A v = static_cast<A>(cp[j + n * c]);
            if (v > mx) mx = v;
          }
          A sum = A(0);
          for (int64_t c = 0; c < classes; ++c) sum += std::exp(static_cast<A>(cp[j + n * c]) - mx);
          key[j] = -static_cast<double>(std::exp(static_cast<A>(cp[j]) - mx) / sum);
          idx[cnt++] = static_cast<int32_t>(j);
        }
      }
      SortByScoreDesc<double, double>(idx, tmp, cnt, key, 1, 0);
      for (int64_t i = 0; i < negatives && i < cnt; ++i) flags[idx[i]] = 0;
    }
  } else {
    for (int64_t j = 0; j < n; ++j)
      if (flags[j] != 1) flags[j] = 0;
  }
  for (int64_t j = 0; j < n; ++j) {
    if (flags[j] == 1) {
      const T* g = lab + match[j] * lw;
      cls_t[b * n + j] = static_cast<T>(static_cast<A>(g[0]) + A(1));
      A an[4], gb[4];
      Load4(anchors + j * 4, an);
      Load4(g + 1, gb);
      const A aw = an[2] - an[0], ah = an[3] - an[1], ax = (an[0] + an[2]) * A(0.5), ay = (an[1] + an[3]) * A(0.5);
      const A gw = gb[2] - gb[0], gh = gb[3] - gb[1], gx = (gb[0] + gb[2]) * A(0.5), gy = (gb[1] + gb[3]) * A(0.5);
      T* lt = loc_t + (b * n + j) * 4;
      lt[0] = static_cast<T>((gx - ax) / aw / static_cast<A>(a.variances[0]));
      lt[1] = static_cast<T>((gy - ay) / ah / static_cast<A>(a.variances[1]));
      lt[2] = static_cast<T>(std::log(gw / aw) / static_cast<A>(a.variances[2]));
      lt[3] = static_cast<T>(std::log(gh / ah) / static_cast<A>(a.variances[3]));
      for (int c = 0; c < 4; ++c) loc_m[(b * n + j) * 4 + c] = static_cast<T>(A(1));
    } else if (flags[j] == 0) {
      cls_t[b * n + j] = static_cast<T>(A(0));
    }
  }
}

// _contrib_MultiBoxTarget (anchor (1, N, 4), label (B, M, W), cls_pred (B, C, N)) ->
// loc_target (B, N * 4), loc_mask (B, N * 4), cls_target (B, N).
template <class L>
void MultiBoxTarget(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const TargetArgs a = TargetArgsOf(p);
  const int64_t n = in[0].shape[1], batches = in[1].shape[0], m = in[1].shape[1], lw = in[1].shape[2];
  const int64_t classes = in[2].shape[1];
  std::vector<char> hold;
  const size_t dbytes = static_cast<size_t>(batches * (n * m + 2 * n)) * sizeof(double);
  char* scratch = static_cast<char*>(
      L::Temp(ctx, dbytes + static_cast<size_t>(batches * (4 * n + m)) * sizeof(int32_t) + 8, &hold));
  double* dwork = reinterpret_cast<double*>(scratch);
  int32_t* iwork = reinterpret_cast<int32_t*>(scratch + dbytes);
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_contrib_MultiBoxTarget", T, {
    using A = typename LoopAccOf<T>::type;
    const T* anchors = in[0].ptr<T>();
    const T* labels = in[1].ptr<T>();
    const T* cls = in[2].ptr<T>();
    T* lt = out[0].ptr<T>();
    T* lm = out[1].ptr<T>();
    T* ct = out[2].ptr<T>();
    L::For(ctx, batches, [=] WEFT_HD(int64_t b) {
      TargetBatch<T, A>(b, a, anchors, labels, cls, lt, lm, ct, dwork, iwork, n, m, lw, classes);
    });
  })
}

}  // namespace detect
}  // namespace weft
