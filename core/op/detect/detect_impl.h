// The drivers of the detection ops (box_ops.cc, multibox_prior.cc), shared by
// the CPU kernels (detect_cpu.cc) and the GPU kernels (detect.cu): templates
// over a loop policy L with L::For(ctx, n, f), L::Temp(ctx, bytes, &hold) and
// L::kHalf (core/op/common/loop_policy.h). Included by those two files.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/base/dtype.h"
#include "core/base/error.h"
#include "core/op/common/hd.h"
#include "core/op/common/loop_policy.h"
#include "core/op/detect/box_rules.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace detect {

template <typename T>
using AccOf = ::weft::LoopAccOf<T>;

template <typename T, typename A>
WEFT_HD inline void Load4(const T* p, A* b) {
  for (int j = 0; j < 4; ++j) b[j] = static_cast<A>(p[j]);
}

// _contrib_box_iou: out[l, r] = IoU(lhs[l], rhs[r]).
template <class L>
void BoxIou(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int f = p.GetString("format") == "center" ? kCenter : kCorner;
  const int64_t nr = in[1].Size() / 4;
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_contrib_box_iou", T, {
    using A = typename AccOf<T>::type;
    const T* l = in[0].ptr<T>();
    const T* r = in[1].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq rq = req[0];
    L::For(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      A a[4], b[4];
      Load4(l + (i / nr) * 4, a);
      Load4(r + (i % nr) * 4, b);
      const A v = BoxIoU(a, b, f);
      if (rq == OpReq::kAddTo) o[i] = static_cast<T>(static_cast<A>(o[i]) + v);
      else o[i] = static_cast<T>(v);
    });
  })
}

// Bottom-up merge sort of idx[0, k) by descending score rows[idx * stride +
// off], ties in input order (std::stable_sort's order); tmp holds k entries.
template <typename T, typename A>
WEFT_HD inline void SortByScoreDesc(int32_t* idx, int32_t* tmp, int64_t k, const T* rows, int64_t stride,
                                    int64_t off) {
  for (int64_t width = 1; width < k; width *= 2) {
    for (int64_t lo = 0; lo < k; lo += 2 * width) {
      const int64_t mid = lo + width < k ? lo + width : k;
      const int64_t hi = lo + 2 * width < k ? lo + 2 * width : k;
      int64_t x = lo, y = mid, z = lo;
      while (x < mid && y < hi) {
        const A sx = static_cast<A>(rows[idx[x] * stride + off]);
        const A sy = static_cast<A>(rows[idx[y] * stride + off]);
        tmp[z++] = sy > sx ? idx[y++] : idx[x++];
      }
      while (x < mid) tmp[z++] = idx[x++];
      while (y < hi) tmp[z++] = idx[y++];
    }
    for (int64_t j = 0; j < k; ++j) idx[j] = tmp[j];
  }
}

struct NmsArgs {
  double overlap_thresh, valid_thresh;
  int64_t topk, coord_start, score_index, id_index, background_id;
  bool force_suppress;
  int in_format, out_format;
};
NmsArgs NmsArgsOf(const Params& p);

