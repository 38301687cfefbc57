// The portable GEMM (core/op/dense/portable_gemm.cc, what the dependency-free
// predictor uses instead of BLAS) against the BLAS the library links
// (lapack::Gemm, CBLAS underneath): every transpose pair,
// padded leading dimensions, alpha/beta, edge tiles smaller than the register
// tile, several k blocks, shapes split across threads, and beta == 0 ignoring
// NaNs already in C.
#include <gtest/gtest.h>


#include <cmath>
#include <random>
#include <vector>

#include "core/op/dense/portable_gemm.h"
#include "core/op/linalg/lapack_cpu.h"  // the library's CBLAS GEMM (Note [Which BLAS])

namespace weft {
namespace {

struct Case {
  int64_t m, n, k;
  bool ta, tb;
  double alpha, beta;
};

template <typename T>
void CheckAgainstBlas(const Case& c) {
  std::mt19937 g(static_cast<uint32_t>(c.m * 131 + c.n * 17 + c.k));
  std::normal_distribution<double> nd;
  const int64_t lda = (c.ta ? c.m : c.k) + 3, ldb = (c.tb ? c.k : c.n) + 1, ldc = c.n + 2;
  std::vector<T> a(static_cast<size_t>((c.ta ? c.k : c.m) * lda)), b(static_cast<size_t>((c.tb ? c.n : c.k) * ldb));
  std::vector<T> got(static_cast<size_t>(c.m * ldc)), want;
  for (T& v : a) v = static_cast<T>(nd(g));
  for (T& v : b) v = static_cast<T>(nd(g));
  for (T& v : got) v = c.beta == 0 ? std::nan("") : static_cast<T>(nd(g));
  want = got;
  portable_gemm::Gemm(c.ta, c.tb, c.m, c.n, c.k, static_cast<T>(c.alpha), a.data(), lda, b.data(), ldb,
                      static_cast<T>(c.beta), got.data(), ldc);
  if (c.beta == 0)
    for (T& v : want) v = 0;  // BLAS may read C even with beta 0; the portable one must not
  lapack::Gemm(c.ta, c.tb, c.m, c.n, c.k, static_cast<T>(c.alpha), a.data(), lda, b.data(), ldb,
               static_cast<T>(c.beta), want.data(), ldc);
  const double tol = (sizeof(T) == 4 ? 2e-5 : 1e-12) * std::sqrt(static_cast<double>(c.k) + 1) * 4;
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      const size_t at = static_cast<size_t>(i * ldc + j);
      ASSERT_NEAR(got[at], want[at], tol) << "m=" << c.m << " n=" << c.n << " k=" << c.k << " ta=" << c.ta
                                          << " tb=" << c.tb << " at (" << i << ", " << j << ")";
    }
  // The padding between rows of C is never written (it still holds NaN).
  if (c.beta == 0) {
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t j = c.n; j < ldc; ++j) EXPECT_TRUE(std::isnan(got[static_cast<size_t>(i * ldc + j)]));
  }
}

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {1, 1, 1, false, false, 1, 0},      {3, 5, 7, false, false, 1.5, 0},   {3, 5, 7, true, false, 1, 1},
      {3, 5, 7, false, true, -2, 0.5},    {3, 5, 7, true, true, 1, 0},       {17, 33, 300, false, true, 1, 0},
      {130, 70, 513, true, false, 1, 1},  {64, 900, 27, false, false, 1, 0}, {1, 1000, 512, false, true, 1, 0},
      {300, 7, 9, true, true, 0.5, 2},    {5, 3, 0, false, false, 1, 0.5},   {260, 2100, 40, false, false, 1, 0},
  };
  return cases;
}

TEST(PortableGemm, FloatMatchesBlas) {
  for (const Case& c : Cases()) CheckAgainstBlas<float>(c);
}

TEST(PortableGemm, DoubleMatchesBlas) {
  for (const Case& c : Cases()) CheckAgainstBlas<double>(c);
}

}  // namespace
}  // namespace weft
