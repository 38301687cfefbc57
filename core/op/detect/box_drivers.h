// The drivers of the box ops (box_ops.cc, box_codec.cc): box_iou, box_nms
// and its backward op, box_encode, box_decode, bipartite_matching. They are
// templates over a loop policy L with L::For(ctx, n, f), L::Temp(ctx, bytes,
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

// _contrib_box_iou: out[l, r] = IoU(lhs[l], rhs[r]).
template <class L>
void BoxIou(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int f = p.GetString("format") == "center" ? kCenter : kCorner;
  const int64_t nr = in[1].Size() / 4;
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, "_contrib_box_iou", T, {
    using A = typename LoopAccOf<T>::type;
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
      using A = typename LoopAccOf<T>::type;
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
    using A = typename LoopAccOf<T>::type;
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
    using A = typename LoopAccOf<T>::type;
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
    using A = typename LoopAccOf<T>::type;
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
    using A = typename LoopAccOf<T>::type;
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
    using A = typename LoopAccOf<T>::type;
    const T* sc = in[0].ptr<T>();
    T* rows = out[0].ptr<T>();
    T* cols = out[1].ptr<T>();
    const A th = static_cast<A>(threshold);
    L::For(ctx, batches, [=] WEFT_HD(int64_t b) {
      MatchBatch<T, A>(b, sc, rows, cols, work, nr, nc, th, ascend, topk);
    });
  })
}

}  // namespace detect
}  // namespace weft
