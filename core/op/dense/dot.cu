// GPU kernels of dot and batch_dot and their backward ops (core/op/dense/dot.cc,
// dot_backward.cc), and the GEMM entry point of the GPU kernels that multiply
// matrices (DenseGemm, nn_gpu.cuh). Products go to gpu::Gemm;
// integer dot / batch_dot run a plain loop accumulating in int64 like the CPU.
#include <climits>
#include <string>
#include <vector>

#include "core/op/dense/dot_cpu.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/common/nn_gpu.cuh"
#include "core/op/dense/dot_rules.h"

namespace weft {
namespace cuda {
namespace {

using tensor_cpu::GemmDesc;

int ToInt(int64_t v, const char* what) {
  WEFT_CHECK(v <= INT_MAX, kInvalidArgument) << "GPU GEMM: " << what << " " << v << " exceeds cuBLAS's int range";
  return static_cast<int>(v);
}

int64_t AtLeast1(int64_t v) { return v < 1 ? 1 : v; }

// c[r, j] = 0 for the m x n block of c (row stride ldc): an empty product.
template <typename T>
void ZeroBlock(const OpContext& ctx, int64_t m, int64_t n, T* c, int64_t ldc) {
  Launch(ctx, m * n, [=] WEFT_HD(int64_t i) { c[(i / n) * ldc + i % n] = T(0); });
}

template <typename T>
void GemmImpl(const OpContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
              int64_t sa, const T* b, int64_t ldb, int64_t sb, T beta, T* c, int64_t ldc, int64_t sc, int64_t batch) {
  if (m == 0 || n == 0 || batch == 0) return;
  if (k == 0) {  // c = beta * c: nothing to do for beta 1
    if (beta == T(0))
      for (int64_t i = 0; i < batch; ++i) ZeroBlock(ctx, m, n, c + i * sc, ldc);
    return;
  }
  const int im = ToInt(m, "m"), in = ToInt(n, "n"), ik = ToInt(k, "k");
  const int ilda = ToInt(AtLeast1(lda), "lda"), ildb = ToInt(AtLeast1(ldb), "ldb"), ildc = ToInt(AtLeast1(ldc), "ldc");
  if (batch == 1) {
    gpu::Gemm(DeviceOf(ctx), StreamOf(ctx), ta, tb, im, in, ik, T(1), a, ilda, b, ildb, beta, c, ildc);
  } else {
    gpu::GemmStridedBatched(DeviceOf(ctx), StreamOf(ctx), ta, tb, im, in, ik, T(1), a, ilda, sa, b, ildb, sb, beta, c,
                            ildc, sc, ToInt(batch, "batch"));
  }
}

// Integer dot / batch_dot: one index per output element, int64 accumulation
// and the CPU's conversions (core/op/dense/dot_cpu.cc NaiveGemm).
template <typename T>
void NaiveGemm(const OpContext& ctx, const GemmDesc& d, const T* a, const T* b, OpReq req, T* c) {
  const bool ta = d.trans_a, tb = d.trans_b;
  const int64_t m = d.m, n = d.n, k = d.k, lda = ta ? d.m : d.k, ldb = tb ? d.k : d.n;
  const int64_t sa = d.stride_a, sb = d.stride_b, sc = d.stride_c;
  Launch(ctx, d.batch * m * n, [=] WEFT_HD(int64_t idx) {
    const int64_t j = idx % n, i = (idx / n) % m, t = idx / (m * n);
    const T* at = a + t * sa;
    const T* bt = b + t * sb;
    int64_t acc = 0;
    for (int64_t p = 0; p < k; ++p) {
      const int64_t av = static_cast<int64_t>(ta ? at[p * lda + i] : at[i * lda + p]);
      acc += av * static_cast<int64_t>(tb ? bt[j * ldb + p] : bt[p * ldb + j]);
    }
    T* o = c + t * sc + i * n + j;
    *o = req == OpReq::kAddTo ? static_cast<T>(static_cast<int64_t>(*o) + acc) : static_cast<T>(acc);
  });
}

template <typename T>
void FloatGemm(const OpContext& ctx, const GemmDesc& d, const TensorView& a, const TensorView& b, OpReq req,
               const TensorView& c) {
  GemmImpl<T>(ctx, d.trans_a, d.trans_b, d.m, d.n, d.k, a.ptr<T>(), d.trans_a ? d.m : d.k, d.stride_a, b.ptr<T>(),
              d.trans_b ? d.k : d.n, d.stride_b, req == OpReq::kAddTo ? T(1) : T(0), c.ptr<T>(), d.n, d.stride_c,
              d.batch);
}

// tensor_cpu::GemmCPU on the GPU.
void GemmGPU(const OpContext& ctx, const char* op, const GemmDesc& d, const TensorView& a, const TensorView& b,
             OpReq req, const TensorView& c) {
  if (req == OpReq::kNull || d.m == 0 || d.n == 0 || d.batch == 0) return;
  switch (c.dtype) {
    case DType::kFloat32: return FloatGemm<float>(ctx, d, a, b, req, c);
    case DType::kFloat64: return FloatGemm<double>(ctx, d, a, b, req, c);
    case DType::kFloat16: return FloatGemm<gpu_half>(ctx, d, a, b, req, c);
    case DType::kBFloat16: return FloatGemm<gpu_bf16>(ctx, d, a, b, req, c);
    case DType::kUint8: return NaiveGemm<uint8_t>(ctx, d, a.ptr<uint8_t>(), b.ptr<uint8_t>(), req, c.ptr<uint8_t>());
    case DType::kInt8: return NaiveGemm<int8_t>(ctx, d, a.ptr<int8_t>(), b.ptr<int8_t>(), req, c.ptr<int8_t>());
    case DType::kInt32: return NaiveGemm<int32_t>(ctx, d, a.ptr<int32_t>(), b.ptr<int32_t>(), req, c.ptr<int32_t>());
    case DType::kInt64: return NaiveGemm<int64_t>(ctx, d, a.ptr<int64_t>(), b.ptr<int64_t>(), req, c.ptr<int64_t>());
    case DType::kBool: WEFT_THROW(kDType) << op << ": bool inputs are not supported";
    default: UnsupportedDType(op, c.dtype);
  }
}

void Dot(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
         const std::vector<TensorView>& out) {
  GemmDesc d;
  tensor::DotGeometry(p, in[0].shape, in[1].shape, &d);
  GemmGPU(ctx, "dot", d, in[0], in[1], req[0], out[0]);
}

void BatchDot(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  GemmDesc d;
  tensor::BatchDotGeometry(p, in[0].shape, in[1].shape, &d);
  GemmGPU(ctx, "batch_dot", d, in[0], in[1], req[0], out[0]);
}

// Note [Dot backward] in core/op/dense/dot_backward.cc: the CPU's GEMMs.
void DotBackward(const OpContext& ctx, const Params& p, bool batched, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const char* op = batched ? "_backward_batch_dot" : "_backward_dot";
  const tensor::DotBackwardPlan plan = tensor::DotBackwardGeometry(p, in[1].shape, in[2].shape, batched);
  for (size_t i = 0; i < 2; ++i) {
    const tensor::DotGradGemm& g = plan.grad[i];
    if (req[i] != OpReq::kNull) GemmGPU(ctx, op, g.desc, in[g.a], in[g.b], req[i], out[i]);
  }
}

void DotBackwardPlain(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  DotBackward(ctx, p, false, in, req, out);
}

void DotBackwardBatched(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  DotBackward(ctx, p, true, in, req, out);
}

}  // namespace

#define WEFT_DENSE_GEMM_DEF(T)                                                                               \
  void DenseGemm(const OpContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, \
                 const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {                                          \
    GemmImpl<T>(ctx, ta, tb, m, n, k, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1);                               \
  }                                                                                                            \
  void DenseGemmBatched(const OpContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a,    \
                        int64_t lda, int64_t sa, const T* b, int64_t ldb, int64_t sb, T beta, T* c, int64_t ldc, \
                        int64_t sc, int64_t batch) {                                                           \
    GemmImpl<T>(ctx, ta, tb, m, n, k, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch);                        \
  }
WEFT_DENSE_GEMM_DEF(float)
WEFT_DENSE_GEMM_DEF(double)
WEFT_DENSE_GEMM_DEF(gpu_half)
WEFT_DENSE_GEMM_DEF(gpu_bf16)
#undef WEFT_DENSE_GEMM_DEF

WEFT_GPU_KERNEL_EXPORT(DotGpu, Dot)  // dot
WEFT_GPU_KERNEL_EXPORT(BatchDotGpu, BatchDot)  // batch_dot
WEFT_GPU_KERNEL_EXPORT(BackwardDotGpu, DotBackwardPlain)  // _backward_dot
WEFT_GPU_KERNEL_EXPORT(BackwardBatchDotGpu, DotBackwardBatched)  // _backward_batch_dot

}  // namespace cuda
}  // namespace weft
