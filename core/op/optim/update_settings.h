// The settings of the optimizer updates of optim_single.cc / optim_multi.cc,
// read from an op's parameters once per call (host code, shared by the CPU
// and GPU drivers of update_drivers.h).
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "core/op/optim/optim_rules.h"
#include "core/opdef/params.h"

namespace weft {
namespace optim {

struct UpdateArgs {
  double lr = 0, wd = 0, rescale_grad = 1, clip_gradient = -1, momentum = 0;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, gamma1 = 0.95, gamma2 = 0.9, clip_weights = -1;
  double eta = 1, lower_bound = -1, upper_bound = -1;
  double corr1 = 1, corr2 = 1;  // 1 - beta^t where the op takes t (and bias_correction is on)
  bool bias_correction = true;
  std::vector<double> lrs, wds, etas;  // the multi_* updates' per-tensor settings
  std::vector<int64_t> steps;          // _contrib_multi_*lamb_update's step_count
};

// The settings p's op declares (the rest keep their defaults): clip_grad
// (ftml) is read as clip_gradient, learning_rates (multi_lamb) as lrs.
UpdateArgs UpdateArgsOf(const Params& p);

template <typename A>
A BoundOrInfinite(double bound) {
  return bound >= 0 ? static_cast<A>(bound) : std::numeric_limits<A>::infinity();
}

template <typename A>
Consts<A> ConstsOf(const UpdateArgs& a) {
  Consts<A> c;
  c.lr = static_cast<A>(a.lr);
  c.wd = static_cast<A>(a.wd);
  c.rescale = static_cast<A>(a.rescale_grad);
  c.clip = BoundOrInfinite<A>(a.clip_gradient);
  c.momentum = static_cast<A>(a.momentum);
  c.beta1 = static_cast<A>(a.beta1);
  c.beta2 = static_cast<A>(a.beta2);
  c.eps = static_cast<A>(a.epsilon);
  c.gamma1 = static_cast<A>(a.gamma1);
  c.gamma2 = static_cast<A>(a.gamma2);
  c.clip_w = BoundOrInfinite<A>(a.clip_weights);
  c.eta = static_cast<A>(a.eta);
  c.lower = static_cast<A>(a.lower_bound);
  c.upper = static_cast<A>(a.upper_bound);
  c.corr1 = static_cast<A>(a.corr1);
  c.corr2 = static_cast<A>(a.corr2);
  return c;
}

}  // namespace optim
}  // namespace weft
