// How the _random_pdf_<d> ops (core/op/random/pdf.cc) map samples to their
// parameter sets, shared by the CPU and GPU kernels: the parameter arrays have
// the leading shape of `sample`, so output element i (a scalar sample, or a
// k-vector for the Dirichlet) belongs to parameter set i / per.
#pragma once
#include <cstdint>

#include "core/op/random/pdf_rules.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace pdf {

struct Layout {
  int64_t n_out = 0;   // densities (output elements)
  int64_t n_sets = 0;  // parameter sets
  int64_t per = 1;     // densities per parameter set
  int64_t k = 1;       // length of one sample (the Dirichlet's last axis; 1 otherwise)
};

inline Layout LayoutOf(Pdf d, const TensorView& sample, const TensorView& param) {
  Layout l;
  l.k = d == Pdf::kDirichlet && sample.ndim() > 0 ? sample.shape[sample.ndim() - 1] : 1;
  if (l.k <= 0) return Layout{0, 0, 1, 1};
  l.n_out = sample.Size() / l.k;
  l.n_sets = param.Size() / l.k;
  l.per = l.n_sets > 0 ? l.n_out / l.n_sets : 1;
  if (l.per <= 0) l.per = 1;
  return l;
}

}  // namespace pdf
}  // namespace weft
