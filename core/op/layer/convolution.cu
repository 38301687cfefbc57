// GPU kernels of Convolution and Deconvolution and their backward ops
// (core/op/layer/convolution.cc, deconvolution.cc): im2col / col2im kernels around
// gpu::Gemm, 1-D and 2-D run as 3-D (nn_cpu::ConvGeom), grouped and dilated.
// Deconvolution is the data gradient of a convolution with x and y swapped,
// exactly as on the CPU.
//
// Note [GPU convolution layout]
// As in core/op/layer/convolution_cpu.cc, a chunk of nb images is unfolded side by side
// into col[(channel, kd, kh, kw), (image, od, oh, ow)] (row stride ld = nb*P),
// so one GEMM per group (one strided-batched call over the groups) covers the
// chunk. The forward GEMM writes a chunk buffer that an epilogue kernel moves
// to (n, c, P) order while adding the bias, applying the fused activation and
// honouring the write mode. The data gradient is folded back by a gather: one
// index per input element sums the col entries of the windows that read it
// (no atomics). Chunks are sized to keep the scratch memory bounded.
#include <algorithm>
#include <string>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/nn_gpu.cuh"
#include "core/op/layer/layer_rules.h"

namespace weft {
namespace cuda {
namespace {

using nn_cpu::ConvGeom;

constexpr int64_t kMaxScratchBytes = int64_t(256) << 20;  // bound on col + chunk buffers

int64_t KernelVol(const ConvGeom& g) { return g.kernel[0] * g.kernel[1] * g.kernel[2]; }
int64_t OutVol(const ConvGeom& g) { return g.out[0] * g.out[1] * g.out[2]; }
int64_t InVol(const ConvGeom& g) { return g.in[0] * g.in[1] * g.in[2]; }

// Images per chunk: as many as fit the scratch bound, at least one.
int64_t ImagesPerChunk(const ConvGeom& g, size_t elem) {
  const int64_t per_image = (g.in_c * KernelVol(g) + g.out_c) * OutVol(g) * static_cast<int64_t>(elem);
  const int64_t nb = kMaxScratchBytes / std::max<int64_t>(1, per_image);
  return std::max<int64_t>(1, std::min(nb, g.batch));
}

// col[r * ld + i * P + p] for images n0 .. n0+nb-1 (Note [GPU convolution layout]).
template <typename T>
void Im2Col(const OpContext& ctx, const ConvGeom& g, const T* x, int64_t n0, int64_t nb, T* col) {
  const int64_t P = OutVol(g), K = KernelVol(g), in_vol = InVol(g), in_c = g.in_c;
  const ConvGeom G = g;
  Launch(ctx, in_c * K * nb * P, [=] WEFT_HD(int64_t idx) {
    const int64_t p = idx % P, t = idx / P, i = t % nb, r = t / nb;
    const int64_t c = r / K, k = r % K;
    const int64_t kw = k % G.kernel[2], kh = (k / G.kernel[2]) % G.kernel[1], kd = k / (G.kernel[1] * G.kernel[2]);
    const int64_t ow = p % G.out[2], oh = (p / G.out[2]) % G.out[1], od = p / (G.out[1] * G.out[2]);
    const int64_t id = od * G.stride[0] - G.pad[0] + kd * G.dilate[0];
    const int64_t ih = oh * G.stride[1] - G.pad[1] + kh * G.dilate[1];
    const int64_t iw = ow * G.stride[2] - G.pad[2] + kw * G.dilate[2];
    T v = T(0);
    if (id >= 0 && id < G.in[0] && ih >= 0 && ih < G.in[1] && iw >= 0 && iw < G.in[2])
      v = x[((n0 + i) * in_c + c) * in_vol + (id * G.in[1] + ih) * G.in[2] + iw];
    col[r * (nb * P) + i * P + p] = v;
  });
}

// The output position o along one axis whose kernel tap k reads input i, or -1.
WEFT_HD inline int64_t TapSource(int64_t i, int64_t k, int64_t stride, int64_t dilate, int64_t pad, int64_t out) {
  const int64_t num = i + pad - k * dilate;
  if (num < 0 || num % stride != 0) return -1;
  const int64_t o = num / stride;
  return o < out ? o : -1;
}

// dx (req)= the sum over every tap reading each input element of col
// (Note [GPU convolution layout]): one index per element of dx.
template <typename T>
void Col2Im(const OpContext& ctx, const ConvGeom& g, const T* col, int64_t n0, int64_t nb, OpReq req, T* dx) {
  const int64_t P = OutVol(g), K = KernelVol(g), in_vol = InVol(g), in_c = g.in_c, ld = nb * P;
  const ConvGeom G = g;
  T* base = dx + n0 * in_c * in_vol;
  Launch(ctx, nb * in_c * in_vol, [=] WEFT_HD(int64_t idx) {
    const int64_t s = idx % in_vol, t = idx / in_vol, c = t % in_c, i = t / in_c;
    const int64_t iw = s % G.in[2], ih = (s / G.in[2]) % G.in[1], id = s / (G.in[1] * G.in[2]);
    AccT<T> acc = AccT<T>(0);
    for (int64_t kd = 0; kd < G.kernel[0]; ++kd) {
      const int64_t od = TapSource(id, kd, G.stride[0], G.dilate[0], G.pad[0], G.out[0]);
      if (od < 0) continue;
      for (int64_t kh = 0; kh < G.kernel[1]; ++kh) {
        const int64_t oh = TapSource(ih, kh, G.stride[1], G.dilate[1], G.pad[1], G.out[1]);
        if (oh < 0) continue;
        for (int64_t kw = 0; kw < G.kernel[2]; ++kw) {
          const int64_t ow = TapSource(iw, kw, G.stride[2], G.dilate[2], G.pad[2], G.out[2]);
          if (ow < 0) continue;
          const int64_t k = (kd * G.kernel[1] + kh) * G.kernel[2] + kw;
          acc += static_cast<AccT<T>>(col[(c * K + k) * ld + i * P + (od * G.out[1] + oh) * G.out[2] + ow]);
        }
      }
    }
    Assign(base, idx, req, acc);
  });
}

// y[(n0+i), c, p] (req)= act(chunk[c * ld + i * P + p] + b[c]).
template <typename T>
void ChunkToBatch(const OpContext& ctx, const T* chunk, int64_t n0, int64_t nb, int64_t channels, int64_t P,
                  const T* b, int act, OpReq req, T* y) {
  T* base = y + n0 * channels * P;
  Launch(ctx, nb * channels * P, [=] WEFT_HD(int64_t idx) {
    const int64_t p = idx % P, t = idx / P, c = t % channels, i = t / channels;
    AccT<T> v = static_cast<AccT<T>>(chunk[c * (nb * P) + i * P + p]);
    if (b != nullptr) v += static_cast<AccT<T>>(b[c]);
    Assign(base, idx, req, ApplyAct<AccT<T>>(act, v));
  });
}

// chunk[c * ld + i * P + p] = src[(n0+i), c, p].
template <typename T>
void BatchToChunk(const OpContext& ctx, const T* src, int64_t n0, int64_t nb, int64_t channels, int64_t P, T* chunk) {
  const T* base = src + n0 * channels * P;
  Launch(ctx, nb * channels * P, [=] WEFT_HD(int64_t idx) {
    const int64_t p = idx % P, t = idx / P, c = t % channels, i = t / channels;
    chunk[c * (nb * P) + i * P + p] = base[idx];
  });
}

template <typename T>
void ForwardT(const OpContext& ctx, const ConvGeom& g, const T* x, const T* w, const T* b, int act, OpReq req, T* y) {
  const int64_t G = g.groups, kg = g.out_c / G, rows = (g.in_c / G) * KernelVol(g), P = OutVol(g);
  const int64_t nb = ImagesPerChunk(g, sizeof(T));
  T* col = static_cast<T*>(Scratch(ctx, sizeof(T) * (g.in_c * KernelVol(g) + g.out_c) * nb * P));
  T* tmp = col + g.in_c * KernelVol(g) * nb * P;
  for (int64_t n0 = 0; n0 < g.batch; n0 += nb) {
    const int64_t cnt = std::min(nb, g.batch - n0), ld = cnt * P;
    Im2Col(ctx, g, x, n0, cnt, col);
    DenseGemmBatched(ctx, false, false, kg, ld, rows, w, rows, kg * rows, col, ld, rows * ld, T(0), tmp, ld, kg * ld,
                     G);
    ChunkToBatch(ctx, tmp, n0, cnt, g.out_c, P, b, act, req, y);
  }
}

// db[c] (req)= sum of dy[n, c, :]: each image's part summed in AccT<T>, then the
// parts in double, as core/op/layer/convolution_cpu.cc BiasGradT (one kernel per level).
template <typename T>
void BiasGradT(const OpContext& ctx, const T* dy, int64_t n, int64_t c, int64_t s, OpReq req, T* db) {
  using A = AccT<T>;
  A* parts = static_cast<A*>(Scratch(ctx, sizeof(A) * static_cast<size_t>(n * c + 1)));
  Launch(ctx, n * c, [=] WEFT_HD(int64_t i) {
    const T* row = dy + i * s;
    A part = 0;
    for (int64_t j = 0; j < s; ++j) part += static_cast<A>(row[j]);
    parts[i] = part;
  });
  Launch(ctx, c, [=] WEFT_HD(int64_t ci) {
    double acc = 0;
    for (int64_t ni = 0; ni < n; ++ni) acc += parts[ni * c + ci];
    Assign(db, ci, req, static_cast<T>(acc));
  });
}

// dx (req_dx)= data gradient, dw (req_dw)= weight gradient of conv(x, w) given
// dy; x is read only for dw, w only for dx.
template <typename T>
void BackwardT(const OpContext& ctx, const ConvGeom& g, const T* dy, const T* x, const T* w, OpReq req_dx, T* dx,
               OpReq req_dw, T* dw) {
  if (req_dx == OpReq::kNull && req_dw == OpReq::kNull) return;
  const int64_t G = g.groups, kg = g.out_c / G, rows = (g.in_c / G) * KernelVol(g), P = OutVol(g);
  if (g.batch == 0) {  // no images: dw is an empty sum
    if (req_dw != OpReq::kNull && req_dw != OpReq::kAddTo)
      gpu::MemsetAsync(dw, 0, sizeof(T) * static_cast<size_t>(g.out_c * rows), StreamOf(ctx));
    return;
  }
  const int64_t nb = ImagesPerChunk(g, sizeof(T));
  T* col = static_cast<T*>(Scratch(ctx, sizeof(T) * (g.in_c * KernelVol(g) + g.out_c) * nb * P));
  T* tmp = col + g.in_c * KernelVol(g) * nb * P;
  for (int64_t n0 = 0; n0 < g.batch; n0 += nb) {
    const int64_t cnt = std::min(nb, g.batch - n0), ld = cnt * P;
    const T* dyc = dy + n0 * g.out_c * P;  // one image: the batch layout is the chunk layout
    if (cnt > 1) {
      BatchToChunk(ctx, dy, n0, cnt, g.out_c, P, tmp);
      dyc = tmp;
    }
    if (req_dw != OpReq::kNull) {
      Im2Col(ctx, g, x, n0, cnt, col);
      const T beta = n0 == 0 && req_dw != OpReq::kAddTo ? T(0) : T(1);
      DenseGemmBatched(ctx, false, true, kg, rows, ld, dyc, ld, kg * ld, col, ld, rows * ld, beta, dw, rows,
                       kg * rows, G);
    }
    if (req_dx == OpReq::kNull) continue;
    DenseGemmBatched(ctx, true, false, rows, ld, kg, w, rows, kg * rows, dyc, ld, kg * ld, T(0), col, ld, rows * ld,
                     G);
    Col2Im(ctx, g, col, n0, cnt, req_dx, dx);
  }
}

template <typename T>
T* PtrOr(const TensorView* v) {
  return v == nullptr ? nullptr : v->ptr<T>();
}

void BiasGrad(const OpContext& ctx, const char* op, const TensorView& dy, int64_t n, int64_t c, int64_t s, OpReq req,
              const TensorView& db) {
  if (req == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(dy.dtype, op, T, { BiasGradT<T>(ctx, dy.ptr<T>(), n, c, s, req, db.ptr<T>()); });
}

// Both gradients and the bias gradient (cpu ConvBackward); x, w may be null
// when their gradient is not asked for.
void ConvBackwardGPU(const OpContext& ctx, const char* op, const ConvGeom& g, const TensorView& dy,
                     const TensorView* x, const TensorView* w, OpReq req_dx, const TensorView* dx, OpReq req_dw,
                     const TensorView* dw) {
  WEFT_GPU_REAL_SWITCH(dy.dtype, op, T, {
    BackwardT<T>(ctx, g, dy.ptr<T>(), PtrOr<T>(x), PtrOr<T>(w), req_dx, PtrOr<T>(dx), req_dw, PtrOr<T>(dw));
  });
}

void Convolution(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  ConvForwardGPU(ctx, nn::ConvGeometry(p, in[0].shape), in[0], in[1], in.size() > 2 ? &in[2] : nullptr, -1, req[0],
                 out[0]);
}

void ConvolutionBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const ConvGeom g = nn::ConvGeometry(p, in[1].shape);
  ConvBackwardGPU(ctx, "_backward_Convolution", g, in[0], &in[1], &in[2], req[0], &out[0], req[1], &out[1]);
  if (out.size() > 2) BiasGrad(ctx, "_backward_Convolution", in[0], g.batch, g.out_c, OutVol(g), req[2], out[2]);
}

// Deconvolution = the convolution's data gradient, then the bias (added to
// the result even for kAddTo, as the CPU does).
void Deconvolution(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const ConvGeom g = nn::DeconvGeometry(p, in[0].shape).g;
  ConvBackwardGPU(ctx, "Deconvolution", g, in[0], nullptr, &in[1], req[0], &out[0], OpReq::kNull, nullptr);
  if (in.size() < 3) return;
  const int64_t channels = g.in_c, s = InVol(g);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "Deconvolution", T, {
    T* y = out[0].ptr<T>();
    const T* b = in[2].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { y[i] += b[(i / s) % channels]; });
  });
}

// In convolution terms out_grad is the input x and data is the output y.
void DeconvolutionBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const ConvGeom g = nn::DeconvGeometry(p, in[1].shape).g;
  if (req[0] != OpReq::kNull) ConvForwardGPU(ctx, g, in[0], in[2], nullptr, -1, req[0], out[0]);
  ConvBackwardGPU(ctx, "_backward_Deconvolution", g, in[1], &in[0], nullptr, OpReq::kNull, nullptr, req[1], &out[1]);
  if (out.size() > 2) BiasGrad(ctx, "_backward_Deconvolution", in[0], g.batch, g.in_c, InVol(g), req[2], out[2]);
}

}  // namespace

void ConvForwardGPU(const OpContext& ctx, const ConvGeom& g, const TensorView& x, const TensorView& w,
                    const TensorView* b, int act, OpReq req, const TensorView& y) {
  if (req == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(x.dtype, "Convolution", T, {
    ForwardT<T>(ctx, g, x.ptr<T>(), w.ptr<T>(), PtrOr<T>(b), act, req, y.ptr<T>());
  });
}

WEFT_GPU_KERNEL_EXPORT(ConvolutionGpu, Convolution)  // Convolution
WEFT_GPU_KERNEL_EXPORT(BackwardConvolutionGpu, ConvolutionBackward)  // _backward_Convolution
WEFT_GPU_KERNEL_EXPORT(DeconvolutionGpu, Deconvolution)  // Deconvolution
WEFT_GPU_KERNEL_EXPORT(BackwardDeconvolutionGpu, DeconvolutionBackward)  // _backward_Deconvolution

}  // namespace cuda
}  // namespace weft
