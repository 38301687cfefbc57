// SoftmaxOutput's gradient with MXNet 1.x's rules (softmax_output-inl.h):
//  * label with out's shape: probabilities, grad = (out - label) * grad_scale;
//  * multi_output: out is (n, k, s), label (n, s); grad = out - onehot(label)
//    along k, scaled by grad_scale / (s unless normalization is valid) / count;
//  * otherwise out is rows of k classes (preserve_shape: last axis; else
//    (d0, size/d0)) with one label per row; grad scaled by grad_scale / count.
// count is 1 (null), the number of labels (batch; n for multi_output), or the
// number of labels != ignore_label (valid; at least 1). With use_ignore, rows
// whose label equals ignore_label (compared as ints) get zero gradient.
// smooth_alpha > 0 spreads alpha over the other classes: the label's entry is
// out - 1 + alpha, the others out - alpha / (k - 1).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/saturating_cast.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/softmax/softmax_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {
namespace {

template <typename T>
void SoftmaxOutputGradT(const SoftmaxOutputGradParams& p, const TensorView& out, const std::vector<double>& lab,
                        OpReq req, const TensorView& gx) {
  using A = Acc<T>;
  const T* op = out.ptr<T>();
  T* gp = gx.ptr<T>();
  // Labels and ignore_label compare as truncated values (MXNet compares them as ints), in
  // double: either may be NaN, infinite or beyond int's range, whose conversion is undefined
  // (Note [Float to int conversions]); a NaN ignore_label matches no label.
  const double ignore = std::trunc(p.ignore_label);

  const SoftmaxOutputGradView v = SoftmaxOutputGradViewOf(p, out.shape);  // out seen as (rows, k, s)
  const int64_t rows = v.rows, k = v.k, s = v.s;
  double count = 1;
  if (p.normalization == 1) {
    count = p.multi_output ? static_cast<double>(rows) : static_cast<double>(lab.size());
  } else if (p.normalization == 2) {
    int64_t valid = static_cast<int64_t>(lab.size());
    for (double l : lab)
      if (std::trunc(l) == ignore) --valid;
    count = valid == 0 ? 1.0 : static_cast<double>(valid);
  }
  double scale = p.grad_scale / count;
  if (p.multi_output && p.normalization != 2) scale /= static_cast<double>(s);
  const A sc = static_cast<A>(scale);
  const A alpha = static_cast<A>(p.smooth_alpha);
  const A spread = k > 1 ? static_cast<A>(p.smooth_alpha / static_cast<double>(k - 1)) : A(0);

  ParallelFor(rows * s, k * 2, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t i = r / s, j = r % s;
      const double l = lab[static_cast<size_t>(p.multi_output ? i * s + j : i)];
      const bool skip = p.use_ignore && std::trunc(l) == ignore;
      const int64_t li = SaturatingToInt64(l);
      for (int64_t c = 0; c < k; ++c) {
        const int64_t idx = (i * k + c) * s + j;
        A v = A(0);
        if (!skip) {
          v = static_cast<A>(op[idx]);
          if (p.smooth_alpha > 0) v -= c == li ? A(1) - alpha : spread;
          else if (c == li) v -= A(1);
        }
        Store(req, gp + idx, v * sc);
      }
    }
  });
}

}  // namespace

void SoftmaxOutputBackward(const SoftmaxOutputGradParams& p, const TensorView& out, const TensorView& label,
                           OpReq req, const TensorView& gx) {
  if (req == OpReq::kNull || gx.Size() == 0) return;
  WEFT_NNX_FLOAT_SWITCH(out.dtype, "_backward_SoftmaxOutput", T, {
    using A = Acc<T>;
    if (label.shape == out.shape) {  // probabilities as labels
      const T* op = out.ptr<T>();
      const T* lp = label.ptr<T>();
      T* gp = gx.ptr<T>();
      const A sc = static_cast<A>(p.grad_scale);
      for (int64_t i = 0; i < out.Size(); ++i)
        Store(req, gp + i, (static_cast<A>(op[i]) - static_cast<A>(lp[i])) * sc);
    } else {
      SoftmaxOutputGradT<T>(p, out, ToDoubles(label), req, gx);
    }
  })
}

SoftmaxOutputGradParams SoftmaxOutputGradParamsOf(const Params& p) {
  SoftmaxOutputGradParams g;
  g.grad_scale = p.GetFloat("grad_scale");
  g.ignore_label = p.GetFloat("ignore_label");
  g.smooth_alpha = p.GetFloat("smooth_alpha");
  g.use_ignore = p.GetBool("use_ignore");
  g.multi_output = p.GetBool("multi_output");
  g.preserve_shape = p.GetBool("preserve_shape");
  const std::string& n = p.GetString("normalization");
  g.normalization = n == "batch" ? 1 : n == "valid" ? 2 : 0;
  return g;
}

SoftmaxOutputGradView SoftmaxOutputGradViewOf(const SoftmaxOutputGradParams& p, const Shape& out) {
  const int64_t total = out.Size();
  SoftmaxOutputGradView v;
  if (p.multi_output) {
    v.rows = out[0];
    v.k = out[1];
    v.s = v.rows * v.k == 0 ? 0 : total / v.rows / v.k;
  } else {
    v.rows = p.preserve_shape ? (out[out.ndim() - 1] == 0 ? 0 : total / out[out.ndim() - 1]) : out[0];
    v.k = v.rows == 0 ? 0 : total / v.rows;
  }
  return v;
}

}  // namespace nnx_cpu
}  // namespace weft
