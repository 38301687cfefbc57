// _fused_convolution_bn: act(BatchNorm(Convolution(data, weight, bias)) + addend)
// as one operator, written by the fusion pass (core/graph/fusion.cc) for a
// Convolution whose output only feeds a BatchNorm whose statistics outputs
// nobody reads, optionally followed by the residual add and an Activation.
// GPU kernel: core/op/fused/fused_conv_bn.cu.
//
// Note [Inference folding]
// With the moving statistics (not training, or use_global_stats) BatchNorm is
// a per-channel affine map, y = conv * scale[c] + shift[c] with
// scale = gamma / sqrt(moving_var + eps) (gamma = 1 under fix_gamma) and
// shift = beta - moving_mean * scale. The CPU kernel computes scale and shift
// from the parameter arrays at every call and folds them into a copy of
// the weights and the bias (w * scale per filter, (b - moving_mean) * scale +
// beta; the user's arrays are never written). The oneDNN convolution then
// runs with the residual add (oneDNN's sum post-op) and ReLU as post-ops: its
// output is written once, already normalised, summed and activated, instead
// of being read and written again by BatchNorm, the add and the Activation.
// Not training, the folded weights are kept in oneDNN's layout between calls
// (Note [Weight layout cache] in core/op/common/weight_cache.h): valid while
// the weight's write stamp and the scale, shift and bias are the ones they
// were made from, so set_params, a Trainer update or a rebind between
// forwards is seen at once. Otherwise (training with use_global_stats, the
// cache off) the copy costs one pass over the weights per call, as the
// reorder into oneDNN's layout does (per-channel binary post-ops would avoid
// it but get only slow kernels in oneDNN 2.6: convolution_dnnl.cc). The
// hidden outputs (mean, var) receive
// what BatchNorm writes there: the moving mean and the inverse standard
// deviation.
// Everything else computes the unfused chain with the unfused kernels:
// training with batch statistics (which also updates the moving statistics,
// declared written like BatchNorm's), float64, activations other than ReLU,
// kAddTo, builds or runs without oneDNN (WEFT_USE_DNNL=0) and shapes oneDNN
// refuses. The fold changes the rounding order only (tests compare fused and
// unfused graphs to 1e-5: tests/python/test_inference_folding.py).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/dnnl_nn.h"
#include "core/op/common/layer_util.h"
#include "core/op/common/weight_cache.h"
#include "core/op/common/nn_path.h"
#include "core/op/layer/layer_cpu.h"
#include "core/op/layer/layer_rules.h"
#include "core/op/fused/fused_conv_bn.h"
#include "core/op/fused/fused_elemwise_cpu.h"
#include "core/op/fused/fused_nn_cpu.h"
#include "core/op/fused/fused_nn_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace fused_conv_bn {

const std::vector<std::string>& ActTypes() {
  static const std::vector<std::string> kTypes = {"none",  "relu",     "sigmoid", "log_sigmoid",
                                                  "mish",  "tanh",     "softrelu", "softsign"};
  return kTypes;
}

std::string ActType(const Params& p) {
  const std::string a = p.GetString("act_type");
  return a.empty() ? "none" : a;
}

Slots SlotsOf(const Params& p) {
  Slots s;
  int i = 2;
  if (!p.GetBool("no_bias")) s.bias = i++;
  s.gamma = i++;
  s.beta = i++;
  s.moving_mean = i++;
  s.moving_var = i++;
  if (p.GetBool("with_sum")) s.addend = i++;
  s.num_inputs = i;
  return s;
}

namespace {

const char* kOp = "_fused_convolution_bn";
const char* kBnKeys[] = {"eps", "momentum", "fix_gamma", "use_global_stats"};

bool IsBnKey(const std::string& k) {
  for (const char* b : kBnKeys)
    if (k == b) return true;
  return false;
}

}  // namespace

Params ConvParams(const Params& p) {
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const auto& kv : p.raw())
    if (kv.first != "act_type" && kv.first != "with_sum" && !IsBnKey(kv.first)) attrs.push_back(kv);
  return Params::Parse(OpRegistry::Get()->FindOrThrow("Convolution"), attrs);
}

Params BatchNormParams(const Params& p) {
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const auto& kv : p.raw())
    if (IsBnKey(kv.first)) attrs.push_back(kv);
  return Params::Parse(OpRegistry::Get()->FindOrThrow("BatchNorm"), attrs);
}

