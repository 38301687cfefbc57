// IdentityAttachKLSparseReg's backward arithmetic, shared by its CPU kernel
// (core/op/loss/kl_sparse_reg.cc) and its GPU kernel (kl_sparse_reg.cu).
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace nnm {

struct KlArgs {
  int64_t rows = 1, cols = 1;  // data seen as (rows, cols), moving_avg (cols,)
  double target = 0.1, penalty = 0.001, momentum = 0.9;
};

// The backward op's arguments for data of shape s (host code of both kernels).
inline KlArgs KlArgsOf(const Params& p, const Shape& s) {
  KlArgs a;
  a.cols = s[s.ndim() - 1];
  a.rows = a.cols > 0 ? s.Size() / a.cols : 0;
  a.target = p.GetFloat("sparseness_target");
  a.penalty = p.GetFloat("penalty");
  a.momentum = p.GetFloat("momentum");
  return a;
}

// moving_avg[j] = momentum * moving_avg[j] + (1 - momentum) * mean_i data[i, j].
// A is T's compute type (float for the 16-bit types).
template <typename T, typename A>
WEFT_HD inline void KlUpdateAverage(int64_t j, const KlArgs& a, const T* x, T* avg) {
  double s = 0;
  for (int64_t i = 0; i < a.rows; ++i) s += static_cast<double>(static_cast<A>(x[i * a.cols + j]));
  const double mean = a.rows > 0 ? s / static_cast<double>(a.rows) : 0.0;
  avg[j] = static_cast<T>(static_cast<A>(a.momentum * static_cast<double>(static_cast<A>(avg[j])) +
                                         (1.0 - a.momentum) * mean));
}

// The penalty's gradient at column j: penalty * (-target / avg + (1 - target) / (1 - avg)).
WEFT_HD inline double KlPenalty(const KlArgs& a, double avg) {
  return a.penalty * (-a.target / avg + (1.0 - a.target) / (1.0 - avg));
}

}  // namespace nnm
}  // namespace weft
