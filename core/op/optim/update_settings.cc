#include "core/op/optim/update_settings.h"

#include <cmath>

#include "core/opdef/op_def.h"

namespace weft {
namespace optim {

UpdateArgs UpdateArgsOf(const Params& p) {
  const OpDef& op = *p.op();
  UpdateArgs a;
  auto has = [&](const char* n) { return op.ParamIndex(n) >= 0; };
  auto get = [&](const char* n, double* v) {
    if (has(n)) *v = p.GetFloat(n);
  };
  get("lr", &a.lr);
  get("wd", &a.wd);
  get("rescale_grad", &a.rescale_grad);
  get("clip_gradient", &a.clip_gradient);
  get("clip_grad", &a.clip_gradient);  // ftml_update's name for it
  get("momentum", &a.momentum);
  get("beta1", &a.beta1);
  get("beta2", &a.beta2);
  get("epsilon", &a.epsilon);
  get("gamma1", &a.gamma1);
  get("gamma2", &a.gamma2);
  get("clip_weights", &a.clip_weights);
  get("eta", &a.eta);
  get("lower_bound", &a.lower_bound);
  get("upper_bound", &a.upper_bound);
  if (has("bias_correction")) a.bias_correction = p.GetBool("bias_correction");
  if (has("t") && a.bias_correction) {
    const double t = static_cast<double>(p.GetInt("t"));
    a.corr1 = 1.0 - std::pow(a.beta1, t);
    a.corr2 = 1.0 - std::pow(a.beta2, t);
  }
  if (has("lrs")) a.lrs = p.GetFloatTuple("lrs");
  if (has("learning_rates")) a.lrs = p.GetFloatTuple("learning_rates");
  if (has("wds")) a.wds = p.GetFloatTuple("wds");
  if (has("etas")) a.etas = p.GetFloatTuple("etas");
  if (has("step_count")) a.steps = p.GetTuple("step_count");
  return a;
}

}  // namespace optim
}  // namespace weft
