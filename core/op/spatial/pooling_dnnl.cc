// oneDNN pooling, float32, max and avg. oneDNN 2.6 pools the plain layout
// with a slow generic kernel (simple_nchw), so arrays are reordered to the
// channel-blocked layout (8 channels, AVX2) and back. Max pooling's backward
// needs the argmax workspace of a training forward pass; the backward op gets
// only (out_grad, data, output), so it reruns that pass. Cases where oneDNN's
// window rules differ from MXNet's go to the portable path (MakeDims).
// Max pooling's backward runs here only with WEFT_USE_DNNL=all (measured
// slower than the portable loops; Note [NN kernel paths]).
#if WEFT_USE_DNNL
#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/base/error.h"
#include "core/op/common/dnnl_common.h"
#include "core/op/common/dnnl_nn.h"

namespace weft {
namespace dnnl_cpu {
namespace {

using dnnl::algorithm;
using dnnl::prop_kind;
using nn_cpu::PoolType;
using Args = std::unordered_map<int, memory>;

struct PoolDims {
  memory::dims src, dst, strides, kernel, pad_l, pad_r;
  algorithm alg = algorithm::pooling_max;
};

// oneDNN averages over the whole kernel (include padding) or over the valid
// elements (exclude padding); MXNet's include-padding divisor is the window
// clipped to the padded input. They agree when every window lies inside the
// padded input, and (both modes) when every window holds an input element.
bool MakeDims(const PoolGeom& g, PoolDims* d) {
  if (g.type != PoolType::kMax && g.type != PoolType::kAvg) return false;
  if (g.batch <= 0 || g.channels <= 0) return false;
  d->alg = g.type == PoolType::kMax ? algorithm::pooling_max
           : g.count_include_pad     ? algorithm::pooling_avg_include_padding
                                     : algorithm::pooling_avg_exclude_padding;
  d->src = {g.batch, g.channels};
  d->dst = {g.batch, g.channels};
  for (int i = 3 - g.nd; i < 3; ++i) {
    const int64_t last = (g.out[i] - 1) * g.stride[i] - g.pad[i];
    if (g.in[i] <= 0 || g.out[i] <= 0 || last >= g.in[i] || g.kernel[i] <= g.pad[i]) return false;
    if (d->alg == algorithm::pooling_avg_include_padding && last + g.kernel[i] > g.in[i] + g.pad[i]) return false;
    const int64_t pr = last + g.kernel[i] - g.in[i];
    const int64_t pr_ok = std::max<int64_t>(pr, 0);
    if (pr_ok - pr >= g.stride[i]) return false;
    d->src.push_back(g.in[i]);
    d->dst.push_back(g.out[i]);
    d->strides.push_back(g.stride[i]);
    d->kernel.push_back(g.kernel[i]);
    d->pad_l.push_back(g.pad[i]);
    d->pad_r.push_back(pr_ok);
  }
  return true;
}

std::string Key(const char* kind, const PoolGeom& g) {
  std::string k = kind;
  for (int64_t v : {g.batch, g.channels, int64_t(g.nd), int64_t(g.type), int64_t(g.count_include_pad)})
    k += "," + std::to_string(v);
  for (const int64_t* a : {g.in, g.out, g.kernel, g.stride, g.pad})
    for (int i = 0; i < 3; ++i) k += "," + std::to_string(a[i]);
  return k;
}

dnnl::primitive_attr UserScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

struct Fwd {
  dnnl::pooling_forward::primitive_desc pd;
  dnnl::pooling_forward prim;
  ArgLayout src, dst;
};

struct Bwd {
  Fwd train;  // recomputes the max workspace
  dnnl::pooling_backward::primitive_desc pd;
  dnnl::pooling_backward prim;
  ArgLayout ddst, dsrc;
};

// The channel-blocked layout oneDNN's vectorised pooling uses.
memory::desc Blocked(const memory::dims& dims) {
  using tag = memory::format_tag;
  tag t = dims.size() == 3 ? tag::nCw8c : dims.size() == 4 ? tag::nChw8c : tag::nCdhw8c;
  return memory::desc(dims, memory::data_type::f32, t);
}

dnnl::pooling_forward::primitive_desc FwdDesc(const PoolDims& d, prop_kind kind) {
  dnnl::pooling_forward::desc desc(kind, d.alg, Blocked(d.src), Blocked(d.dst), d.strides, d.kernel, d.pad_l,
                                   d.pad_r);
  return dnnl::pooling_forward::primitive_desc(desc, UserScratchpad(), CpuEngine());
}

Fwd BuildFwd(const PoolDims& d, prop_kind kind) {
  Fwd f;
  f.pd = FwdDesc(d, kind);
  f.prim = dnnl::pooling_forward(f.pd);
  f.src = ArgLayout(PlainDesc(d.src), f.pd.src_desc(), true);
  f.dst = ArgLayout(PlainDesc(d.dst), f.pd.dst_desc(), false);
  return f;
}

std::shared_ptr<Fwd> MakeFwd(const PoolDims& d) {
  try {
    return std::make_shared<Fwd>(BuildFwd(d, prop_kind::forward_inference));
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

std::shared_ptr<Bwd> MakeBwd(const PoolDims& d) {
  try {
    auto b = std::make_shared<Bwd>();
    b->train = BuildFwd(d, prop_kind::forward_training);
    dnnl::pooling_backward::desc desc(d.alg, Blocked(d.src), Blocked(d.dst), d.strides, d.kernel, d.pad_l,
                                      d.pad_r);
    b->pd = dnnl::pooling_backward::primitive_desc(desc, UserScratchpad(), CpuEngine(), b->train.pd);
    b->prim = dnnl::pooling_backward(b->pd);
    b->ddst = ArgLayout(PlainDesc(d.dst), b->pd.diff_dst_desc(), true);
    b->dsrc = ArgLayout(PlainDesc(d.src), b->pd.diff_src_desc(), false);
    return b;
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

void Execute(dnnl::primitive& prim, const Args& args) {
  try {
    prim.execute(ThreadStream(), args);
  } catch (const dnnl::error& e) {
    WEFT_THROW(kInternal) << "oneDNN pooling failed: " << e.what();
  }
}

}  // namespace

bool PoolForward(const PoolGeom& g, const TensorView& x, OpReq req, const TensorView& y) {
  PoolDims d;
  if (x.dtype != DType::kFloat32 || !MakeDims(g, &d)) return false;
  auto f = Cached<Fwd>(Key("pool_fwd", g), [&] { return MakeFwd(d); });
  if (!f) return false;
  // kNull writes y like kWriteTo; only kAddTo goes through scratch.
  CallScratch s({ScratchBytes(f->src), ScratchBytes(f->dst), ScratchpadBytes(f->pd),
                 req == OpReq::kAddTo ? AddToBytes(y, req) : 0});
  void* out = req == OpReq::kAddTo ? s[3] : y.data;
  memory dst = OutputMemory(f->dst, out, s[1]);
  Execute(f->prim, {{DNNL_ARG_SRC, InputMemory(f->src, x.data, s[0])},
                    {DNNL_ARG_DST, dst},
                    {DNNL_ARG_SCRATCHPAD, Scratchpad(f->pd, s[2])}});
  FinishOutput(f->dst, dst, out);
  ThreadStream().wait();
  if (req == OpReq::kAddTo) AddInto(y, out);
  return true;
}

bool PoolBackward(const PoolGeom& g, const TensorView& dy, const TensorView& x, const TensorView& y, OpReq req,
                  const TensorView& dx) {
  PoolDims d;
  if (dy.dtype != DType::kFloat32 || !MakeDims(g, &d)) return false;
  auto b = Cached<Bwd>(Key("pool_bwd", g), [&] { return MakeBwd(d); });
  if (!b) return false;
  const bool is_max = d.alg == algorithm::pooling_max;
  // The recomputed forward (max pooling: for its workspace) and the backward
  // run one after the other, so they share one scratchpad part.
  const size_t pad = std::max(is_max ? ScratchpadBytes(b->train.pd) : 0, ScratchpadBytes(b->pd));
  CallScratch s({ScratchBytes(b->ddst), is_max ? b->train.pd.workspace_desc().get_size() : 0,
                 is_max ? b->train.pd.dst_desc().get_size() : 0, is_max ? ScratchBytes(b->train.src) : 0, pad,
                 req == OpReq::kAddTo ? AddToBytes(dx, req) : 0, ScratchBytes(b->dsrc)});
  Args bwd{{DNNL_ARG_DIFF_DST, InputMemory(b->ddst, dy.data, s[0])}};
  if (is_max) {
    memory ws(b->train.pd.workspace_desc(), CpuEngine(), s[1]);
    memory dst(b->train.pd.dst_desc(), CpuEngine(), s[2]);
    Execute(b->train.prim, {{DNNL_ARG_SRC, InputMemory(b->train.src, x.data, s[3])},
                            {DNNL_ARG_DST, dst},
                            {DNNL_ARG_WORKSPACE, ws},
                            {DNNL_ARG_SCRATCHPAD, Scratchpad(b->train.pd, s[4])}});
    ThreadStream().wait();  // its scratchpad part is reused below
    bwd.emplace(DNNL_ARG_WORKSPACE, ws);
  }
  void* out = req == OpReq::kAddTo ? s[5] : dx.data;
  bwd.emplace(DNNL_ARG_DIFF_SRC, OutputMemory(b->dsrc, out, s[6]));
  bwd.emplace(DNNL_ARG_SCRATCHPAD, Scratchpad(b->pd, s[4]));
  Execute(b->prim, bwd);
  FinishOutput(b->dsrc, bwd.at(DNNL_ARG_DIFF_SRC), out);
  ThreadStream().wait();
  if (req == OpReq::kAddTo) AddInto(dx, out);
  return true;
}

}  // namespace dnnl_cpu
}  // namespace weft
#endif  // WEFT_USE_DNNL