// One batch of _contrib_box_nms, run by one index: the valid boxes (score >
// valid_thresh, class != background_id), sorted by descending score (stable
// merge sort), the first topk kept, then greedy suppression in that order of
// every later box whose IoU with a kept one exceeds overlap_thresh (of the
// same class unless force_suppress); the kept rows first in order, -1 rows
// after; record[k] = the kept row's flat input index, or -1.
template <typename T, typename A>
WEFT_HD inline void NmsBatch(int64_t b, const NmsArgs& a, const T* data, T* out, T* record, int32_t* work,
                             int64_t n, int64_t w) {
  if (a.topk == 0) {  // MXNet: no box is considered, the input is returned as is
    for (int64_t j = 0; j < n * w; ++j) out[b * n * w + j] = data[b * n * w + j];
    for (int64_t j = 0; j < n; ++j) record[b * n + j] = static_cast<T>(static_cast<A>(b * n + j));
    return;
  }
  int32_t* idx = work + b * 2 * n;
  int32_t* tmp = idx + n;
  const T* base = data + b * n * w;
  int64_t k = 0;
  for (int64_t j = 0; j < n; ++j) {
    const A s = static_cast<A>(base[j * w + a.score_index]);
    bool valid = s > static_cast<A>(a.valid_thresh);
    if (a.id_index >= 0 && static_cast<A>(base[j * w + a.id_index]) == static_cast<A>(a.background_id)) valid = false;
    if (valid) idx[k++] = static_cast<int32_t>(j);
  }
  SortByScoreDesc<T, A>(idx, tmp, k, base, w, a.score_index);
  if (a.topk >= 0 && k > a.topk) k = a.topk;
  const int f = a.in_format;
  for (int64_t r = 0; r < k; ++r) {
    if (idx[r] < 0) continue;
    A rb[4];
    Load4(base + idx[r] * w + a.coord_start, rb);
    for (int64_t j = r + 1; j < k; ++j) {
      if (idx[j] < 0) continue;
      if (!a.force_suppress && a.id_index >= 0 &&
          static_cast<A>(base[idx[r] * w + a.id_index]) != static_cast<A>(base[idx[j] * w + a.id_index]))
        continue;
      A jb[4];
      Load4(base + idx[j] * w + a.coord_start, jb);
      if (BoxIoU(rb, jb, f) > static_cast<A>(a.overlap_thresh)) idx[j] = -1;
    }
  }
  T* ob = out + b * n * w;
  T* rec = record + b * n;
  int64_t count = 0;
  for (int64_t r = 0; r < k; ++r) {
    if (idx[r] < 0) continue;
    for (int64_t c = 0; c < w; ++c) ob[count * w + c] = base[idx[r] * w + c];
    rec[count] = static_cast<T>(static_cast<A>(b * n + idx[r]));
    ++count;
  }
  for (int64_t r = count; r < n; ++r) {
    for (int64_t c = 0; c < w; ++c) ob[r * w + c] = static_cast<T>(A(-1));
    rec[r] = static_cast<T>(A(-1));
  }
  if (a.in_format != a.out_format) {
    for (int64_t r = 0; r < n; ++r) {
      A bx[4];
      Load4(ob + r * w + a.coord_start, bx);
      if (a.out_format == kCenter) CornerToCenter(bx);
      else CenterToCorner(bx);
      for (int c = 0; c < 4; ++c) ob[r * w + a.coord_start + c] = static_cast<T>(bx[c]);
    }
  }
}

// _contrib_box_nms: data (..., n, w) -> out (same shape), record (..., n, 1).
template <class L>
void BoxNms(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull && req[1] == OpReq::kNull) return;
  const NmsArgs a = NmsArgsOf(p);
  const Shape& s = in[0].shape;
  const int64_t w = s[s.ndim() - 1], n = s[s.ndim() - 2];
  if (w == 0) {  // rows of no columns (the layout check lets width 0 through): no box is kept
    if (req[1] == OpReq::kNull) return;
    WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_contrib_box_nms", T, {
      using A = typename AccOf<T>::type;
      T* rec = out[1].ptr<T>();
      L::For(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { rec[i] = static_cast<T>(A(-1)); });
    })
    return;
  }
  const int64_t batches = n > 0 ? in[0].Size() / (n * w) : 0;
  std::vector<char> hold;
  int32_t* work = static_cast<int32_t*>(
      L::Temp(ctx, static_cast<size_t>(batches * 2 * n) * sizeof(int32_t) + sizeof(int32_t), &hold));
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_contrib_box_nms", T, {
    using A = typename AccOf<T>::type;
    const T* d = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    T* rec = out[1].ptr<T>();
    L::For(ctx, batches, [=] WEFT_HD(int64_t b) { NmsBatch<T, A>(b, a, d, o, rec, work, n, w); });
  })
}

// _backward_contrib_box_nms (out_grad, record) -> data's gradient: each kept
// row's gradient goes back to the row it came from; suppressed rows get 0.
template <class L>
void BoxNmsBackward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const Shape& s = in[0].shape;
  const int64_t w = s[s.ndim() - 1];
  const int64_t rows = w > 0 ? in[0].Size() / w : 0;
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_backward_contrib_box_nms", T, {
    using A = typename AccOf<T>::type;
    const T* og = in[0].ptr<T>();
    const T* rec = in[1].ptr<T>();
    T* g = out[0].ptr<T>();
    if (req[0] != OpReq::kAddTo) L::For(ctx, rows * w, [=] WEFT_HD(int64_t i) { g[i] = static_cast<T>(A(0)); });
    const int64_t to_rows = w > 0 ? out[0].Size() / w : 0;
    L::For(ctx, rows, [=] WEFT_HD(int64_t i) {
      const A r = static_cast<A>(rec[i]);
      // record comes from data when the op is called directly: a row that is not one of
      // data's (NaN, Inf, 1e30 or past the end) is dropped, not converted (undefined) and
      // written out of bounds.
      if (!(r >= A(0) && r < static_cast<A>(to_rows))) return;
      const int64_t to = static_cast<int64_t>(r);
      for (int64_t c = 0; c < w; ++c)
        g[to * w + c] = static_cast<T>(static_cast<A>(g[to * w + c]) + static_cast<A>(og[i * w + c]));
    });
  })
}

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
    using A = typename AccOf<T>::type;
    T* o = out[0].ptr<T>();
    L::For(ctx, a.h * a.w * per, [=] WEFT_HD(int64_t i) {
      const int64_t cell = i / per;
      A box[4];
      PriorBox<A>(a, cell / a.w, cell % a.w, static_cast<int>(i % per), box);
      for (int c = 0; c < 4; ++c) o[i * 4 + c] = static_cast<T>(box[c]);
    });
  })
}