namespace {

std::vector<std::string> InputNames(const Params& p) {
  std::vector<std::string> names = {"data", "weight"};
  if (!p.GetBool("no_bias")) names.push_back("bias");
  for (const char* n : {"gamma", "beta", "moving_mean", "moving_var"}) names.push_back(n);
  if (p.GetBool("with_sum")) names.push_back("addend");
  return names;
}

bool InferShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Slots s = SlotsOf(p);
  const OpDef& conv = OpRegistry::Get()->FindOrThrow("Convolution");
  std::vector<Shape> cin = {(*in)[0], (*in)[1]};
  if (s.bias >= 0) cin.push_back((*in)[static_cast<size_t>(s.bias)]);
  std::vector<Shape> cout = {(*out)[0]};
  const bool known = conv.InferShape(ConvParams(p), &cin, &cout);
  (*in)[0] = cin[0];
  (*in)[1] = cin[1];
  if (s.bias >= 0) (*in)[static_cast<size_t>(s.bias)] = cin[2];
  AssignShape(out, 0, cout[0], std::string(kOp) + ": output");
  if (!known) return false;
  const Shape c{cout[0][1]};
  for (int i : {s.gamma, s.beta, s.moving_mean, s.moving_var})
    AssignShape(in, static_cast<size_t>(i), c, std::string(kOp) + ": input '" + InputNames(p)[static_cast<size_t>(i)] + "'");
  if (s.addend >= 0) AssignShape(in, static_cast<size_t>(s.addend), cout[0], std::string(kOp) + ": input 'addend'");
  AssignShape(out, 1, c, std::string(kOp) + ": output 'mean'");
  AssignShape(out, 2, c, std::string(kOp) + ": output 'var'");
  return true;
}

// t += addend, elementwise (float32 or float64: the op's types).
template <typename T>
void AddInPlaceT(const TensorView& t, const TensorView& addend) {
  T* d = t.ptr<T>();
  const T* a = addend.ptr<T>();
  ParallelFor(t.Size(), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) d[i] += a[i];
  });
}

void AddInPlace(const TensorView& t, const TensorView& addend) {
  if (t.dtype == DType::kFloat64) return AddInPlaceT<double>(t, addend);
  WEFT_CHECK(t.dtype == DType::kFloat32, kDType) << kOp << ": only float32 and float64 are supported";
  AddInPlaceT<float>(t, addend);
}

#if WEFT_USE_DNNL
// y = relu?(y * scale[c] + shift[c] + addend), one pass over (batch, channel) planes.
void AffineEpilogue(const float* scale, const float* shift, const TensorView* addend, bool relu, int64_t channels,
                    const TensorView& y) {
  const int64_t planes = y.shape[0] * channels, inner = y.Size() / std::max<int64_t>(planes, 1);
  float* d = y.ptr<float>();
  const float* a = addend != nullptr ? addend->ptr<float>() : nullptr;
  ParallelFor(planes, inner * 3, [&](int64_t p0, int64_t p1) {
    for (int64_t pl = p0; pl < p1; ++pl) {
      const float sc = scale[pl % channels], sh = shift[pl % channels];
      float* row = d + pl * inner;
      const float* add = a != nullptr ? a + pl * inner : nullptr;
      for (int64_t i = 0; i < inner; ++i) {
        float v = row[i] * sc + sh;
        if (add != nullptr) v += add[i];
        row[i] = relu && v < 0.f ? 0.f : v;
      }
    }
  });
}

constexpr int64_t kFoldRatio = 16;

// wf = w * scale per filter, bf = b * scale + shift (Note [Inference folding]).
void FoldInto(const float* w, const float* b, const float* scale, const float* shift, int64_t c, int64_t per_filter,
              float* wf, float* bf) {
  ParallelFor(c, per_filter, [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      bf[k] = (b != nullptr ? b[k] * scale[k] : 0.f) + shift[k];
      const float* src = w + k * per_filter;
      float* dst = wf + k * per_filter;
      for (int64_t i = 0; i < per_filter; ++i) dst[i] = src[i] * scale[k];
    }
  });
}

