// _npi_gumbel, _npi_logistic, _npi_rayleigh, _npi_weibull, _npi_pareto,
// _npi_powerd and _npi_bernoulli: MXNet 1.9.1's np.random / npx.random samplers
// with no legacy operator, under their registered names and parameters
// (loc/scale or a, size, ctx; float32 out, as MXNet's; bernoulli: prob or
// logit, is_logit, dtype). Draws:
// np_samplers_rules.h (Note [Inverse-CDF samplers]) over the
// device generator on the CPU and Philox on the GPU (np_samplers.cu).
//
// MXNet also takes a parameter as an array (np.random.gumbel(loc=array)): the
// parameter is then None and the node has that array as an input. These
// declarations take scalars only: such a node is refused when read (it has an
// input the operator does not take) or when its None parameter is parsed.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/op_util.h"
#include "core/op/random/np_samplers_gpu.h"
#include "core/op/random/np_samplers_rules.h"
#include "core/op/random_state.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace sampler {

NpDistParams NpDistOf(const Params& p) {
  const std::string& op = p.op()->name;
  auto scalar = [&](const char* name) {
    WEFT_CHECK(!p.IsNone(name), kInvalidArgument) << op << ": parameter '" << name
        << "' = None (read from an input array) is not supported; only a scalar " << name;
    return p.GetFloat(name);
  };
  NpDistParams r;
  if (op == "_npi_gumbel" || op == "_npi_logistic") {
    r.d = op == "_npi_gumbel" ? NpDist::kGumbel : NpDist::kLogistic;
    r.a = scalar("loc");
    r.b = scalar("scale");
    WEFT_CHECK(r.b >= 0, kInvalidArgument) << op << ": parameter 'scale' must be >= 0, got " << r.b;
  } else if (op == "_npi_rayleigh") {
    r.d = NpDist::kRayleigh;
    r.a = scalar("scale");
    WEFT_CHECK(r.a >= 0, kInvalidArgument) << op << ": parameter 'scale' must be >= 0, got " << r.a;
  } else if (op == "_npi_bernoulli") {
    r.d = NpDist::kBernoulli;
    if (p.GetBool("is_logit")) {
      r.a = 1.0 / (1.0 + std::exp(-scalar("logit")));
    } else {
      r.a = scalar("prob");
      WEFT_CHECK(r.a >= 0 && r.a <= 1, kInvalidArgument) << op << ": parameter 'prob' must be in [0, 1], got " << r.a;
    }
  } else {
    r.d = op == "_npi_weibull" ? NpDist::kWeibull : op == "_npi_powerd" ? NpDist::kPower : NpDist::kPareto;
    r.a = scalar("a");
    WEFT_CHECK(r.d == NpDist::kWeibull ? r.a >= 0 : r.a > 0, kInvalidArgument)
        << op << ": parameter 'a' must be " << (r.d == NpDist::kWeibull ? ">= 0" : "> 0") << ", got " << r.a;
  }
  return r;
}

}  // namespace sampler

namespace {

// The CPU source of Note [One sampler rule]: 53-bit uniforms from the device generator.
struct GenSource {
  std::mt19937_64* gen;
  double Next() { return static_cast<double>((*gen)() >> 11) * (1.0 / 9007199254740992.0); }
};

void NpSampleCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>&,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << p.op()->name << ": called without a random generator";
  const sampler::NpDistParams d = sampler::NpDistOf(p);
  std::vector<double> v(static_cast<size_t>(out[0].Size()));
  GenSource src{&ctx.rng->engine()};
  for (double& x : v) x = sampler::NpDraw(d, src);
  if (req[0] == OpReq::kNull) return;
  tensor_cpu::ConvertCopy(TensorView{v.data(), DType::kFloat64, out[0].shape}, req[0], out[0]);
}