// _contrib_box_encode (samples, matches, anchors, refs, means, stds) ->
// (targets, masks): the center offsets of each anchor's matched reference,
// normalized by means/stds, where samples > 0.5; 0 (and mask 0) elsewhere.
template <class L>
void BoxEncode(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull && req[1] == OpReq::kNull) return;
  const Shape& as = in[2].shape;
  const int64_t n = as[1], m = in[3].shape[1];
  WEFT_LOOP_FLOAT_SWITCH(L, in[2].dtype, "_contrib_box_encode", T, {
    using A = typename AccOf<T>::type;
    const T* samples = in[0].ptr<T>();
    const T* matches = in[1].ptr<T>();
    const T* anchors = in[2].ptr<T>();
    const T* refs = in[3].ptr<T>();
    const T* means = in[4].ptr<T>();
    const T* stds = in[5].ptr<T>();
    T* targets = out[0].ptr<T>();
    T* masks = out[1].ptr<T>();
    L::For(ctx, as[0] * n, [=] WEFT_HD(int64_t i) {
      // A match that names no reference (NaN, Inf, negative or past m, from data) makes the
      // sample invalid: it was converted (undefined) and read refs out of bounds.
      const A mf = static_cast<A>(matches[i]);
      const bool valid = static_cast<A>(samples[i]) > A(0.5) && mf >= A(0) && mf < static_cast<A>(m);
      A t[4] = {A(0), A(0), A(0), A(0)};
      if (valid) {
        const int64_t match = static_cast<int64_t>(mf);
        A r[4], a[4];
        Load4(refs + ((i / n) * m + match) * 4, r);
        Load4(anchors + i * 4, a);
        const A rw = r[2] - r[0], rh = r[3] - r[1], aw = a[2] - a[0], ah = a[3] - a[1];
        const A rx = r[0] + rw * A(0.5), ry = r[1] + rh * A(0.5);
        const A ax = a[0] + aw * A(0.5), ay = a[1] + ah * A(0.5);
        t[0] = ((rx - ax) / aw - static_cast<A>(means[0])) / static_cast<A>(stds[0]);
        t[1] = ((ry - ay) / ah - static_cast<A>(means[1])) / static_cast<A>(stds[1]);
        t[2] = (std::log(rw / aw) - static_cast<A>(means[2])) / static_cast<A>(stds[2]);
        t[3] = (std::log(rh / ah) - static_cast<A>(means[3])) / static_cast<A>(stds[3]);
      }
      for (int c = 0; c < 4; ++c) {
        targets[i * 4 + c] = static_cast<T>(t[c]);
        masks[i * 4 + c] = static_cast<T>(valid ? A(1) : A(0));
      }
    });
  })
}

