// SVMOutput's gradient rule, shared by its CPU kernel (core/op/loss/svm_output.cc)
// and its GPU kernel (svm_output.cu).
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace nnm {

struct SvmArgs {
  int64_t classes = 1;
  double margin = 1.0, reg = 1.0;
  bool linear = false;
};

// The backward op's arguments for output scores of shape s (host code of both kernels).
inline SvmArgs SvmArgsOf(const Params& p, const Shape& s) {
  SvmArgs a;
  a.classes = s.ndim() > 0 ? s[s.ndim() - 1] : 1;
  a.margin = p.GetFloat("margin");
  a.reg = p.GetFloat("regularization_coefficient");
  a.linear = p.GetBool("use_linear");
  return a;
}

// The gradient of output element e = row * classes + x whose row's label is
// k (MXNet's SVMOutput backward; the head gradient is not used):
//   L1 (use_linear): x == k: -reg * [margin > o];  else reg * [margin > -o]
//   L2:              x == k: -2 reg (margin - o) when margin > o, else 0;
//                    else     2 reg (margin + o) when margin > -o, else 0
WEFT_HD inline double SvmGrad(const SvmArgs& a, int64_t x, int64_t k, double o) {
  if (a.linear) {
    if (x == k) return a.margin > o ? -a.reg : 0.0;
    return a.margin > -o ? a.reg : 0.0;
  }
  if (x == k) return a.margin > o ? -2.0 * a.reg * (a.margin - o) : 0.0;
  return a.margin > -o ? 2.0 * a.reg * (a.margin + o) : 0.0;
}

}  // namespace nnm
}  // namespace weft