// has_dtype: the op's `dtype` parameter (bernoulli) sets the output dtype, else float32.
// Every one takes `ctx`, _npi_powerd too: MXNet's has none (its output follows the calling
// context), but here an op without inputs is placed by its ctx, so np.random.power on gpu(0)
// needs it; MXNet's graphs, which write no ctx for powerd, load unchanged.
void Declare(const char* name, const std::string& doc, void (*params)(OpDef&), bool has_dtype = false) {
  WEFT_REGISTER_OP(op, name).set_compute_gpu(WEFT_GPU(cuda::NpSampleGpu));
  op.describe(doc);
  params(op);
  op.add_optional_param("size", ParamType::kShape, "Output shape; None: one draw (a 0-d array).")
      .add_param("ctx", ParamType::kString, "cpu", "Device of the output, e.g. 'cpu(0)'.")
      .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
        sampler::NpDistOf(p);  // bad parameters fail on the caller's thread, before anything is pushed
        std::vector<int64_t> size;
        if (!p.IsNone("size")) {
          size = p.GetTuple("size");
          tensor::CheckNoNone(size, p.op()->name, "size");
          for (int64_t d : size)
            WEFT_CHECK(d >= 0, kInvalidArgument) << p.op()->name << ": parameter 'size' "
                                                 << tensor::TupleString(size) << " has a negative dimension";
        }
        AssignShape(out, 0, Shape(size), p.op()->name + ": output (size)");
        return true;
      })
      .set_infer_type([has_dtype](const Params& p, std::vector<DType>*, std::vector<DType>* out) {
        const DType t = has_dtype ? p.GetDType("dtype") : DType::kFloat32;
        WEFT_CHECK(t == DType::kBool || t == DType::kFloat16 || t == DType::kFloat32 || t == DType::kFloat64 ||
                       t == DType::kInt32 || t == DType::kUint8,
                   kDType)
            << p.op()->name << ": parameter 'dtype' must be one of bool, float16, float32, float64, int32, uint8, "
            << "got " << DTypeName(t);
        AssignType(out, 0, t, p.op()->name + ": output");
        return true;
      })
      .set_compute_cpu(NpSampleCPU)
      .set_needs_rng();
}

void LocScale(OpDef& op) {
  op.add_optional_param("loc", ParamType::kFloat, "The location (a scalar; None: an input array, not supported).")
      .add_optional_param("scale", ParamType::kFloat, "The scale >= 0 (a scalar; None: an input array, not supported).");
}

[[maybe_unused]] const bool kNpSamplersRegistered = [] {
  Declare("_npi_gumbel", "Samples of the Gumbel distribution: loc - scale * log(-log(u)).", LocScale);
  Declare("_npi_logistic", "Samples of the logistic distribution: loc + scale * log(u / (1 - u)).", LocScale);
  Declare("_npi_rayleigh", "Samples of the Rayleigh distribution: scale * sqrt(-2 log(u)).", [](OpDef& op) {
    op.add_param("scale", ParamType::kFloat, "1", "The scale >= 0.");
  });
  Declare("_npi_weibull", "Samples of the Weibull distribution of shape a: (-log(u))^(1/a).", [](OpDef& op) {
    op.add_optional_param("a", ParamType::kFloat, "The shape >= 0 (a scalar; None: an input array, not supported).");
  });
  Declare("_npi_pareto", "Samples of the Pareto II (Lomax) distribution of shape a: u^(-1/a) - 1, as NumPy's.",
          [](OpDef& op) {
            op.add_optional_param("a", ParamType::kFloat,
                                  "The shape > 0 (a scalar; None: an input array, not supported).");
          });
  Declare("_npi_powerd", "Samples of the power distribution of exponent a (np.random.power): u^(1/a) in [0, 1].",
          [](OpDef& op) {
            op.add_optional_param("a", ParamType::kFloat,
                                  "The exponent > 0 (a scalar; None: an input array, not supported).");
          });
  Declare("_npi_bernoulli", "Bernoulli samples (npx.random.bernoulli): 1 with probability prob (or "
          "sigmoid(logit) when is_logit), else 0, in `dtype`.",
          [](OpDef& op) {
            op.add_optional_param("prob", ParamType::kFloat, "The probability of a 1 (when not is_logit).")
                .add_optional_param("logit", ParamType::kFloat, "The log-odds of a 1 (when is_logit).")
                .add_required_param("is_logit", ParamType::kBool, "Whether logit, not prob, is given.")
                .add_param("dtype", ParamType::kDType, "float32", "The output dtype.");
          },
          true);
  return true;
}();

}  // namespace
}  // namespace weft
