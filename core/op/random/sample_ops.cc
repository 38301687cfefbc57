// The samplers of MXNet's random family beyond _random_uniform/_normal/_randint
// (core/op/random/random.cc), one row per distribution and three forms each:
//   _random_<d>       parameters are attributes, output shape from `shape`
//                     (exponential, gamma, poisson, negative_binomial,
//                     generalized_negative_binomial; alias random_<d>);
//   _random_<d>_like  parameters are attributes, output shape and dtype of `data`
//                     (all seven, uniform and normal included);
//   _sample_<d>       parameters are arrays of one shape S (any one dtype),
//                     output S + `shape` in `dtype` (float32 when None),
//                     element i drawn with the parameters at i / prod(shape)
//                     (all seven; alias sample_<d>).
// All draw from the device generator (set_needs_rng), so weft.random.seed(n)
// reproduces them. The distributions are in sampler_rules.h (Note [One sampler
// rule]); CPU kernel sample_ops_cpu.cc, GPU kernel sample_ops.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/random/sample_ops_rules.h"
#include "core/op/random/sample_ops_cpu.h"
#include "core/op/random/sample_ops_gpu.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

using sampler::Dist;
using sampler::Form;

const char* DistDoc(Dist d) {
  switch (d) {
    case Dist::kUniform: return "a uniform distribution on [low, high)";
    case Dist::kNormal: return "a normal distribution with mean loc (mu) and standard deviation scale (sigma)";
    case Dist::kExponential: return "an exponential distribution with rate lam (mean 1/lam)";
    case Dist::kGamma: return "a gamma distribution with shape alpha and scale beta";
    case Dist::kPoisson:
      return "a Poisson distribution with rate lam. Samples are always returned as a floating point data type";
    case Dist::kNegBinomial:
      return "a negative binomial distribution with k (limit of unsuccessful experiments) and p (failure "
             "probability in each experiment). Samples are always returned as a floating point data type";
    case Dist::kGenNegBinomial:
      return "a generalized negative binomial distribution with mu (mean) and alpha (dispersion, 1/k for a "
             "failure limit k generalized to real numbers). Samples are always returned as a floating point data type";
  }
  return "";
}

void AddAttrParams(OpDef& op, Dist d) {
  switch (d) {
    case Dist::kUniform:
      op.add_param("low", ParamType::kFloat, "0", "Lower bound of the distribution.")
          .add_param("high", ParamType::kFloat, "1", "Upper bound of the distribution.");
      break;
    case Dist::kNormal:
      op.add_param("loc", ParamType::kFloat, "0", "Mean of the distribution.")
          .add_param("scale", ParamType::kFloat, "1", "Standard deviation of the distribution.");
      break;
    case Dist::kExponential:
      op.add_param("lam", ParamType::kFloat, "1", "Lambda parameter (rate) of the exponential distribution.");
      break;
    case Dist::kGamma:
      op.add_param("alpha", ParamType::kFloat, "1", "Alpha parameter (shape) of the gamma distribution.")
          .add_param("beta", ParamType::kFloat, "1", "Beta parameter (scale) of the gamma distribution.");
      break;
    case Dist::kPoisson:
      op.add_param("lam", ParamType::kFloat, "1", "Lambda parameter (rate) of the Poisson distribution.");
      break;
    case Dist::kNegBinomial:
      op.add_param("k", ParamType::kInt, "1", "Limit of unsuccessful experiments.")
          .add_param("p", ParamType::kFloat, "1", "Failure probability in each experiment.");
      break;
    case Dist::kGenNegBinomial:
      op.add_param("mu", ParamType::kFloat, "1", "Mean of the negative binomial distribution.")
          .add_param("alpha", ParamType::kFloat, "1", "Alpha (dispersion) parameter of the negative binomial distribution.");
      break;
  }
}

void CheckFloating(const std::string& op, const std::string& what, DType t) {
  WEFT_CHECK(t == DType::kUnknown || IsFloating(t), kDType)
      << op << ": " << what << " must be a floating-point type (float16, float32, float64), got " << DTypeName(t);
}

std::mt19937_64& Generator(const OpContext& ctx, const std::string& op) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << op << ": called without a random generator";
  return ctx.rng->engine();
}

