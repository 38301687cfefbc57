// GPU kernels of Pad and _backward_Pad (core/op/shape/pad.cc). The gradient is a
// gather: each input element sums the padded positions that copy it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

// ---- Pad ----

enum PadModeGPU : int { kPadConstant = 0, kPadEdge = 1, kPadReflect = 2 };

int PadModeOf(const Params& p) {
  const std::string& m = p.GetString("mode");
  return m == "edge" ? kPadEdge : (m == "reflect" ? kPadReflect : kPadConstant);
}

// The input index that padded position o of a dim copies, or -1 for the
// constant (SourceMaps in core/op/shape/pad_cpu.cc).
WEFT_HD inline int64_t PadSource(int64_t o, int64_t before, int64_t n, int mode) {
  int64_t i = o - before;
  if (i >= 0 && i < n) return i;
  if (mode == kPadConstant || n == 0) return -1;
  if (mode == kPadEdge) return i < 0 ? 0 : n - 1;
  if (n == 1) return 0;
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

// The before-pads, checked against the unpadded shape x (Pads in core/op/shape/pad.cc).
Dims PadBefore(const Params& p, const Shape& x, const Shape& y) {
  const std::vector<int64_t>& w = p.GetTuple("pad_width");
  WEFT_CHECK(static_cast<int>(w.size()) == 2 * x.ndim() && x.ndim() == y.ndim(), kInvalidArgument)
      << p.op()->name << ": parameter 'pad_width' " << tensor::TupleString(w) << " does not fit shape "
      << x.ToString();
  Dims b = ToDims(x);
  for (int d = 0; d < x.ndim(); ++d) b.d[d] = w[static_cast<size_t>(2 * d)];
  return b;
}

template <typename T>
void PadForwardT(const OpContext& ctx, int64_t size, const T* x, Dims xs, Dims ys, Dims before, int mode, T c,
                 OpReq req, T* y) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    int64_t rem = e, src = 0, stride = 1;
    for (int d = ys.ndim - 1; d >= 0 && src >= 0; --d) {
      const int64_t s = PadSource(rem % ys.d[d], before.d[d], xs.d[d], mode);
      rem /= ys.d[d];
      src = s < 0 ? -1 : src + s * stride;
      stride *= xs.d[d];
    }
    Assign(y, e, req, src < 0 ? c : x[src]);
  });
}

void PadForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Dims before = PadBefore(p, in[0].shape, out[0].shape);
  const Dims xs = ToDims(in[0].shape), ys = ToDims(out[0].shape);
  const double value = p.GetFloat("constant_value");
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "Pad", T, {
    PadForwardT<T>(ctx, out[0].Size(), in[0].ptr<T>(), xs, ys, before, PadModeOf(p), static_cast<T>(value), req[0],
                   out[0].ptr<T>());
  });
}

// gx[e] (req)= the sum (in float64) of gy over every padded position that
// copies input element e. Per dim those positions are at most three ranges:
// the element itself, the edge run (edge mode, first/last element) and one
// mirror on each side (reflect mode: pads are narrower than the dim).
template <typename T>
void PadBackwardT(const OpContext& ctx, int64_t size, const T* gy, Dims xs, Dims ys, Dims before, int mode,
                  OpReq req, T* gx) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    const int nd = xs.ndim;
    int64_t lo[kMaxDims][3], hi[kMaxDims][3], cnt[kMaxDims], xi[kMaxDims];
    int64_t rem = e;
    for (int d = nd - 1; d >= 0; --d) {
      xi[d] = rem % xs.d[d];
      rem /= xs.d[d];
    }
    bool any = true;
    for (int d = 0; d < nd; ++d) {
      const int64_t x = xi[d], b = before.d[d], n = xs.d[d], out = ys.d[d];
      lo[d][0] = x + b;
      hi[d][0] = x + b + 1;
      lo[d][1] = hi[d][1] = lo[d][2] = hi[d][2] = 0;
      if (mode == kPadEdge) {
        if (x == 0) { lo[d][1] = 0; hi[d][1] = b; }
        if (x == n - 1) { lo[d][2] = b + n; hi[d][2] = out; }
      } else if (mode == kPadReflect && n > 1) {
        if (x >= 1 && x <= b) { lo[d][1] = b - x; hi[d][1] = b - x + 1; }
        const int64_t o = 2 * (n - 1) - x + b;  // mirrored past the end
        if (x <= n - 2 && o < out) { lo[d][2] = o; hi[d][2] = o + 1; }
      }
      cnt[d] = (hi[d][0] - lo[d][0]) + (hi[d][1] - lo[d][1]) + (hi[d][2] - lo[d][2]);
      any = any && cnt[d] > 0;
    }
    double acc = 0;
    if (any) {
      int64_t pos[kMaxDims] = {};
      for (;;) {
        int64_t off = 0;
        bool hit = true;
        for (int d = 0; d < nd; ++d) {
          int64_t k = pos[d], r = 0;
          while (k >= hi[d][r] - lo[d][r]) {
            k -= hi[d][r] - lo[d][r];
            ++r;
          }
          const int64_t o = lo[d][r] + k;
          hit = hit && PadSource(o, before.d[d], xs.d[d], mode) == xi[d];
          off = off * ys.d[d] + o;
        }
        if (hit) acc += static_cast<double>(gy[off]);
        int d = nd - 1;
        for (; d >= 0; --d) {
          if (++pos[d] < cnt[d]) break;
          pos[d] = 0;
        }
        if (d < 0) break;
      }
    }
    Assign(gx, e, req, static_cast<T>(acc));
  });
}

void PadBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Dims before = PadBefore(p, out[0].shape, in[0].shape);
  const Dims xs = ToDims(out[0].shape), ys = ToDims(in[0].shape);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_backward_Pad", T, {
    PadBackwardT<T>(ctx, out[0].Size(), in[0].ptr<T>(), xs, ys, before, PadModeOf(p), req[0], out[0].ptr<T>());
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(PadGpu, PadForward)  // Pad
WEFT_GPU_KERNEL_EXPORT(BackwardPadGpu, PadBackward)  // _backward_Pad

}  // namespace cuda
}  // namespace weft
