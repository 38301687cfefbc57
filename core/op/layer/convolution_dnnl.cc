// oneDNN convolution: forward, backward data and backward weights (+ bias),
// float32. Primitives take their preferred (blocked) layouts; the plain
// arrays are reordered in and out (dnnl_common.h). Deconvolution reaches
// here through ConvBackwardData / ConvForward (see deconvolution.cc).
#if WEFT_USE_DNNL
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/dnnl_common.h"
#include "core/op/common/dnnl_nn.h"
#include "core/op/common/weight_cache.h"

namespace weft {
namespace dnnl_cpu {
namespace {

using dnnl::algorithm;
using dnnl::prop_kind;
using Args = std::unordered_map<int, memory>;

struct ConvDims {
  memory::dims src, wei, bias, dst, strides, dilates, pad_l, pad_r;
};

// oneDNN checks out == (in + pad_l + pad_r - dilated kernel) / stride + 1; the
// right padding is chosen to satisfy it (any value in a range of `stride`
// gives the same windows). False when no non-negative value does.
bool MakeDims(const ConvGeom& g, ConvDims* d) {
  if (g.batch <= 0 || g.in_c <= 0 || g.out_c <= 0) return false;
  d->src = {g.batch, g.in_c};
  d->dst = {g.batch, g.out_c};
  d->wei = g.groups > 1 ? memory::dims{g.groups, g.out_c / g.groups, g.in_c / g.groups}
                        : memory::dims{g.out_c, g.in_c};
  d->bias = {g.out_c};
  for (int i = 3 - g.nd; i < 3; ++i) {
    if (g.in[i] <= 0 || g.out[i] <= 0) return false;
    const int64_t dk = g.dilate[i] * (g.kernel[i] - 1) + 1;
    const int64_t pr = (g.out[i] - 1) * g.stride[i] + dk - g.in[i] - g.pad[i];
    const int64_t pr_ok = std::max<int64_t>(pr, 0);
    if (pr_ok - pr >= g.stride[i]) return false;
    d->src.push_back(g.in[i]);
    d->dst.push_back(g.out[i]);
    d->wei.push_back(g.kernel[i]);
    d->strides.push_back(g.stride[i]);
    d->dilates.push_back(g.dilate[i] - 1);
    d->pad_l.push_back(g.pad[i]);
    d->pad_r.push_back(pr_ok);
  }
  return true;
}

std::string Key(const char* kind, const ConvGeom& g, bool bias) {
  std::string k = kind;
  for (int64_t v : {g.batch, g.in_c, g.out_c, g.groups, int64_t(g.nd), int64_t(bias)}) k += "," + std::to_string(v);
  for (const int64_t* a : {g.in, g.out, g.kernel, g.stride, g.dilate, g.pad})
    for (int i = 0; i < 3; ++i) k += "," + std::to_string(a[i]);
  return k;
}

memory::desc Any(const memory::dims& dims) {
  return memory::desc(dims, memory::data_type::f32, memory::format_tag::any);
}

dnnl::primitive_attr UserScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

struct Fwd {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward prim;
  ArgLayout src, wei, dst;
};

struct BwdData {
  dnnl::convolution_backward_data::primitive_desc pd;
  dnnl::convolution_backward_data prim;
  ArgLayout ddst, wei, dsrc;
};

struct BwdWeights {
  dnnl::convolution_backward_weights::primitive_desc pd;
  dnnl::convolution_backward_weights prim;
  ArgLayout src, ddst, dwei, dbias;
};

algorithm Alg(bool winograd) { return winograd ? algorithm::convolution_winograd : algorithm::convolution_direct; }

dnnl::convolution_forward::primitive_desc FwdDesc(const ConvDims& d, bool bias, bool winograd = false) {
  using F = dnnl::convolution_forward;
  const algorithm alg = Alg(winograd);
  F::desc desc = bias ? F::desc(prop_kind::forward_training, alg, Any(d.src), Any(d.wei), PlainDesc(d.bias),
                                Any(d.dst), d.strides, d.dilates, d.pad_l, d.pad_r)
                      : F::desc(prop_kind::forward_training, alg, Any(d.src), Any(d.wei), Any(d.dst), d.strides,
                                d.dilates, d.pad_l, d.pad_r);
  return F::primitive_desc(desc, UserScratchpad(), CpuEngine());
}

// Builders return null when oneDNN cannot build the primitive; the null is
// cached too, so the portable path is chosen without retrying. `winograd`:
// algorithm::convolution_winograd (Note [Winograd convolutions]).
std::shared_ptr<Fwd> MakeFwd(const ConvDims& d, bool bias, bool winograd) {
  try {
    auto f = std::make_shared<Fwd>();
    f->pd = FwdDesc(d, bias, winograd);
    f->prim = dnnl::convolution_forward(f->pd);
    f->src = ArgLayout(PlainDesc(d.src), f->pd.src_desc(), true);
    f->wei = ArgLayout(PlainDesc(d.wei), f->pd.weights_desc(), true);
    f->dst = ArgLayout(PlainDesc(d.dst), f->pd.dst_desc(), false);
    return f;
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

std::shared_ptr<BwdData> MakeBwdData(const ConvDims& d, bool winograd) {
  try {
    using B = dnnl::convolution_backward_data;
    auto b = std::make_shared<BwdData>();
    B::desc desc(Alg(winograd), Any(d.src), Any(d.wei), Any(d.dst), d.strides, d.dilates, d.pad_l, d.pad_r);
    b->pd = B::primitive_desc(desc, UserScratchpad(), CpuEngine(), FwdDesc(d, false, winograd));
    b->prim = B(b->pd);
    b->ddst = ArgLayout(PlainDesc(d.dst), b->pd.diff_dst_desc(), true);
    b->wei = ArgLayout(PlainDesc(d.wei), b->pd.weights_desc(), true);
    b->dsrc = ArgLayout(PlainDesc(d.src), b->pd.diff_src_desc(), false);
    return b;
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

std::shared_ptr<BwdWeights> MakeBwdWeights(const ConvDims& d, bool bias, bool winograd) {
  try {
    using B = dnnl::convolution_backward_weights;
    auto b = std::make_shared<BwdWeights>();
    const algorithm alg = Alg(winograd);
    B::desc desc = bias ? B::desc(alg, Any(d.src), Any(d.wei), PlainDesc(d.bias), Any(d.dst), d.strides, d.dilates,
                                  d.pad_l, d.pad_r)
                        : B::desc(alg, Any(d.src), Any(d.wei), Any(d.dst), d.strides, d.dilates, d.pad_l, d.pad_r);
    b->pd = B::primitive_desc(desc, UserScratchpad(), CpuEngine(), FwdDesc(d, bias, winograd));
    b->prim = B(b->pd);
    b->src = ArgLayout(PlainDesc(d.src), b->pd.src_desc(), true);
    b->ddst = ArgLayout(PlainDesc(d.dst), b->pd.diff_dst_desc(), true);
    b->dwei = ArgLayout(PlainDesc(d.wei), b->pd.diff_weights_desc(), false);
    if (bias) b->dbias = ArgLayout(PlainDesc(d.bias), b->pd.diff_bias_desc(), false);
    return b;
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

// The forward primitive with post-ops (ConvPostOps in dnnl_nn.h): the sum of
// an addend already in dst, then ReLU. The primitive is ConvForward's
// (forward_training): oneDNN 2.6 on AVX-512 gives forward_inference brgconv,
// whose weight layout (Acdb32a) costs a slow reorder at every call (ResNet-18
// at batch 1: 5.8 ms per convolution against 4.2), and per-channel binary
// post-ops (a BatchNorm's scale and shift) only the AVX2 or reference kernels;
// so a BatchNorm is folded into the weights instead (fused_conv_bn.cc).
// With prepared weights the primitive may be a Winograd one instead (Note
// [Winograd convolutions]).
struct FwdPost {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward prim;
  ArgLayout src, wei, dst;
  std::shared_ptr<dnnl::reorder> dst_in;  // plain -> dst's layout, for the addend (blocked dst only)
};

// `winograd`: forward_inference with algorithm::convolution_winograd (Note
// [Winograd convolutions]); null when oneDNN has no such kernel for d.
std::shared_ptr<FwdPost> MakeFwdPost(const ConvDims& d, bool bias, bool sum, bool relu, bool winograd) {
  try {
    using F = dnnl::convolution_forward;
    auto f = std::make_shared<FwdPost>();
    dnnl::post_ops po;
    if (sum) po.append_sum(1.f);
    if (relu) po.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
    dnnl::primitive_attr attr = UserScratchpad();
    attr.set_post_ops(po);
    const prop_kind prop = winograd ? prop_kind::forward_inference : prop_kind::forward_training;
    const algorithm alg = Alg(winograd);
    F::desc desc = bias ? F::desc(prop, alg, Any(d.src), Any(d.wei), PlainDesc(d.bias), Any(d.dst), d.strides,
                                  d.dilates, d.pad_l, d.pad_r)
                        : F::desc(prop, alg, Any(d.src), Any(d.wei), Any(d.dst), d.strides, d.dilates, d.pad_l,
                                  d.pad_r);
    f->pd = F::primitive_desc(desc, attr, CpuEngine());
    f->prim = F(f->pd);
    f->src = ArgLayout(PlainDesc(d.src), f->pd.src_desc(), true);
    f->wei = ArgLayout(PlainDesc(d.wei), f->pd.weights_desc(), true);
    f->dst = ArgLayout(PlainDesc(d.dst), f->pd.dst_desc(), false);
    if (sum && f->dst.reorder)
      f->dst_in = std::make_shared<dnnl::reorder>(
          dnnl::reorder::primitive_desc(CpuEngine(), f->dst.plain, CpuEngine(), f->dst.prim));
    return f;
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

// Note [Winograd convolutions]
// Weights prepared once (Note [Weight layout cache]) make oneDNN's Winograd
// kernels (jit_wino_4x3 / jit_fp32_wino_2x3 on AVX-512) pay: their weights
// are a transform of the filters, costly to compute but computed once per
// bind, and their arithmetic per output is much lower than a direct 3x3
// convolution's. ResNet-18's 3x3 stride-1 convolutions on the AMD EPYC
// (AVX-512) this was measured on, one thread, best of 15 interleaved calls of
// each kernel (oneDNN 2.6.3): 2.1 -> 1.35 ms (64 channels at 56x56), 2.1 -> 1.2
// (128 at 28), 1.95 -> 1.25 (256 at 14), 2.2 -> 1.8 (512 at 7) at batch 1; at
// batch 8 2.3x to 3.2x faster. MXNet 1.9.1 runs the direct kernels. The
// result differs from the direct convolution's by rounding only (the
// transforms are exact in real arithmetic): measured up to 1e-5 absolute on
// outputs of magnitude 4 (about 3e-6 of the largest), against under 1e-6 for
// direct; tests/python/test_conv_winograd.py bounds it. It is used for 2-D
// 3x3 stride-1 undilated ungrouped convolutions of at least
// kWinogradMinChannels channels in and out (the range measured), when oneDNN
// has a kernel (else the direct one), wherever weights are kept (from their
// third use: Note [Winograd from the third use]); and in
// training (forward, backward data and weights, whose Winograd weights are
// made at every call) when the batch has at least kWinogradMinPositions output
// positions (batch x height x width): below that the per-call transform of
// the weights costs more than it saves (at batch 1, 512 channels at 7x7: 24
// ms against 5.5 direct; from 784 positions on, every ResNet-18 layer won,
// and at batch 16 the 3x3 layers' forward, backward data and backward
// weights took 560, 550 and 680 ms against 1180, 1230 and 1560).
// WEFT_CONV_WINOGRAD=0 turns it off (bit-for-bit the direct results).
constexpr int64_t kWinogradMinChannels = 64;
constexpr int64_t kWinogradMinPositions = 512;

bool WinogradWanted(const ConvGeom& g) {
  const char* v = std::getenv("WEFT_CONV_WINOGRAD");
  if (v != nullptr && std::strcmp(v, "0") == 0) return false;
  return g.nd == 2 && g.groups == 1 && g.in_c >= kWinogradMinChannels && g.out_c >= kWinogradMinChannels &&
         g.kernel[1] == 3 && g.kernel[2] == 3 && g.stride[1] == 1 && g.stride[2] == 1 && g.dilate[1] == 1 &&
         g.dilate[2] == 1;
}

// WinogradWanted, and enough positions to pay for a transform of the weights per call.
bool WinogradPerCall(const ConvGeom& g) {
  return WinogradWanted(g) && g.batch * g.out[1] * g.out[2] >= kWinogradMinPositions;
}

// Where an output with write mode `req` is written: the array itself, or
// `scratch` of AddToBytes(v, req) bytes (kAddTo: added afterwards; kNull: discarded).
void* OutputTarget(const TensorView& v, OpReq req, void* scratch) {
  return req == OpReq::kWriteTo || req == OpReq::kWriteInplace ? v.data : scratch;
}

void Execute(dnnl::primitive& prim, const Args& args) {
  try {
    prim.execute(ThreadStream(), args);
  } catch (const dnnl::error& e) {
    WEFT_THROW(kInternal) << "oneDNN convolution failed: " << e.what();
  }
}

}  // namespace

bool ConvForward(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
                 const TensorView& y) {
  ConvDims d;
  if (x.dtype != DType::kFloat32 || !MakeDims(g, &d)) return false;
  std::shared_ptr<Fwd> f;
  if (WinogradPerCall(g))
    f = Cached<Fwd>(Key("fwd_wino", g, b != nullptr), [&] { return MakeFwd(d, b != nullptr, true); });
  if (!f) f = Cached<Fwd>(Key("fwd", g, b != nullptr), [&] { return MakeFwd(d, b != nullptr, false); });
  if (!f) return false;
  CallScratch s({ScratchBytes(f->src), ScratchBytes(f->wei), ScratchBytes(f->dst), ScratchpadBytes(f->pd),
                 AddToBytes(y, req)});
  void* out = OutputTarget(y, req, s[4]);
  Args args{{DNNL_ARG_SRC, InputMemory(f->src, x.data, s[0])},
            {DNNL_ARG_WEIGHTS, InputMemory(f->wei, w.data, s[1])},
            {DNNL_ARG_DST, OutputMemory(f->dst, out, s[2])},
            {DNNL_ARG_SCRATCHPAD, Scratchpad(f->pd, s[3])}};
  if (b != nullptr) args.emplace(DNNL_ARG_BIAS, memory(PlainDesc(d.bias), CpuEngine(), b->data));
  Execute(f->prim, args);
  FinishOutput(f->dst, args.at(DNNL_ARG_DST), out);
  ThreadStream().wait();
  if (req == OpReq::kAddTo) AddInto(y, out);
  return true;
}

bool ConvBackwardData(const ConvGeom& g, const TensorView& dy, const TensorView& w, OpReq req, const TensorView& dx) {
  ConvDims d;
  if (dy.dtype != DType::kFloat32 || !MakeDims(g, &d)) return false;
  std::shared_ptr<BwdData> b;
  if (WinogradPerCall(g)) b = Cached<BwdData>(Key("bwd_data_wino", g, false), [&] { return MakeBwdData(d, true); });
  if (!b) b = Cached<BwdData>(Key("bwd_data", g, false), [&] { return MakeBwdData(d, false); });
  if (!b) return false;
  CallScratch s({ScratchBytes(b->ddst), ScratchBytes(b->wei), ScratchBytes(b->dsrc), ScratchpadBytes(b->pd),
                 AddToBytes(dx, req)});
  void* out = OutputTarget(dx, req, s[4]);
  Args args{{DNNL_ARG_DIFF_DST, InputMemory(b->ddst, dy.data, s[0])},
            {DNNL_ARG_WEIGHTS, InputMemory(b->wei, w.data, s[1])},
            {DNNL_ARG_DIFF_SRC, OutputMemory(b->dsrc, out, s[2])},
            {DNNL_ARG_SCRATCHPAD, Scratchpad(b->pd, s[3])}};
  Execute(b->prim, args);
  FinishOutput(b->dsrc, args.at(DNNL_ARG_DIFF_SRC), out);
  ThreadStream().wait();
  if (req == OpReq::kAddTo) AddInto(dx, out);
  return true;
}

bool ConvBackwardWeight(const ConvGeom& g, const TensorView& dy, const TensorView& x, OpReq req, const TensorView& dw,
                        const TensorView* db, OpReq req_db) {
  ConvDims d;
  if (dy.dtype != DType::kFloat32 || !MakeDims(g, &d)) return false;
  const bool bias = db != nullptr && req_db != OpReq::kNull;
  std::shared_ptr<BwdWeights> b;
  if (WinogradPerCall(g))
    b = Cached<BwdWeights>(Key("bwd_weights_wino", g, bias), [&] { return MakeBwdWeights(d, bias, true); });
  if (!b) b = Cached<BwdWeights>(Key("bwd_weights", g, bias), [&] { return MakeBwdWeights(d, bias, false); });
  if (!b) return false;
  // The weight gradient is computed even for kNull when only the bias one is wanted.
  TensorView wv = dw;
  if (req == OpReq::kNull) wv.shape = Shape{g.out_c, g.in_c / g.groups, g.KernelSize()};
  CallScratch s({ScratchBytes(b->src), ScratchBytes(b->ddst), ScratchBytes(b->dwei), ScratchpadBytes(b->pd),
                 AddToBytes(wv, req), bias ? AddToBytes(*db, req_db) : 0, bias ? ScratchBytes(b->dbias) : 0});
  void* wout = OutputTarget(wv, req, s[4]);
  void* bout = bias ? OutputTarget(*db, req_db, s[5]) : nullptr;
  Args args{{DNNL_ARG_SRC, InputMemory(b->src, x.data, s[0])},
            {DNNL_ARG_DIFF_DST, InputMemory(b->ddst, dy.data, s[1])},
            {DNNL_ARG_DIFF_WEIGHTS, OutputMemory(b->dwei, wout, s[2])},
            {DNNL_ARG_SCRATCHPAD, Scratchpad(b->pd, s[3])}};
  // A bias gradient in a non-plain layout is not expected for a 1-D array; reorder if it happens.
  if (bias) args.emplace(DNNL_ARG_DIFF_BIAS, OutputMemory(b->dbias, bout, s[6]));
  Execute(b->prim, args);
  FinishOutput(b->dwei, args.at(DNNL_ARG_DIFF_WEIGHTS), wout);
  if (bias) FinishOutput(b->dbias, args.at(DNNL_ARG_DIFF_BIAS), bout);
  ThreadStream().wait();
  if (req == OpReq::kAddTo) AddInto(dw, wout);
  if (bias && req_db == OpReq::kAddTo) AddInto(*db, bout);
  return true;
}

namespace {

std::string PostKey(const ConvGeom& g, bool bias, const ConvPostOps& post, bool winograd = false) {
  const bool sum = post.addend != nullptr;
  const std::string kind = sum ? (post.relu ? "post_sr" : "post_s") : (post.relu ? "post_r" : "post");
  return Key((kind + (winograd ? "_wino" : "")).c_str(), g, bias);
}

std::shared_ptr<FwdPost> FindFwdPost(const ConvGeom& g, const ConvDims& d, bool bias, const ConvPostOps& post,
                                     bool winograd = false) {
  return Cached<FwdPost>(PostKey(g, bias, post, winograd),
                         [&] { return MakeFwdPost(d, bias, post.addend != nullptr, post.relu, winograd); });
}

// Runs f on x into y with the weights in `wei` (f's layout) and the bias.
void RunFwdPost(FwdPost& f, const ConvDims& d, const TensorView& x, const memory& wei, const float* bias,
                const ConvPostOps& post, const TensorView& y, void* src_scratch, void* dst_scratch,
                void* scratchpad) {
  Args args{{DNNL_ARG_SRC, InputMemory(f.src, x.data, src_scratch)},
            {DNNL_ARG_WEIGHTS, wei},
            {DNNL_ARG_DST, OutputMemory(f.dst, y.data, dst_scratch)},
            {DNNL_ARG_SCRATCHPAD, Scratchpad(f.pd, scratchpad)}};
  if (bias != nullptr) args.emplace(DNNL_ARG_BIAS, memory(PlainDesc(d.bias), CpuEngine(), const_cast<float*>(bias)));
  if (post.addend != nullptr) {  // the sum post-op adds what dst holds before the primitive runs
    if (f.dst_in) {
      memory user(f.dst.plain, CpuEngine(), post.addend->data);
      memory dst = args.at(DNNL_ARG_DST);
      f.dst_in->execute(ThreadStream(), user, dst);
    } else if (post.addend->data != y.data) {
      std::memcpy(y.data, post.addend->data, static_cast<size_t>(y.Size()) * sizeof(float));
    }
  }
  Execute(f.prim, args);
  FinishOutput(f.dst, args.at(DNNL_ARG_DST), y.data);
  ThreadStream().wait();
}

}  // namespace

bool ConvForwardPost(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b,
                     const ConvPostOps& post, const TensorView& y) {
  ConvDims d;
  if (x.dtype != DType::kFloat32 || !MakeDims(g, &d)) return false;
  auto f = FindFwdPost(g, d, b != nullptr, post);
  if (!f) return false;
  CallScratch s({ScratchBytes(f->src), ScratchBytes(f->wei), ScratchBytes(f->dst), ScratchpadBytes(f->pd)});
  const memory wei = InputMemory(f->wei, w.data, s[1]);
  RunFwdPost(*f, d, x, wei, b != nullptr ? b->ptr<float>() : nullptr, post, y, s[0], s[2], s[3]);
  return true;
}

std::string PreparedConvKey(const ConvGeom& g, bool bias, const ConvPostOps& post) {
  return PostKey(g, bias, post);
}

// The primitive of prepared weights: Winograd when asked for and oneDNN has
// it, else direct; null when oneDNN takes neither.
static std::shared_ptr<FwdPost> PreparedPrimitive(const ConvGeom& g, const ConvDims& d, bool bias,
                                                  const ConvPostOps& post, bool winograd) {
  std::shared_ptr<FwdPost> f;
  if (winograd) f = FindFwdPost(g, d, bias, post, true);
  if (!f) f = FindFwdPost(g, d, bias, post);
  return f;
}

// Bytes of prepared weights (a weight cache entry's size): Winograd weights
// are larger than the filters (16/9 or 4 times as many floats).
static size_t PreparedConvBytes(const ConvGeom& g, const TensorView& w, bool bias, const ConvPostOps& post,
                                bool winograd) {
  const size_t bias_bytes = bias ? static_cast<size_t>(g.out_c) * sizeof(float) : 0;
  ConvDims d;
  if (w.dtype != DType::kFloat32 || !MakeDims(g, &d)) return static_cast<size_t>(w.Size()) * sizeof(float) + bias_bytes;
  auto f = PreparedPrimitive(g, d, bias, post, winograd);
  return (f ? f->wei.prim.get_size() : static_cast<size_t>(w.Size()) * sizeof(float)) + bias_bytes;
}

// Note [Weight layout cache] (core/op/common/weight_cache.h).
struct PreparedConvWeights {
  std::shared_ptr<FwdPost> f;  // the primitive whose layout `wei` has
  std::unique_ptr<void, decltype(&std::free)> wei{nullptr, &std::free};
  std::vector<float> bias;  // plain; empty: no bias
  mutable std::atomic<int> uses{0};  // calls served, for Note [Winograd from the third use]
};

std::shared_ptr<const PreparedConvWeights> PrepareConvWeights(const ConvGeom& g, const TensorView& w,
                                                              const TensorView* b, const ConvPostOps& post,
                                                              bool winograd) {
  ConvDims d;
  if (w.dtype != DType::kFloat32 || !MakeDims(g, &d)) return nullptr;
  auto f = PreparedPrimitive(g, d, b != nullptr, post, winograd);
  if (!f) return nullptr;
  auto pw = std::make_shared<PreparedConvWeights>();
  pw->f = f;
  const size_t bytes = f->wei.prim.get_size();
  pw->wei.reset(std::aligned_alloc(64, (std::max<size_t>(bytes, 1) + 63) / 64 * 64));
  WEFT_CHECK(pw->wei != nullptr, kOutOfMemory) << "out of memory allocating " << bytes
                                               << " bytes for a convolution's reordered weights";
  if (f->wei.reorder) {
    memory user(f->wei.plain, CpuEngine(), w.data), blocked(f->wei.prim, CpuEngine(), pw->wei.get());
    f->wei.reorder->execute(ThreadStream(), user, blocked);
    ThreadStream().wait();
  } else {
    std::memcpy(pw->wei.get(), w.data, bytes);
  }
  if (b != nullptr) pw->bias.assign(b->ptr<float>(), b->ptr<float>() + b->Size());
  return pw;
}

// Note [Winograd from the third use]
// oneDNN makes Winograd weights with its wino_reorder, a slow one: 270 ms for
// 512 x 512 x 3 x 3 filters on the loaded 2-core machine, about 1.1 s more
// for ResNet-18's first forward (3.3 s against 2.2). A program that runs a
// net once or twice (a script, a cold server's first request) would pay it
// for nothing. So weights are first kept in the direct kernel's layout (a
// cheap reorder) and remade for Winograd on their third call with the same
// contents; the direct entry is then dropped. A changed weight (new stamp)
// starts over.
static constexpr int kWinogradAfterUses = 3;

std::shared_ptr<const PreparedConvWeights> KeptConvWeights(
    const std::string& kind, const weight_cache::Source& src, const ConvGeom& g, const TensorView& w, bool bias,
    const ConvPostOps& post, const std::function<std::shared_ptr<const PreparedConvWeights>(bool)>& make) {
  using weight_cache::FindOrMakeAs;
  using PW = PreparedConvWeights;
  const size_t direct_bytes = PreparedConvBytes(g, w, bias, post, false);
  if (!WinogradWanted(g)) return FindOrMakeAs<PW>(kind, src, direct_bytes, [&] { return make(false); });
  const std::string wino_kind = kind + "/wino";
  if (auto pw = FindOrMakeAs<PW>(wino_kind, src, 0, [] { return nullptr; })) return pw;  // a lookup only
  auto direct = FindOrMakeAs<PW>(kind, src, direct_bytes, [&] { return make(false); });
  if (!direct || direct->uses.fetch_add(1) + 1 < kWinogradAfterUses) return direct;
  auto wino = FindOrMakeAs<PW>(wino_kind, src, PreparedConvBytes(g, w, bias, post, true), [&] { return make(true); });
  if (!wino) return direct;
  weight_cache::Drop(kind, src.weight);  // callers still running on it hold their own reference
  return wino;
}

bool ConvForwardPrepared(const ConvGeom& g, const TensorView& x, const PreparedConvWeights& pw,
                         const ConvPostOps& post, const TensorView& y) {
  ConvDims d;
  if (x.dtype != DType::kFloat32 || !MakeDims(g, &d)) return false;
  FwdPost& f = *pw.f;
  WEFT_CHECK(x.shape.dims() == f.src.plain.dims() && y.shape.dims() == f.dst.plain.dims(), kInternal)
      << "convolution with prepared weights: shapes differ from the ones the weights were prepared for";
  CallScratch s({ScratchBytes(f.src), ScratchBytes(f.dst), ScratchpadBytes(f.pd)});
  const memory wei(f.wei.prim, CpuEngine(), pw.wei.get());
  RunFwdPost(f, d, x, wei, pw.bias.empty() ? nullptr : pw.bias.data(), post, y, s[0], s[1], s[2]);
  return true;
}

bool ConvForwardKept(uint64_t weight_stamp, const ConvGeom& g, const TensorView& x, const TensorView& w,
                     const TensorView* b, const ConvPostOps& post, const TensorView& y) {
  if (weight_stamp == 0 || !weight_cache::Enabled() || w.dtype != DType::kFloat32)
    return ConvForwardPost(g, x, w, b, post, y);
  weight_cache::Source src;
  src.weight = w.data;
  src.stamp = weight_stamp;
  if (b != nullptr) {
    src.small = b->ptr<float>();
    src.small_count = static_cast<size_t>(b->Size());
  }
  auto pw = KeptConvWeights("Convolution/" + PreparedConvKey(g, b != nullptr, post), src, g, w, b != nullptr, post,
                            [&](bool winograd) { return PrepareConvWeights(g, w, b, post, winograd); });
  if (!pw) return ConvForwardPost(g, x, w, b, post, y);
  return ConvForwardPrepared(g, x, *pw, post, y);
}

}  // namespace dnnl_cpu
}  // namespace weft
#endif  // WEFT_USE_DNNL