void AddDTypeParam(OpDef& op) {
  op.add_optional_param("dtype", ParamType::kDType,
                        "DType of the output in case this can't be inferred (float16, float32 or float64). "
                        "Defaults to float32 if not defined (dtype=None).");
}

// _random_<d>: attributes, then shape, ctx, dtype as _random_uniform.
void RegisterScalar(Dist d) {
  const sampler::DistInfo& info = sampler::Info(d);
  const std::string name = std::string("_random_") + info.name;
  WEFT_REGISTER_OP(op, name);
  op.describe(std::string("Draws random samples from ") + DistDoc(d) + ".");
  AddAttrParams(op, d);
  op.add_param("shape", ParamType::kShape, "()", "Shape of the output.")
      .add_param("ctx", ParamType::kString, "", "Context of output, in format [cpu|gpu](n). Only used for imperative calls.");
  AddDTypeParam(op);
  op.set_infer_shape([d](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
        double a, b;
        sampler::AttrParams(p, d, &a, &b);
        const std::string& n = p.op()->name;
        const std::vector<int64_t>& s = p.GetTuple("shape");
        tensor::CheckNoNone(s, n, "shape");
        for (int64_t v : s)
          WEFT_CHECK(v >= 0, kInvalidArgument) << n << ": parameter 'shape' " << tensor::TupleString(s)
                                               << " has a negative dimension";
        AssignShape(out, 0, Shape(s), n + ": output (shape)");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>*, std::vector<DType>* out) {
        const DType t = p.IsNone("dtype") ? DType::kFloat32 : p.GetDType("dtype");
        CheckFloating(p.op()->name, "parameter 'dtype'", t);
        AssignType(out, 0, t, p.op()->name + ": output (dtype)");
        return true;
      })
      .set_compute_cpu([d](const OpContext& ctx, const Params& p, const std::vector<TensorView>&,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        double a, b;
        sampler::AttrParams(p, d, &a, &b);
        tensor_cpu::SampleCPU(Generator(ctx, p.op()->name), d, {a}, {b}, 0, req[0], out[0]);
      })
      .set_compute_gpu(WEFT_GPU(cuda::SampleGpu(d, Form::kScalar)))
      .set_needs_rng()
      .add_alias(std::string("random_") + info.name);
}

// _random_<d>_like: the attributes and input `data`, whose shape and dtype the output has.
void RegisterLike(Dist d) {
  const sampler::DistInfo& info = sampler::Info(d);
  WEFT_REGISTER_OP(op, std::string("_random_") + info.name + "_like");
  op.describe(std::string("Draws random samples from ") + DistDoc(d) +
              ", according to the input array shape (and dtype).")
      .add_input("data");
  AddAttrParams(op, d);
  op.set_infer_shape([d](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        double a, b;
        sampler::AttrParams(p, d, &a, &b);
        const std::string& n = p.op()->name;
        if ((*in)[0].known()) AssignShape(out, 0, (*in)[0], n + ": output");
        if ((*out)[0].known()) AssignShape(in, 0, (*out)[0], n + ": input 'data'");
        return (*in)[0].known();
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const std::string& n = p.op()->name;
        CheckFloating(n, "input 'data'", (*in)[0]);
        if ((*in)[0] != DType::kUnknown) AssignType(out, 0, (*in)[0], n + ": output");
        if ((*out)[0] != DType::kUnknown) AssignType(in, 0, (*out)[0], n + ": input 'data'");
        return (*in)[0] != DType::kUnknown;
      })
      .set_compute_cpu([d](const OpContext& ctx, const Params& p, const std::vector<TensorView>&,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        double a, b;
        sampler::AttrParams(p, d, &a, &b);
        tensor_cpu::SampleCPU(Generator(ctx, p.op()->name), d, {a}, {b}, 0, req[0], out[0]);
      })
      .set_compute_gpu(WEFT_GPU(cuda::SampleGpu(d, Form::kLike)))
      .set_needs_rng();
}

