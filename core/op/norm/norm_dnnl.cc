// oneDNN BatchNorm (forward and backward) and LayerNorm (forward), float32,
// plain layouts (oneDNN normalises nchw directly, no reorders). The caller
// (core/op/norm/batch_norm_cpu.cc, core/op/norm/layer_norm_cpu.cc) falls back to the portable kernels
// when these return false: other dtypes, BatchNorm's channel axis != 1 or
// data outside 2-D..5-D, LayerNorm's axis not the last, eps <= 0, or an
// output written with kAddTo (the statistics and parameter gradients, small,
// may use any write mode: they pass through scratch). The semantics are
// those of the portable kernels (Note [BatchNorm statistics]): MXNet's "var"
// output holds 1/sqrt(var + eps), computed here from oneDNN's variance, and
// the moving statistics are updated in the forward pass when training.
#if WEFT_USE_DNNL
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/op/common/dnnl_common.h"
#include "core/op/common/dnnl_nn.h"
#include "core/op/common/nnx_cpu.h"

namespace weft {
namespace dnnl_cpu {
namespace {

using dnnl::normalization_flags;
using dnnl::prop_kind;
using Args = std::unordered_map<int, memory>;

bool IsF32(const TensorView& v) { return v.dtype == DType::kFloat32; }
bool Writes(OpReq r) { return r == OpReq::kWriteTo || r == OpReq::kWriteInplace; }
size_t Floats(int64_t n) { return static_cast<size_t>(n > 0 ? n : 0) * sizeof(float); }
void StoreAll(OpReq req, const TensorView& dst, const float* src, int64_t n) {
  if (req == OpReq::kNull) return;
  float* d = dst.ptr<float>();
  for (int64_t i = 0; i < n; ++i) nnx_cpu::Store(req, d + i, src[i]);
}

dnnl::primitive_attr UserScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

std::string DimsKey(const char* kind, const memory::dims& d, double eps, unsigned flags) {
  std::string k = kind;
  for (auto v : d) k += "," + std::to_string(v);
  char buf[64];
  std::snprintf(buf, sizeof(buf), ",%.17g,%u", eps, flags);
  return k + buf;
}

// --- BatchNorm ---

struct BnFwd {
  dnnl::batch_normalization_forward::primitive_desc pd;
  dnnl::batch_normalization_forward prim;
};
struct BnBwd {
  dnnl::batch_normalization_backward::primitive_desc pd;
  dnnl::batch_normalization_backward prim;
};

normalization_flags BnFlags(const nnx_cpu::BatchNormArgs& a) {
  normalization_flags f = normalization_flags::use_shift;
  if (!a.fix_gamma) f = f | normalization_flags::use_scale;
  if (!a.batch_stats) f = f | normalization_flags::use_global_stats;
  return f;
}

dnnl::batch_normalization_forward::primitive_desc BnFwdDesc(const memory::dims& d, float eps,
                                                             normalization_flags f) {
  using F = dnnl::batch_normalization_forward;
  F::desc desc(prop_kind::forward_training, PlainDesc(d), eps, f);
  return F::primitive_desc(desc, UserScratchpad(), CpuEngine());
}

std::shared_ptr<BnFwd> GetBnFwd(const memory::dims& d, float eps, normalization_flags f) {
  return Cached<BnFwd>(DimsKey("bn_fwd", d, eps, static_cast<unsigned>(f)), [&]() -> std::shared_ptr<BnFwd> {
    try {
      auto p = std::make_shared<BnFwd>();
      p->pd = BnFwdDesc(d, eps, f);
      p->prim = dnnl::batch_normalization_forward(p->pd);
      return p;
    } catch (const dnnl::error&) {
      return nullptr;
    }
  });
}

std::shared_ptr<BnBwd> GetBnBwd(const memory::dims& d, float eps, normalization_flags f) {
  return Cached<BnBwd>(DimsKey("bn_bwd", d, eps, static_cast<unsigned>(f)), [&]() -> std::shared_ptr<BnBwd> {
    try {
      using B = dnnl::batch_normalization_backward;
      auto p = std::make_shared<BnBwd>();
      B::desc desc(prop_kind::backward, PlainDesc(d), PlainDesc(d), eps, f);
      p->pd = B::primitive_desc(desc, UserScratchpad(), CpuEngine(), BnFwdDesc(d, eps, f));
      p->prim = B(p->pd);
      return p;
    } catch (const dnnl::error&) {
      return nullptr;
    }
  });
}

// Data dims when oneDNN covers the case (channel axis 1, 2-D..5-D).
bool BnDims(const nnx_cpu::BatchNormArgs& a, const TensorView& x, memory::dims* d) {
  const int nd = static_cast<int>(x.shape.ndim());
  if (nd < 2 || nd > 5 || a.eps <= 0) return false;
  if (x.shape[0] != a.outer || x.shape[1] != a.channels) return false;
  if (a.outer <= 0 || a.channels <= 0 || a.inner <= 0) return false;
  d->clear();
  for (int i = 0; i < nd; ++i) d->push_back(x.shape[i]);
  return true;
}

}  // namespace

bool BatchNormForward(const nnx_cpu::BatchNormArgs& a, const TensorView& x, const TensorView& gamma,
                      const TensorView& beta, const TensorView& mm, const TensorView& mv,
                      const std::vector<OpReq>& req, const TensorView& y, const TensorView& mean_out,
                      const TensorView& invstd_out) {
  for (const TensorView* v : {&x, &gamma, &beta, &mm, &mv, &y, &mean_out, &invstd_out})
    if (!IsF32(*v)) return false;
  if (!Writes(req[0])) return false;
  memory::dims d;
  if (!BnDims(a, x, &d)) return false;
  const normalization_flags f = BnFlags(a);
  const float eps = static_cast<float>(a.eps);
  auto p = GetBnFwd(d, eps, f);
  if (!p) return false;
  const int64_t C = a.channels;
  CallScratch s({Floats(C), Floats(C), ScratchpadBytes(p->pd)});
  float* mean = s.floats(0);
  float* var = s.floats(1);
  if (!a.batch_stats) {
    std::memcpy(mean, mm.ptr<float>(), C * sizeof(float));
    std::memcpy(var, mv.ptr<float>(), C * sizeof(float));
  }
  const memory::desc cd = PlainDesc({C});
  Args args{{DNNL_ARG_SRC, memory(PlainDesc(d), CpuEngine(), x.data)},
            {DNNL_ARG_DST, memory(PlainDesc(d), CpuEngine(), y.data)},
            {DNNL_ARG_MEAN, memory(cd, CpuEngine(), mean)},
            {DNNL_ARG_VARIANCE, memory(cd, CpuEngine(), var)},
            {DNNL_ARG_SHIFT, memory(cd, CpuEngine(), beta.data)},
            {DNNL_ARG_SCRATCHPAD, Scratchpad(p->pd, s[2])}};
  if (!a.fix_gamma) args.emplace(DNNL_ARG_SCALE, memory(cd, CpuEngine(), gamma.data));
  p->prim.execute(ThreadStream(), args);
  ThreadStream().wait();
  float* mmp = mm.ptr<float>();
  float* mvp = mv.ptr<float>();
  for (int64_t c = 0; c < C; ++c) {
    if (a.batch_stats && a.update_moving) {
      mmp[c] = static_cast<float>(static_cast<double>(mmp[c]) * a.momentum + mean[c] * (1 - a.momentum));
      mvp[c] = static_cast<float>(static_cast<double>(mvp[c]) * a.momentum + var[c] * (1 - a.momentum));
    }
    var[c] = static_cast<float>(1.0 / std::sqrt(static_cast<double>(var[c]) + a.eps));  // now invstd
  }
  StoreAll(req[1], mean_out, mean, C);
  StoreAll(req[2], invstd_out, var, C);
  return true;
}

bool BatchNormBackward(const nnx_cpu::BatchNormArgs& a, const TensorView& gy, const TensorView& mean_in,
                       const TensorView& invstd_in, const TensorView& x, const TensorView& gamma,
                       const TensorView& mm, const TensorView& mv, const std::vector<OpReq>& req,
                       const TensorView& gx, const TensorView& ggamma, const TensorView& gbeta) {
  for (const TensorView* v : {&gy, &mean_in, &invstd_in, &x, &gamma, &mm, &mv, &gx, &ggamma, &gbeta})
    if (!IsF32(*v)) return false;
  if (!Writes(req[0])) return false;
  memory::dims d;
  if (!BnDims(a, x, &d)) return false;
  const normalization_flags f = BnFlags(a);
  const float eps = static_cast<float>(a.eps);
  auto p = GetBnBwd(d, eps, f);
  if (!p) return false;
  const int64_t C = a.channels;
  // gx may share gy's buffer (add_inplace): write through scratch then.
  const bool alias = gx.data == gy.data;
  CallScratch s({Floats(C), Floats(C), Floats(C), Floats(C), Floats(C), alias ? Floats(x.Size()) : 0,
                 ScratchpadBytes(p->pd)});
  float* mean = s.floats(0);
  float* var = s.floats(1);
  if (a.batch_stats) {  // the saved statistics: var from invstd = 1/sqrt(var + eps)
    const float* mi = mean_in.ptr<float>();
    const float* is = invstd_in.ptr<float>();
    for (int64_t c = 0; c < C; ++c) {
      mean[c] = mi[c];
      const double iv = static_cast<double>(is[c]);
      var[c] = static_cast<float>(1.0 / (iv * iv) - a.eps);
    }
  } else {
    std::memcpy(mean, mm.ptr<float>(), C * sizeof(float));
    std::memcpy(var, mv.ptr<float>(), C * sizeof(float));
  }
  float* dscale = s.floats(2);
  float* dshift = s.floats(3);
  const memory::desc dd = PlainDesc(d), cd = PlainDesc({C});
  void* gx_buf = alias ? s[5] : gx.data;
  Args args{{DNNL_ARG_SRC, memory(dd, CpuEngine(), x.data)},
            {DNNL_ARG_DIFF_DST, memory(dd, CpuEngine(), gy.data)},
            {DNNL_ARG_MEAN, memory(cd, CpuEngine(), mean)},
            {DNNL_ARG_VARIANCE, memory(cd, CpuEngine(), var)},
            {DNNL_ARG_DIFF_SRC, memory(dd, CpuEngine(), gx_buf)},
            {DNNL_ARG_DIFF_SHIFT, memory(cd, CpuEngine(), dshift)},
            {DNNL_ARG_SCRATCHPAD, Scratchpad(p->pd, s[6])}};
  if (!a.fix_gamma) {
    args.emplace(DNNL_ARG_SCALE, memory(cd, CpuEngine(), gamma.data));
    args.emplace(DNNL_ARG_DIFF_SCALE, memory(cd, CpuEngine(), dscale));
  }
  // oneDNN 2.6 asks for the shift in backward too, though the gradients do not
  // depend on it (beta is not passed down here): zeros.
  float* shift = s.floats(4);
  std::memset(shift, 0, C * sizeof(float));
  args.emplace(DNNL_ARG_SHIFT, memory(cd, CpuEngine(), shift));
  p->prim.execute(ThreadStream(), args);
  ThreadStream().wait();
  if (alias) std::memcpy(gx.data, gx_buf, static_cast<size_t>(x.Size()) * sizeof(float));
  if (a.fix_gamma) std::memset(dscale, 0, C * sizeof(float));
  StoreAll(req[1], ggamma, dscale, C);
  StoreAll(req[2], gbeta, dshift, C);
  return true;
}

// --- LayerNorm ---

namespace {
struct LnFwd {
  dnnl::layer_normalization_forward::primitive_desc pd;
  dnnl::layer_normalization_forward prim;
};
}  // namespace

bool LayerNormForward(const nnx_cpu::RowNormArgs& a, const TensorView& x, const TensorView& gamma,
                      const TensorView& beta, const std::vector<OpReq>& req, const TensorView& y,
                      const TensorView& mean_out, const TensorView& sd_out) {
  for (const TensorView* v : {&x, &gamma, &beta, &y, &mean_out, &sd_out})
    if (!IsF32(*v)) return false;
  if (!Writes(req[0]) || a.inner != 1 || a.channels != 0 || a.store_var || a.eps <= 0) return false;
  if (a.outer <= 0 || a.n <= 0) return false;
  const memory::dims d{a.outer, a.n};
  const float eps = static_cast<float>(a.eps);
  const normalization_flags f = normalization_flags::use_scale | normalization_flags::use_shift;
  auto p = Cached<LnFwd>(DimsKey("ln_fwd", d, eps, static_cast<unsigned>(f)), [&]() -> std::shared_ptr<LnFwd> {
    try {
      using F = dnnl::layer_normalization_forward;
      auto l = std::make_shared<LnFwd>();
      F::desc desc(prop_kind::forward_training, PlainDesc(d), PlainDesc({a.outer}), eps, f);
      l->pd = F::primitive_desc(desc, UserScratchpad(), CpuEngine());
      l->prim = F(l->pd);
      return l;
    } catch (const dnnl::error&) {
      return nullptr;
    }
  });
  if (!p) return false;
  CallScratch s({Floats(a.outer), Floats(a.outer), ScratchpadBytes(p->pd)});
  float* mean = s.floats(0);
  float* var = s.floats(1);
  const memory::desc sd = PlainDesc({a.outer}), cd = PlainDesc({a.n});
  Args args{{DNNL_ARG_SRC, memory(PlainDesc(d), CpuEngine(), x.data)},
            {DNNL_ARG_DST, memory(PlainDesc(d), CpuEngine(), y.data)},
            {DNNL_ARG_MEAN, memory(sd, CpuEngine(), mean)},
            {DNNL_ARG_VARIANCE, memory(sd, CpuEngine(), var)},
            {DNNL_ARG_SCALE, memory(cd, CpuEngine(), gamma.data)},
            {DNNL_ARG_SHIFT, memory(cd, CpuEngine(), beta.data)},
            {DNNL_ARG_SCRATCHPAD, Scratchpad(p->pd, s[2])}};
  p->prim.execute(ThreadStream(), args);
  ThreadStream().wait();
  for (int64_t r = 0; r < a.outer; ++r) var[r] = static_cast<float>(std::sqrt(static_cast<double>(var[r]) + a.eps));
  StoreAll(req[1], mean_out, mean, a.outer);
  StoreAll(req[2], sd_out, var, a.outer);
  return true;
}

}  // namespace dnnl_cpu
}  // namespace weft
#endif  // WEFT_USE_DNNL