// _contrib_box_decode (data (B, N, 4), anchors (1, N, 4)) -> corner boxes.
template <class L>
void BoxDecode(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t n = in[0].shape[1];
  const double s0 = p.GetFloat("std0"), s1 = p.GetFloat("std1"), s2 = p.GetFloat("std2"), s3 = p.GetFloat("std3");
  const double clip = p.GetFloat("clip");
  const bool corner = p.GetString("format") == "corner";
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_contrib_box_decode", T, {
    using A = typename AccOf<T>::type;
    const T* x = in[0].ptr<T>();
    const T* anchors = in[1].ptr<T>();
    T* o = out[0].ptr<T>();
    const A st0 = static_cast<A>(s0), st1 = static_cast<A>(s1), st2 = static_cast<A>(s2), st3 = static_cast<A>(s3);
    const A cl = static_cast<A>(clip);
    const bool has_clip = clip > 0;
    L::For(ctx, in[0].shape[0] * n, [=] WEFT_HD(int64_t i) {
      A a[4];
      Load4(anchors + (i % n) * 4, a);
      if (corner) {
        a[2] = a[2] - a[0];
        a[3] = a[3] - a[1];
        a[0] = a[0] + a[2] * A(0.5);
        a[1] = a[1] + a[3] * A(0.5);
      }
      const A ox = static_cast<A>(x[i * 4 + 0]) * st0 * a[2] + a[0];
      const A oy = static_cast<A>(x[i * 4 + 1]) * st1 * a[3] + a[1];
      A dw = static_cast<A>(x[i * 4 + 2]) * st2;
      A dh = static_cast<A>(x[i * 4 + 3]) * st3;
      if (has_clip) {
        dw = dw < cl ? dw : cl;
        dh = dh < cl ? dh : cl;
      }
      const A ow = std::exp(dw) * a[2] * A(0.5), oh = std::exp(dh) * a[3] * A(0.5);
      o[i * 4 + 0] = static_cast<T>(ox - ow);
      o[i * 4 + 1] = static_cast<T>(oy - oh);
      o[i * 4 + 2] = static_cast<T>(ox + ow);
      o[i * 4 + 3] = static_cast<T>(oy + oh);
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
    using A = typename AccOf<T>::type;
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

// One batch of _contrib_bipartite_matching, run by one index: the (row, col)
// pairs by score (descending, or ascending with is_ascend; ties in input
// order), each taken greedily when both are free, until a score fails the
// threshold (strictly) or, as MXNet, the count exceeds topk (> 0).
template <typename T, typename A>
WEFT_HD inline void MatchBatch(int64_t b, const T* scores, T* rows, T* cols, int32_t* work, int64_t nr, int64_t nc,
                               A threshold, bool ascend, int64_t topk) {
  const int64_t k = nr * nc;
  const T* sc = scores + b * k;
  int32_t* idx = work + b * 2 * k;
  int32_t* tmp = idx + k;
  T* rm = rows + b * nr;
  T* cm = cols + b * nc;
  for (int64_t i = 0; i < nr; ++i) rm[i] = static_cast<T>(A(-1));
  for (int64_t j = 0; j < nc; ++j) cm[j] = static_cast<T>(A(-1));
  for (int64_t j = 0; j < k; ++j) idx[j] = static_cast<int32_t>(j);
  if (ascend) {
    // ascending: sort the negated order by hand (same merge, reversed comparison)
    for (int64_t width = 1; width < k; width *= 2) {
      for (int64_t lo = 0; lo < k; lo += 2 * width) {
        const int64_t mid = lo + width < k ? lo + width : k;
        const int64_t hi = lo + 2 * width < k ? lo + 2 * width : k;
        int64_t x = lo, y = mid, z = lo;
        while (x < mid && y < hi)
          tmp[z++] = static_cast<A>(sc[idx[y]]) < static_cast<A>(sc[idx[x]]) ? idx[y++] : idx[x++];
        while (x < mid) tmp[z++] = idx[x++];
        while (y < hi) tmp[z++] = idx[y++];
      }
      for (int64_t j = 0; j < k; ++j) idx[j] = tmp[j];
    }
  } else {
    SortByScoreDesc<T, A>(idx, tmp, k, sc, 1, 0);
  }
  int64_t count = 0;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t r = idx[j] / nc, c = idx[j] % nc;
    if (static_cast<A>(rm[r]) != A(-1) || static_cast<A>(cm[c]) != A(-1)) continue;
    const A s = static_cast<A>(sc[idx[j]]);
    if (!(ascend ? s < threshold : s > threshold)) break;
    rm[r] = static_cast<T>(static_cast<A>(c));
    cm[c] = static_cast<T>(static_cast<A>(r));
    ++count;
    if (topk > 0 && count > topk) break;
  }
}

template <class L>
void BipartiteMatching(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull && req[1] == OpReq::kNull) return;
  const Shape& s = in[0].shape;
  const int64_t nr = s[s.ndim() - 2], nc = s[s.ndim() - 1];
  const int64_t batches = nr * nc > 0 ? in[0].Size() / (nr * nc) : 0;
  const bool ascend = p.GetBool("is_ascend");
  const double threshold = p.GetFloat("threshold");
  const int64_t topk = p.GetInt("topk");
  std::vector<char> hold;
  int32_t* work = static_cast<int32_t*>(
      L::Temp(ctx, static_cast<size_t>(batches * 2 * nr * nc) * sizeof(int32_t) + sizeof(int32_t), &hold));
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_contrib_bipartite_matching", T, {
    using A = typename AccOf<T>::type;
    const T* sc = in[0].ptr<T>();
    T* rows = out[0].ptr<T>();
    T* cols = out[1].ptr<T>();
    const A th = static_cast<A>(threshold);
    L::For(ctx, batches, [=] WEFT_HD(int64_t b) {
      MatchBatch<T, A>(b, sc, rows, cols, work, nr, nc, th, ascend, topk);
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
    using A = typename AccOf<T>::type;
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
    using A = typename AccOf<T>::type;
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
