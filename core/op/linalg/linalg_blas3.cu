// GPU kernels of _linalg_gemm, _linalg_gemm2, _linalg_trmm, _linalg_trsm and
// _linalg_syrk (declarations and CPU kernels: blas3.cc). Straightforward
// kernels (Note [GPU kernel style]): one thread per output element for the
// products, one per right-hand side for the triangular solves. Batched cuBLAS
// (gemmStridedBatched, trsmBatched) would be the production path for large
// matrices.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/linalg/linalg_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_gpu_util.cuh"

namespace weft {
namespace cuda {
namespace {

using linalg::Layout;
using linalg::MatBatch;
using linalg_gpu::OutSlot;
using linalg_gpu::ScratchPlan;

int RowAxis(const Params& p, int ndim) {
  const int64_t a = p.GetInt("axis");
  return static_cast<int>(a < 0 ? a + ndim : a);
}

// Element i of a batch laid out as `l`: matrix, row, column.
struct Pos {
  int64_t b, r, c;
};
WEFT_HD inline Pos PosOf(const MatBatch& l, int64_t i) {
  Pos p;
  p.c = i % l.cols;
  int64_t t = i / l.cols;
  const int64_t in = t % l.inner;
  t /= l.inner;
  p.r = t % l.rows;
  p.b = (t / l.rows) * l.inner + in;
  return p;
}

template <typename T>
void GemmT(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, OpReq req,
           const TensorView& out) {
  const int axis = RowAxis(p, out.ndim());
  const bool ta = p.GetBool("transpose_a"), tb = p.GetBool("transpose_b");
  const bool mac = in.size() == 3;
  const T alpha = static_cast<T>(p.GetFloat("alpha"));
  const T beta = mac ? static_cast<T>(p.GetFloat("beta")) : T(0);
  const MatBatch la = Layout(in[0].shape, axis), lb = Layout(in[1].shape, axis), lo = Layout(out.shape, axis);
  const int64_t k = ta ? la.rows : la.cols;
  const T* A = in[0].ptr<T>();
  const T* B = in[1].ptr<T>();
  const T* C = mac ? in[2].ptr<T>() : nullptr;
  T* O = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const Pos q = PosOf(lo, i);
    const T* a = A + la.Offset(q.b);
    const T* b = B + lb.Offset(q.b);
    T s = 0;
    for (int64_t j = 0; j < k; ++j)
      s += (ta ? a[j * la.ld + q.r] : a[q.r * la.ld + j]) * (tb ? b[q.c * lb.ld + j] : b[j * lb.ld + q.c]);
    T v = alpha * s;
    if (C != nullptr) v += beta * C[i];
    Assign(O, i, req, v);
  });
}

void GemmGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_F32_F64_SWITCH(out[0].dtype, p.op()->name.c_str(), T, GemmT<T>(ctx, p, in, req[0], out[0]);)
}

// Element (x, y) of M = op(tri(A)), A n x n at a.
template <typename T>
WEFT_HD inline T TriAt(const T* a, int64_t n, bool lower, bool trans, int64_t x, int64_t y) {
  if (trans) {
    const int64_t t = x;
    x = y;
    y = t;
  }
  return (lower ? y <= x : y >= x) ? a[x * n + y] : T(0);
}

template <typename T>
void TrmmT(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, OpReq req,
           const TensorView& out) {
  const bool right = p.GetBool("rightside"), lower = p.GetBool("lower"), trans = p.GetBool("transpose");
  const T alpha = static_cast<T>(p.GetFloat("alpha"));
  const MatBatch la = Layout(in[0].shape), lb = Layout(in[1].shape);
  const int64_t n = la.rows;
  const T* A = in[0].ptr<T>();
  const T* B = in[1].ptr<T>();
  T* O = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const Pos q = PosOf(lb, i);
    const T* a = A + la.Offset(q.b);
    const T* b = B + lb.Offset(q.b);
    T s = 0;
    for (int64_t j = 0; j < n; ++j)
      s += right ? b[q.r * lb.ld + j] * TriAt(a, n, lower, trans, j, q.c)
                 : TriAt(a, n, lower, trans, q.r, j) * b[j * lb.ld + q.c];
    Assign(O, i, req, alpha * s);
  });
}

