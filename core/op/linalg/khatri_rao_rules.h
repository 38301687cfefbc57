// The element rule of khatri_rao shared by its CPU kernel (khatri_rao.cc) and
// GPU kernel (khatri_rao.cu): out (M_1 ... M_n, N), column k the Kronecker
// product of the inputs' columns k; the first input's row index is the most
// significant.
#pragma once
#include <cstdint>
#include <vector>

#include "core/op/common/hd.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace linalg {

constexpr int kMaxKhatriRaoInputs = 16;

template <typename T>
struct KhatriRaoArgs {
  int n = 0;
  int64_t cols = 0;
  const T* a[kMaxKhatriRaoInputs] = {};
  int64_t rows[kMaxKhatriRaoInputs] = {};
};

// The inputs' pointers and rows for output `out` (host code of both kernels;
// the declaration caps the inputs at kMaxKhatriRaoInputs).
template <typename T>
KhatriRaoArgs<T> KhatriRaoArgsOf(const std::vector<TensorView>& in, const TensorView& out) {
  KhatriRaoArgs<T> k;
  k.n = static_cast<int>(in.size());
  k.cols = out.shape[1];
  for (int m = 0; m < k.n; ++m) {
    k.a[m] = in[static_cast<size_t>(m)].ptr<T>();
    k.rows[m] = in[static_cast<size_t>(m)].shape[0];
  }
  return k;
}

template <typename T>
WEFT_HD inline T KhatriRaoValue(const KhatriRaoArgs<T>& k, int64_t i) {
  const int64_t col = i % k.cols;
  int64_t row = i / k.cols;
  T v = 1;
  for (int m = k.n - 1; m >= 0; --m) {
    v *= k.a[m][(row % k.rows[m]) * k.cols + col];
    row /= k.rows[m];
  }
  return v;
}

}  // namespace linalg
}  // namespace weft