// The folded weights in the primitive's layout, from the cache when the
// weights and the per-channel values are those it was made from (Note
// [Weight layout cache] in core/op/common/weight_cache.h); null when not
// cached (training, unknown stamp, cache off) or oneDNN refuses the case.
// `per_channel` holds scale, shift and (with a bias) the bias: what the
// folded weights are a function of, besides the weights.
std::shared_ptr<const dnnl_cpu::PreparedConvWeights> CachedFoldedWeights(
    const OpContext& ctx, const nn_cpu::ConvGeom& g, const TensorView& w, const float* b,
    const std::vector<float>& per_channel, const dnnl_cpu::ConvPostOps& post) {
  if (ctx.InferenceStamp(1) == 0 || !weight_cache::Enabled()) return nullptr;
  const int64_t c = g.out_c, per_filter = w.Size() / std::max<int64_t>(c, 1);
  weight_cache::Source src;
  src.weight = w.data;
  src.stamp = ctx.InferenceStamp(1);
  src.small = per_channel.data();
  src.small_count = per_channel.size();
  return dnnl_cpu::KeptConvWeights(
      std::string(kOp) + "/" + dnnl_cpu::PreparedConvKey(g, true, post), src, g, w, true, post,
      [&](bool winograd) -> std::shared_ptr<const dnnl_cpu::PreparedConvWeights> {
        std::vector<float> wf(static_cast<size_t>(w.Size())), bf(static_cast<size_t>(c));
        const float* scale = per_channel.data();
        FoldInto(w.ptr<float>(), b, scale, scale + c, c, per_filter, wf.data(), bf.data());
        const TensorView wv{wf.data(), w.dtype, w.shape}, bv{bf.data(), w.dtype, Shape{c}};
        return dnnl_cpu::PrepareConvWeights(g, wv, &bv, post, winograd);
      });
}

// The folded path (Note [Inference folding]); false when oneDNN does not take it.
bool FoldedForward(const OpContext& ctx, const Params& p, const Slots& s, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nn_cpu::ConvGeom g = nn::ConvGeometry(ConvParams(p), in[0].shape);
  const int64_t c = g.out_c, per_filter = in[1].Size() / std::max<int64_t>(c, 1);
  const double eps = p.GetFloat("eps");
  const bool fix_gamma = p.GetBool("fix_gamma");
  const float* gamma = in[static_cast<size_t>(s.gamma)].ptr<float>();
  const float* beta = in[static_cast<size_t>(s.beta)].ptr<float>();
  const float* mean = in[static_cast<size_t>(s.moving_mean)].ptr<float>();
  const float* var = in[static_cast<size_t>(s.moving_var)].ptr<float>();
  const TensorView* bias = s.bias >= 0 ? &in[static_cast<size_t>(s.bias)] : nullptr;
  const TensorView* addend = s.addend >= 0 ? &in[static_cast<size_t>(s.addend)] : nullptr;
  const float* b = bias != nullptr ? bias->ptr<float>() : nullptr;
  dnnl_cpu::ConvPostOps post;
  post.addend = addend;
  post.relu = ActType(p) == "relu";
  // scale, shift, then the bias (what the folded weights depend on), then
  // the inverse std, which only the hidden output needs.
  std::vector<float> per_channel(static_cast<size_t>((b != nullptr ? 3 : 2) * c));
  std::vector<float> invstd(static_cast<size_t>(c));
  float* scale = per_channel.data();
  float* shift = scale + c;
  for (int64_t k = 0; k < c; ++k) {  // BatchNorm's own arithmetic (batch_norm_cpu.cc)
    const float is = static_cast<float>(1.0 / std::sqrt(static_cast<double>(var[k]) + eps));
    invstd[static_cast<size_t>(k)] = is;
    scale[k] = is * (fix_gamma ? 1.f : gamma[k]);
    shift[k] = beta[k] - mean[k] * scale[k];
  }
  if (b != nullptr) std::copy(b, b + c, shift + c);
  if (auto prepared = CachedFoldedWeights(ctx, g, in[1], b, per_channel, post)) {
    if (!dnnl_cpu::ConvForwardPrepared(g, in[0], *prepared, post, out[0])) return false;
  } else {
    // Folding copies the weights; when they outnumber the output many times
    // (ResNet-18's last stage at batch 1: 94 times) one pass over the output
    // after the convolution is cheaper. The factor is measured, not derived:
    // folding still won at 12 times (that stage at batch 8).
    const bool fold = in[1].Size() <= kFoldRatio * out[0].Size();
    if (fold) {
      thread_local std::vector<float> buf;  // the folded weights and bias, for this call only
      buf.resize(static_cast<size_t>(in[1].Size() + c));
      float* wf = buf.data();
      float* bf = wf + in[1].Size();
      FoldInto(in[1].ptr<float>(), b, scale, shift, c, per_filter, wf, bf);
      const TensorView wv{wf, in[1].dtype, in[1].shape}, bv{bf, in[1].dtype, Shape{c}};
      if (!dnnl_cpu::ConvForwardPost(g, in[0], wv, &bv, post, out[0])) return false;
    } else {
      dnnl_cpu::ConvPostOps none;
      if (!dnnl_cpu::ConvForwardPost(g, in[0], in[1], bias, none, out[0])) return false;
      AffineEpilogue(scale, shift, addend, post.relu, c, out[0]);
    }
  }
  auto store = [&](OpReq r, const TensorView& v, const float* src) {
    if (r == OpReq::kNull) return;
    float* d = v.ptr<float>();
    for (int64_t k = 0; k < c; ++k) d[k] = r == OpReq::kAddTo ? d[k] + src[k] : src[k];
  };
  store(req[1], out[1], mean);
  store(req[2], out[2], invstd.data());
  return true;
}
#endif

void ComputeCpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const Slots s = SlotsOf(p);
  const std::string act_type = ActType(p);
  const bool batch_stats = ctx.is_train && !p.GetBool("use_global_stats");
  const bool write = req[0] == OpReq::kWriteTo || req[0] == OpReq::kWriteInplace;
#if WEFT_USE_DNNL
  if (!batch_stats && write && in[0].dtype == DType::kFloat32 && nn_cpu::UseDnnl() &&
      (act_type == "none" || act_type == "relu") && FoldedForward(ctx, p, s, in, req, out))
    return;
#endif
  // The unfused chain, through the unfused kernels, into y (or scratch for kAddTo).
  std::vector<double> scratch;
  TensorView t = out[0];
  if (!write) {
    scratch.resize(static_cast<size_t>(out[0].Size()));
    t.data = scratch.data();
  }
  const OpDef& conv = OpRegistry::Get()->FindOrThrow("Convolution");
  const OpDef& bn = OpRegistry::Get()->FindOrThrow("BatchNorm");
  std::vector<TensorView> conv_in = {in[0], in[1]};
  if (s.bias >= 0) conv_in.push_back(in[static_cast<size_t>(s.bias)]);
  conv.compute_cpu(ctx, ConvParams(p), conv_in, {OpReq::kWriteTo}, {t});
  bn.compute_cpu(ctx, BatchNormParams(p),
                 {t, in[static_cast<size_t>(s.gamma)], in[static_cast<size_t>(s.beta)],
                  in[static_cast<size_t>(s.moving_mean)], in[static_cast<size_t>(s.moving_var)]},
                 {OpReq::kWriteInplace, req[1], req[2]}, {t, out[1], out[2]});
  if (s.addend >= 0) {
    AddInPlace(t, in[static_cast<size_t>(s.addend)]);
  }
  if (act_type != "none") {
    fused_cpu::ActivationEpilogue(fused_cpu::ActKindByName(act_type, kOp), write ? nullptr : &t, req[0], out[0]);
  } else if (!write && req[0] == OpReq::kAddTo) {
    AddInPlace(out[0], t);
  }
}

[[maybe_unused]] const bool kRegistered = [] {
  WEFT_REGISTER_OP(op, kOp).set_compute_gpu(WEFT_GPU(cuda::FusedConvolutionBnGpu));
  op.set_uses_input_stamps();
  op.describe("Activation(BatchNorm(Convolution(data, weight, bias)) + addend, act_type) as one operator (written by "
              "the graph fusion pass; see WEFT_FUSION). With the moving statistics the BatchNorm is folded into "
              "the convolution's output (Note [Inference folding] in core/op/fused/fused_conv_bn.cc). Parameters "
              "as Convolution's, BatchNorm's eps, momentum, fix_gamma and use_global_stats, with_sum (an 'addend' "
              "input of the output's shape is added before the activation) and act_type ('none': no activation). "
              "Outputs as BatchNorm's: output, and the hidden mean and inverse standard deviation used.");
  op.add_input("data").add_input("weight").add_input("bias").add_input("gamma").add_input("beta");
  op.add_input("moving_mean").add_input("moving_var").add_input("addend");
  nn::AddConvolutionParams(op);
  op.add_param("eps", ParamType::kFloat, "0.001", "BatchNorm's epsilon.")
      .add_param("momentum", ParamType::kFloat, "0.9", "BatchNorm's momentum for the moving statistics.")
      .add_param("fix_gamma", ParamType::kBool, "True", "BatchNorm's fix_gamma: gamma is taken as 1.")
      .add_param("use_global_stats", ParamType::kBool, "False",
                 "BatchNorm's use_global_stats: the moving statistics also when training.")
      .add_param("with_sum", ParamType::kBool, "False", "Add the input 'addend' before the activation.")
      .add_enum_param("act_type", ActTypes(), "none", "Activation applied last ('none': none).");
  op.list_input_names = InputNames;
  op.set_num_outputs(3)
      .set_infer_shape(InferShape)
      .set_infer_type(nn::FloatTypeInfer)
      .set_compute_cpu(ComputeCpu);
  op.num_visible_outputs = 1;
  op.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "mean", "var"}; };
  op.set_mutate_inputs_fn([](const Params& p) {
    const Slots s = SlotsOf(p);
    return std::vector<int>{s.moving_mean, s.moving_var};
  });
  // No gradient rule: the pass runs after gradient construction.
  return true;
}();

}  // namespace
}  // namespace fused_conv_bn
}  // namespace weft
