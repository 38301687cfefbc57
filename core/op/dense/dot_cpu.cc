#include "core/op/dense/dot_cpu.h"

#include <algorithm>
#include <type_traits>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor_cpu {
namespace {

// Accumulator of the plain loop: 16-bit floats in float, integers in int64.
template <typename T>
using GemmAcc = typename std::conditional<
    std::is_same<T, half_t>::value || std::is_same<T, bf16_t>::value, float,
    typename std::conditional<std::is_floating_point<T>::value, T, int64_t>::type>::type;

template <typename T>
void NaiveGemm(const GemmDesc& d, const T* a, const T* b, OpReq req, T* c) {
  using A = GemmAcc<T>;
  const int64_t lda = d.trans_a ? d.m : d.k, ldb = d.trans_b ? d.k : d.n;
  ParallelFor(d.batch * d.m, d.n * d.k, [&](int64_t begin, int64_t end) {
    std::vector<A> row(static_cast<size_t>(d.n));
    for (int64_t bi = begin; bi < end; ++bi) {
      const int64_t t = bi / d.m, i = bi % d.m;
      const T* at = a + t * d.stride_a;
      const T* bt = b + t * d.stride_b;
      T* ct = c + t * d.stride_c + i * d.n;
      std::fill(row.begin(), row.end(), A(0));
      for (int64_t p = 0; p < d.k; ++p) {
        const A av = static_cast<A>(d.trans_a ? at[p * lda + i] : at[i * lda + p]);
        if (d.trans_b) {
          for (int64_t j = 0; j < d.n; ++j) row[j] += av * static_cast<A>(bt[j * ldb + p]);
        } else {
          const T* br = bt + p * ldb;
          for (int64_t j = 0; j < d.n; ++j) row[j] += av * static_cast<A>(br[j]);
        }
      }
      for (int64_t j = 0; j < d.n; ++j) {
        if (req == OpReq::kAddTo) ct[j] = static_cast<T>(static_cast<A>(ct[j]) + row[j]);
        else ct[j] = static_cast<T>(row[j]);
      }
    }
  });
}

template <>
void NaiveGemm<bool>(const GemmDesc&, const bool*, const bool*, OpReq, bool*) {
  WEFT_THROW(kDType) << "dot: bool inputs are not supported";
}

}  // namespace

void GemmCPU(const GemmDesc& d, const TensorView& a, const TensorView& b, OpReq req, const TensorView& c) {
  if (req == OpReq::kNull || d.m == 0 || d.n == 0 || d.batch == 0) return;
  if (d.k == 0) {  // empty inner dimension: the product is zero
    if (req != OpReq::kAddTo) FillCPU(c, req, 0.0);
    return;
  }
  // One BLAS wrapper (nn_cpu::Gemm, gemm_cpu.cc) for every GEMM of the library.
  const int64_t lda = std::max<int64_t>(1, d.trans_a ? d.m : d.k), ldb = std::max<int64_t>(1, d.trans_b ? d.k : d.n);
  const double beta = req == OpReq::kAddTo ? 1.0 : 0.0;
  switch (c.dtype) {
    case DType::kFloat32:
      for (int64_t t = 0; t < d.batch; ++t)
        nn_cpu::Gemm(d.trans_a, d.trans_b, d.m, d.n, d.k, a.ptr<float>() + t * d.stride_a, lda,
                     b.ptr<float>() + t * d.stride_b, ldb, static_cast<float>(beta), c.ptr<float>() + t * d.stride_c,
                     d.n);
      return;
    case DType::kFloat64:
      for (int64_t t = 0; t < d.batch; ++t)
        nn_cpu::Gemm(d.trans_a, d.trans_b, d.m, d.n, d.k, a.ptr<double>() + t * d.stride_a, lda,
                     b.ptr<double>() + t * d.stride_b, ldb, beta, c.ptr<double>() + t * d.stride_c, d.n);
      return;
    default:
      break;
  }
  WEFT_DTYPE_SWITCH(c.dtype, T, { NaiveGemm<T>(d, a.ptr<T>(), b.ptr<T>(), req, c.ptr<T>()); })
}

}  // namespace tensor_cpu
}  // namespace weft
