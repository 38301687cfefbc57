// The optimizer a parameter server applies (Note [Server optimizer]).
//
// Note [Server optimizer]
//   Workers never send code: set_optimizer sends JSON text
//     {"name": "sgd", "learning_rate": 0.1, "wd": 0.0, "rescale_grad": 1.0,
//      "clip_gradient": null, "momentum": 0.9, ...,
//      "lr_mult": {"key": m, ...}, "wd_mult": {"key": m, ...}}
//   and the server maps the name to the registry's fused update op, run through
//   the imperative Invoke machinery like any other op:
//     sgd      sgd_update / sgd_mom_update (momentum > 0)
//     nag      sgd_update / nag_mom_update
//     adam     adam_update, with MXNet's bias correction of the learning rate
//              (lr * sqrt(1 - beta2^t) / (1 - beta1^t), t counted per key)
//     rmsprop  rmsprop_update (the plain variant)
//     signum   signsgd_update / signum_update
//     ftrl     ftrl_update
//   Unknown names and unknown hyper-parameters are errors naming them. States
//   (momentum, moments) live on the server next to the weight, zero at first.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/ndarray/imperative.h"

namespace weft {
namespace ps {

class ServerOptimizer {
 public:
  // Parses the spec; throws kInvalidArgument naming what is wrong.
  explicit ServerOptimizer(const std::string& spec_json);

  const std::string& name() const { return name_; }
  // weight -= update(grad) in place, creating the key's states on first use.
  void Update(const std::string& key, const NDArray& weight, const NDArray& grad);

 private:
  struct KeyState {
    std::vector<NDArray> states;
    int64_t count = 0;
  };
  std::string name_;
  const OpDef* op_ = nullptr;
  int num_states_ = 0;
  bool bias_correction_ = false;
  double lr_ = 0.01, wd_ = 0.0, beta1_ = 0.9, beta2_ = 0.999;
  AttrList fixed_attrs_;  // every attribute except lr and wd
  std::map<std::string, double> lr_mult_, wd_mult_;
  std::map<std::string, KeyState> keys_;
};

}  // namespace ps
}  // namespace weft