template <typename T>
void TrsmT(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, OpReq req,
           const TensorView& out) {
  const bool right = p.GetBool("rightside"), lower = p.GetBool("lower"), trans = p.GetBool("transpose");
  const T alpha = static_cast<T>(p.GetFloat("alpha"));
  const MatBatch la = Layout(in[0].shape), lb = Layout(in[1].shape);
  const int64_t n = la.rows;
  ScratchPlan plan;
  OutSlot<T> o;
  o.Plan(&plan, out, req);
  plan.Allocate(ctx);
  o.Bind(plan);
  const T* A = in[0].ptr<T>();
  const T* B = in[1].ptr<T>();
  T* X = o.dst;
  const bool m_lower = lower != trans;  // M = op(tri(A)) is lower triangular
  // Left: one thread per column of X (M X = alpha B); right: one per row (X M = alpha B).
  const int64_t per = right ? lb.rows : lb.cols;
  Launch(ctx, lb.batch * per, [=] WEFT_HD(int64_t t) {
    const int64_t bi = t / per, v = t % per;
    const T* a = A + la.Offset(bi);
    const T* b = B + lb.Offset(bi);
    T* x = X + lb.Offset(bi);
    for (int64_t s = 0; s < n; ++s) {
      if (!right) {
        const int64_t r = m_lower ? s : n - 1 - s;  // forward or back substitution
        T acc = alpha * b[r * lb.ld + v];
        for (int64_t j = 0; j < n; ++j)
          if (j != r && (m_lower ? j < r : j > r)) acc -= TriAt(a, n, lower, trans, r, j) * x[j * lb.ld + v];
        x[r * lb.ld + v] = acc / TriAt(a, n, lower, trans, r, r);
      } else {
        const int64_t c = m_lower ? n - 1 - s : s;  // sum_i X[v][i] M[i][c] = alpha B[v][c]
        T acc = alpha * b[v * lb.ld + c];
        for (int64_t i = 0; i < n; ++i)
          if (i != c && (m_lower ? i > c : i < c)) acc -= x[v * lb.ld + i] * TriAt(a, n, lower, trans, i, c);
        x[v * lb.ld + c] = acc / TriAt(a, n, lower, trans, c, c);
      }
    }
  });
  o.AddBack(ctx);
}

template <typename T>
void SyrkT(const OpContext& ctx, const Params& p, const TensorView& a_in, OpReq req, const TensorView& out) {
  const bool trans = p.GetBool("transpose");
  const T alpha = static_cast<T>(p.GetFloat("alpha"));
  const MatBatch la = Layout(a_in.shape), lo = Layout(out.shape);
  const int64_t k = trans ? la.rows : la.cols;
  const T* A = a_in.ptr<T>();
  T* O = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const Pos q = PosOf(lo, i);
    const T* a = A + la.Offset(q.b);
    T s = 0;
    for (int64_t j = 0; j < k; ++j)
      s += trans ? a[j * la.ld + q.r] * a[j * la.ld + q.c] : a[q.r * la.ld + j] * a[q.c * la.ld + j];
    Assign(O, i, req, alpha * s);
  });
}

void TrmmGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_F32_F64_SWITCH(out[0].dtype, "_linalg_trmm", T, TrmmT<T>(ctx, p, in, req[0], out[0]);)
}
void TrsmGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_F32_F64_SWITCH(out[0].dtype, "_linalg_trsm", T, TrsmT<T>(ctx, p, in, req[0], out[0]);)
}
void SyrkGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_F32_F64_SWITCH(out[0].dtype, "_linalg_syrk", T, SyrkT<T>(ctx, p, in[0], req[0], out[0]);)
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(LinalgGemmGpu, GemmGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgTrmmGpu, TrmmGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgTrsmGpu, TrsmGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgSyrkGpu, SyrkGpu)

}  // namespace cuda
}  // namespace weft
