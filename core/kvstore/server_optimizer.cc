#include "core/kvstore/server_optimizer.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "core/base/error.h"
#include "core/base/json_reader.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace ps {
namespace {

double Number(const JSONValue& v, const std::string& what) {
  WEFT_CHECK(v.is_number(), kInvalidArgument) << "kvstore optimizer: '" << what << "' must be a number";
  double d = std::strtod(v.text.c_str(), nullptr);
  // 1e999 parses as inf: an update with it would turn every weight into inf or NaN.
  WEFT_CHECK(std::isfinite(d), kInvalidArgument)
      << "kvstore optimizer: '" << what << "' = " << v.text << " is not a finite number";
  return d;
}

std::string Text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

}  // namespace

ServerOptimizer::ServerOptimizer(const std::string& spec_json) {
  JSONValue spec = ParseJSON(spec_json, "kvstore optimizer spec");
  WEFT_CHECK(spec.is_object(), kInvalidArgument) << "kvstore optimizer: the spec must be a JSON object";
  const JSONValue* name = spec.Find("name");
  WEFT_CHECK(name != nullptr && name->is_string(), kInvalidArgument)
      << "kvstore optimizer: the spec needs a string 'name'";
  name_ = name->text;
  std::map<std::string, double> hp;  // numeric hyper-parameters
  for (const auto& m : spec.members) {
    if (m.first == "name") continue;
    if (m.first == "lr_mult" || m.first == "wd_mult") {
      WEFT_CHECK(m.second.is_object(), kInvalidArgument) << "kvstore optimizer: '" << m.first
                                                          << "' must map keys to numbers";
      auto& dst = m.first == "lr_mult" ? lr_mult_ : wd_mult_;
      for (const auto& e : m.second.members) dst[e.first] = Number(e.second, m.first + "." + e.first);
      continue;
    }
    if (m.second.is_null()) continue;  // e.g. clip_gradient None
    hp[m.first] = Number(m.second, m.first);
  }
  auto take = [&](const char* k, double def) {
    auto it = hp.find(k);
    double v = it == hp.end() ? def : it->second;
    if (it != hp.end()) hp.erase(it);
    return v;
  };
  lr_ = take("learning_rate", 0.01);
  wd_ = take("wd", 0.0);
  double rescale = take("rescale_grad", 1.0);
  double clip = take("clip_gradient", -1.0);
  std::string op;
  if (name_ == "sgd" || name_ == "nag") {
    double mom = take("momentum", 0.0);
    op = mom != 0.0 ? (name_ == "sgd" ? "sgd_mom_update" : "nag_mom_update") : "sgd_update";
    if (mom != 0.0) {
      num_states_ = 1;
      fixed_attrs_.emplace_back("momentum", Text(mom));
    }
  } else if (name_ == "adam") {
    op = "adam_update";
    num_states_ = 2;
    bias_correction_ = true;
    beta1_ = take("beta1", 0.9);
    beta2_ = take("beta2", 0.999);
    fixed_attrs_.emplace_back("beta1", Text(beta1_));
    fixed_attrs_.emplace_back("beta2", Text(beta2_));
    fixed_attrs_.emplace_back("epsilon", Text(take("epsilon", 1e-8)));
  } else if (name_ == "rmsprop") {
    WEFT_CHECK(take("centered", 0.0) == 0.0, kInvalidArgument)
        << "kvstore optimizer: rmsprop with centered=True has no fused update op; use it with "
           "update_on_kvstore=False";
    take("gamma2", 0.9);  // only used by the centered variant
    op = "rmsprop_update";
    num_states_ = 1;
    fixed_attrs_.emplace_back("gamma1", Text(take("gamma1", 0.9)));
    fixed_attrs_.emplace_back("epsilon", Text(take("epsilon", 1e-8)));
    fixed_attrs_.emplace_back("clip_weights", Text(take("clip_weights", -1.0)));
  } else if (name_ == "signum") {
    double mom = take("momentum", 0.9);
    op = mom != 0.0 ? "signum_update" : "signsgd_update";
    if (mom != 0.0) {
      num_states_ = 1;
      fixed_attrs_.emplace_back("momentum", Text(mom));
      fixed_attrs_.emplace_back("wd_lh", Text(take("wd_lh", 0.0)));
    }
  } else if (name_ == "ftrl") {
    op = "ftrl_update";
    num_states_ = 2;
    fixed_attrs_.emplace_back("lamda1", Text(take("lamda1", 0.01)));
    fixed_attrs_.emplace_back("beta", Text(take("beta", 1.0)));
  } else {
    WEFT_THROW(kInvalidArgument) << "kvstore optimizer: '" << name_
                                 << "' cannot run on the servers (supported: sgd, nag, adam, rmsprop, signum, ftrl)";
  }
  if (!hp.empty()) {
    WEFT_THROW(kInvalidArgument) << "kvstore optimizer: '" << name_ << "' has no hyper-parameter '"
                                 << hp.begin()->first << "'";
  }
  fixed_attrs_.emplace_back("rescale_grad", Text(rescale));
  fixed_attrs_.emplace_back("clip_gradient", Text(clip > 0 ? clip : -1.0));
  op_ = &OpRegistry::Get()->FindOrThrow(op);
}

void ServerOptimizer::Update(const std::string& key, const NDArray& weight, const NDArray& grad) {
  KeyState& ks = keys_[key];
  if (ks.states.size() != static_cast<size_t>(num_states_)) {
    static const OpDef& zeros_like = OpRegistry::Get()->FindOrThrow("zeros_like");
    ks.states.clear();
    for (int i = 0; i < num_states_; ++i) {
      std::vector<NDArray> out;
      Invoke(zeros_like, {}, {weight}, &out);
      ks.states.push_back(out[0]);
    }
  }
  ++ks.count;
  auto lm = lr_mult_.find(key);
  auto wm = wd_mult_.find(key);
  double lr = lr_ * (lm == lr_mult_.end() ? 1.0 : lm->second);
  double wd = wd_ * (wm == wd_mult_.end() ? 1.0 : wm->second);
  if (bias_correction_) {
    double t = static_cast<double>(ks.count);
    lr *= std::sqrt(1.0 - std::pow(beta2_, t)) / (1.0 - std::pow(beta1_, t));
  }
  AttrList attrs = fixed_attrs_;
  attrs.emplace_back("lr", Text(lr));
  attrs.emplace_back("wd", Text(wd));
  std::vector<NDArray> inputs{weight, grad};
  inputs.insert(inputs.end(), ks.states.begin(), ks.states.end());
  std::vector<NDArray> out{weight};
  Invoke(*op_, attrs, inputs, &out);
}

}  // namespace ps
}  // namespace weft