// _sample_<d>: parameter arrays of one shape, then shape and dtype.
void RegisterArray(Dist d) {
  const sampler::DistInfo& info = sampler::Info(d);
  WEFT_REGISTER_OP(op, std::string("_sample_") + info.name);
  op.describe(std::string("Concurrent sampling from multiple ") + DistDoc(d) +
              ".\n\nThe parameters are input arrays of one shape [s]; with `shape` [t] the output has shape "
              "[s]x[t], and output[i] holds prod([t]) samples of the distribution with the parameters at index i. "
              "Without `shape` one sample is drawn per distribution.");
  for (int k = 0; k < info.nparams; ++k) op.add_input(info.input[k]);
  op.add_param("shape", ParamType::kShape, "()", "Shape to be sampled from each random distribution.");
  AddDTypeParam(op);
  const int np = info.nparams;
  op.set_infer_shape([np](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const std::string& n = p.op()->name;
        const std::vector<int64_t>& t = p.GetTuple("shape");
        tensor::CheckNoNone(t, n, "shape");
        for (int64_t v : t)
          WEFT_CHECK(v >= 0, kInvalidArgument) << n << ": parameter 'shape' " << tensor::TupleString(t)
                                               << " has a negative dimension";
        const std::vector<std::string> names = p.op()->InputNames(p);
        for (int k = 0; k < np; ++k) {
          if (!(*in)[k].known()) continue;
          for (int j = 0; j < np; ++j)
            AssignShape(in, j, (*in)[k], n + ": input '" + names[j] + "' (the parameters share one shape)");
          break;
        }
        const Shape& o = (*out)[0];
        if (!(*in)[0].known() && o.known()) {
          WEFT_CHECK(o.ndim() >= static_cast<int>(t.size()), kShape)
              << n << ": output " << o.ToString() << " has fewer dims than 'shape' " << tensor::TupleString(t);
          std::vector<int64_t> lead(o.dims().begin(), o.dims().end() - static_cast<long>(t.size()));
          for (int j = 0; j < np; ++j) AssignShape(in, j, Shape(lead), n + ": input '" + names[j] + "'");
        }
        if (!(*in)[0].known()) return false;
        std::vector<int64_t> dims = (*in)[0].dims();
        dims.insert(dims.end(), t.begin(), t.end());
        AssignShape(out, 0, Shape(dims), n + ": output (parameter shape + 'shape')");
        return true;
      })
      // As MXNet: the parameters share one dtype (any); the output is `dtype`,
      // float32 when None (not the parameters' dtype), a floating type.
      .set_infer_type([np](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const std::string& n = p.op()->name;
        const std::vector<std::string> names = p.op()->InputNames(p);
        DType t = DType::kUnknown;
        for (int k = 0; k < np && t == DType::kUnknown; ++k) t = (*in)[k];
        if (t != DType::kUnknown)
          for (int k = 0; k < np; ++k) AssignType(in, k, t, n + ": input '" + names[k] + "' (parameters share one dtype)");
        const DType o = p.IsNone("dtype") ? DType::kFloat32 : p.GetDType("dtype");
        CheckFloating(n, "parameter 'dtype'", o);
        AssignType(out, 0, o, n + ": output");
        return t != DType::kUnknown;
      })
      .set_compute_cpu([d](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const sampler::DistInfo& di = sampler::Info(d);
        const std::vector<double> a = tensor_cpu::ToDoubles(in[0]);
        const std::vector<double> b = di.nparams > 1 ? tensor_cpu::ToDoubles(in[1]) : std::vector<double>();
        // Invalid parameter sets draw NaN (Note [One sampler rule]; the kernel must not throw).
        tensor_cpu::SampleCPU(Generator(ctx, p.op()->name), d, a, b, sampler::SamplesPerParam(p), req[0], out[0]);
      })
      .set_compute_gpu(WEFT_GPU(cuda::SampleGpu(d, Form::kArray)))
      .set_needs_rng()
      .add_alias(std::string("sample_") + info.name);
}

[[maybe_unused]] const bool kSamplersRegistered = [] {
  for (Dist d : {Dist::kExponential, Dist::kGamma, Dist::kPoisson, Dist::kNegBinomial, Dist::kGenNegBinomial})
    RegisterScalar(d);
  for (Dist d : {Dist::kUniform, Dist::kNormal, Dist::kExponential, Dist::kGamma, Dist::kPoisson,
                 Dist::kNegBinomial, Dist::kGenNegBinomial}) {
    RegisterLike(d);
    RegisterArray(d);
  }
  return true;
}();

}  // namespace
}  // namespace weft
