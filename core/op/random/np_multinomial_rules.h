// The draw of _npi_multinomial (MXNet 1.9.1's np.random.multinomial with pvals
// given as numbers, np_multinomial.cc), written once for the CPU and the GPU
// kernels over the uniform sources of Note [One sampler rule].
//
// Note [Multinomial by categorical draws]
// As MXNet's kernel: each experiment makes n categorical draws, a uniform u
// in [0, 1) choosing the first category j < k - 1 with u < p_0 + ... + p_j,
// else the last one (its probability is 1 - sum(pvals[:-1]), whatever
// pvals[-1] says, as NumPy and MXNet), and counts them. The cumulative sums
// travel by value in the rule (kernels take them as a parameter), so k is
// capped at kMaxCategories. The work is one uniform per draw, so the draws of
// one call, n * prod(size), are capped at kMaxDraws (2^28, about a second on
// one core) and a larger request is refused naming the parameters, where
// MXNet's kernel would run for minutes or hours (n = 2^31 ran past the
// degenerate-input test's 20 s watchdog). A sampler that splits large n into
// binomial draws would lift the cap.
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace sampler {

struct MultinomialRule {
  static constexpr int kMaxCategories = 128;
  static constexpr int64_t kMaxDraws = int64_t{1} << 28;
  int64_t n = 0;
  int k = 0;
  double cum[kMaxCategories] = {};  // cum[j] = p_0 + ... + p_j
};

// The rule and the output shape size + (k,); throws kInvalidArgument naming
// the op and parameter. Host code (np_multinomial.cc).
MultinomialRule MultinomialRuleOf(const Params& p, Shape* out);

// Experiment e's counts into out[e * k ... e * k + k - 1].
template <typename Src>
WEFT_HD inline void MultinomialRow(const MultinomialRule& r, int64_t e, Src& s, OpReq req, int64_t* out) {
  int64_t counts[MultinomialRule::kMaxCategories] = {};
  for (int64_t t = 0; t < r.n; ++t) {
    const double u = s.Next();
    int j = 0;
    while (j < r.k - 1 && !(u < r.cum[j])) ++j;
    ++counts[j];
  }
  for (int j = 0; j < r.k; ++j) nnm::Put<int64_t, int64_t>(out, e * r.k + j, req, counts[j]);
}

}  // namespace sampler
}  // namespace weft
