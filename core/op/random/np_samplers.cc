// _npi_gumbel, _npi_logistic, _npi_rayleigh, _npi_weibull, _npi_pareto,
// _npi_powerd and _npi_bernoulli: MXNet 1.9.1's np.random / npx.random samplers
// with no legacy operator, under their registered names and parameters
// (loc/scale or a, size, ctx; float32 out, as MXNet's; bernoulli: prob or
// logit, is_logit, dtype). Draws:
// np_samplers_rules.h (Note [Inverse-CDF samplers]) over the
// device generator on the CPU and Philox on the GPU (np_samplers.cu).
//
// MXNet also takes a parameter as an array (np.random.gumbel(loc=array)): the
// parameter is then None and the node has that array as an input, broadcast
// against the others and `size` (Note [Sampler parameters from arrays] in
// np_samplers_rules.h).
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

namespace {

struct ArrayParam {
  const char* name;
  int slot;  // NpDistParams::a (0) or b (1)
};

// The op's parameters, in MXNet's order, with the slot each sets.
std::vector<ArrayParam> ParamsOf(const Params& p) {
  const std::string& op = p.op()->name;
  if (op == "_npi_gumbel" || op == "_npi_logistic") return {{"loc", 0}, {"scale", 1}};
  if (op == "_npi_rayleigh") return {{"scale", 0}};
  if (op == "_npi_bernoulli") return {{p.GetBool("is_logit") ? "logit" : "prob", 0}};
  if (op == "_npi_normal" || op == "_npi_normal_n") return {{"loc", 0}, {"scale", 1}};
  if (op == "_npi_uniform" || op == "_npi_uniform_n") return {{"low", 0}, {"high", 1}};
  if (op == "_npi_exponential") return {{"scale", 0}};
  return {{"a", 0}};
}

// Those given as arrays (None: Note [Sampler parameters from arrays]), in input order.
std::vector<ArrayParam> ArrayParamsOf(const Params& p) {
  std::vector<ArrayParam> r;
  for (const ArrayParam& a : ParamsOf(p))
    if (p.IsNone(a.name)) r.push_back(a);
  return r;
}

// Throws naming op and parameter when v is out of the distribution's range for `name`.
void CheckValue(const std::string& op, NpDist d, const std::string& name, double v) {
  if (name == "loc" || name == "logit" || name == "low" || name == "high") return;
  if (name == "prob") {
    WEFT_CHECK(v >= 0 && v <= 1, kInvalidArgument) << op << ": parameter 'prob' must be in [0, 1], got " << v;
  } else if (name == "scale" || d == NpDist::kWeibull) {
    WEFT_CHECK(v >= 0, kInvalidArgument) << op << ": parameter '" << name << "' must be >= 0, got " << v;
  } else {
    WEFT_CHECK(v > 0, kInvalidArgument) << op << ": parameter '" << name << "' must be > 0, got " << v;
  }
}

}  // namespace

NpDistParams NpDistOf(const Params& p) {
  const std::string& op = p.op()->name;
  NpDistParams r;
  if (op == "_npi_gumbel" || op == "_npi_logistic") {
    r.d = op == "_npi_gumbel" ? NpDist::kGumbel : NpDist::kLogistic;
  } else if (op == "_npi_rayleigh") {
    r.d = NpDist::kRayleigh;
  } else if (op == "_npi_bernoulli") {
    r.d = NpDist::kBernoulli;
  } else if (op == "_npi_normal" || op == "_npi_normal_n") {
    r.d = NpDist::kNormal;
  } else if (op == "_npi_uniform" || op == "_npi_uniform_n") {
    r.d = NpDist::kUniform;
  } else if (op == "_npi_exponential") {
    r.d = NpDist::kExponential;
  } else {
    r.d = op == "_npi_weibull" ? NpDist::kWeibull : op == "_npi_powerd" ? NpDist::kPower : NpDist::kPareto;
  }
  for (const ArrayParam& a : ParamsOf(p)) {
    if (p.IsNone(a.name)) continue;  // an input array
    const double v = p.GetFloat(a.name);
    CheckValue(op, r.d, a.name, v);
    (a.slot == 0 ? r.a : r.b) = v;
  }
  if (r.d == NpDist::kBernoulli && p.GetBool("is_logit")) {
    if (p.IsNone("logit")) {
      r.logit = true;
    } else {
      r.a = 1.0 / (1.0 + std::exp(-r.a));
    }
  }
  return r;
}

NpParamArrays NpArraysOf(const Params& p, const std::vector<TensorView>& in, const Shape& out) {
  const std::vector<ArrayParam> arrays = ArrayParamsOf(p);
  NpParamArrays r;
  r.n = static_cast<int>(arrays.size());
  r.nd = out.ndim();
  WEFT_CHECK(r.nd <= kNpSamplerMaxDims, kShape) << p.op()->name << ": an output of " << r.nd
      << " dims with array parameters is not supported (at most " << kNpSamplerMaxDims << ")";
  for (int j = 0; j < r.nd; ++j) r.dims[j] = out[j];
  for (int k = 0; k < r.n; ++k) {
    const TensorView& v = in[static_cast<size_t>(k)];
    r.slot[k] = arrays[static_cast<size_t>(k)].slot;
    r.f64[k] = v.dtype == DType::kFloat64;
    r.data[k] = v.data;
    int64_t stride = 1;
    for (int j = v.shape.ndim() - 1, o = r.nd - 1; j >= 0; --j, --o) {
      r.strides[k][o] = v.shape[j] == 1 ? 0 : stride;
      stride *= v.shape[j];
    }
  }
  return r;
}

void CheckNpArrayParams(const Params& p, const std::vector<TensorView>& in) {
  const std::vector<ArrayParam> arrays = ArrayParamsOf(p);
  const NpDist d = NpDistOf(p).d;
  for (size_t k = 0; k < arrays.size(); ++k) {
    const TensorView& v = in[k];
    for (int64_t i = 0; i < v.Size(); ++i) {
      const double x = v.dtype == DType::kFloat64 ? v.ptr<double>()[i] : static_cast<double>(v.ptr<float>()[i]);
      CheckValue(p.op()->name, d, arrays[k].name, x);
    }
  }
}

}  // namespace sampler

namespace {

// The CPU source of Note [One sampler rule]: 53-bit uniforms from the device generator.
struct GenSource {
  std::mt19937_64* gen;
  double Next() { return static_cast<double>((*gen)() >> 11) * (1.0 / 9007199254740992.0); }
};

void NpSampleCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << p.op()->name << ": called without a random generator";
  const sampler::NpDistParams d = sampler::NpDistOf(p);
  sampler::CheckNpArrayParams(p, in);
  const sampler::NpParamArrays arr = sampler::NpArraysOf(p, in, out[0].shape);
  std::vector<double> v(static_cast<size_t>(out[0].Size()));
  GenSource src{&ctx.rng->engine()};
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = sampler::NpDraw(arr.n ? sampler::NpParamsAt(d, arr, static_cast<int64_t>(i)) : d, src);
  if (req[0] == OpReq::kNull) return;
  tensor_cpu::ConvertCopy(TensorView{v.data(), DType::kFloat64, out[0].shape}, req[0], out[0]);
}

// `size`, or the array parameters broadcast together (Note [Sampler parameters from arrays]).
bool NpSampleShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  sampler::NpDistOf(p);  // bad parameters fail on the caller's thread, before anything is pushed
  const std::vector<sampler::ArrayParam> arrays = sampler::ArrayParamsOf(p);
  const bool has_size = !p.IsNone("size");
  std::vector<int64_t> size;
  if (has_size) {
    size = p.GetTuple("size");
    tensor::CheckNoNone(size, op, "size");
    for (int64_t d : size)
      WEFT_CHECK(d >= 0, kInvalidArgument) << op << ": parameter 'size' " << tensor::TupleString(size)
                                           << " has a negative dimension";
  }
  // npx.random's _n forms prefix `size` to the parameters' shape (a batch of draws per
  // parameter set); with numbers they are the plain samplers, so only those load
  WEFT_CHECK(arrays.empty() || op.compare(op.size() - 2, 2, "_n") != 0, kInvalidArgument)
      << op << ": parameter '" << arrays[0].name << "' = None (an input array: size as a batch prefix) is not "
      << "supported; only numbers";
  bool known = true;
  std::vector<int64_t> joint;  // the arrays broadcast together
  for (size_t k = 0; k < in->size() && k < arrays.size(); ++k) {
    const Shape& s = (*in)[k];
    if (!s.known()) {
      known = false;
      continue;
    }
    std::vector<int64_t> dims(static_cast<size_t>(s.ndim()));
    for (int j = 0; j < s.ndim(); ++j) dims[static_cast<size_t>(j)] = s[j];
    if (has_size) {
      bool fits = dims.size() <= size.size();
      for (size_t j = 1; fits && j <= dims.size(); ++j)
        fits = dims[dims.size() - j] == 1 || dims[dims.size() - j] == size[size.size() - j];
      WEFT_CHECK(fits, kShape) << op << ": input '" << arrays[k].name << "' of shape " << s.ToString()
                               << " does not broadcast to size " << tensor::TupleString(size);
      continue;
    }
    if (dims.size() > joint.size()) joint.insert(joint.begin(), dims.size() - joint.size(), 1);
    for (size_t j = 1; j <= dims.size(); ++j) {
      int64_t& o = joint[joint.size() - j];
      const int64_t d = dims[dims.size() - j];
      WEFT_CHECK(o == d || o == 1 || d == 1, kShape) << op << ": input '" << arrays[k].name << "' of shape "
          << s.ToString() << " does not broadcast with the other parameters";
      if (o == 1) o = d;
    }
  }
  if (has_size) {
    AssignShape(out, 0, Shape(size), op + ": output (size)");
  } else if (known) {
    AssignShape(out, 0, Shape(joint), op + ": output (the parameters broadcast)");
  }
  return known;
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
      .set_infer_shape(NpSampleShape)
      .set_infer_type([has_dtype](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const DType t = has_dtype ? p.GetDType("dtype") : DType::kFloat32;
        const bool floats = t == DType::kFloat16 || t == DType::kFloat32 || t == DType::kFloat64;
        if (p.op()->name == "_npi_bernoulli") {
          WEFT_CHECK(floats || t == DType::kBool || t == DType::kInt32 || t == DType::kUint8, kDType)
              << p.op()->name << ": parameter 'dtype' must be one of bool, float16, float32, float64, int32, uint8, "
              << "got " << DTypeName(t);
        } else {
          WEFT_CHECK(floats, kDType) << p.op()->name << ": parameter 'dtype' must be float16, float32 or float64, got "
                                     << DTypeName(t);
        }
        AssignType(out, 0, t, p.op()->name + ": output");
        const std::vector<sampler::ArrayParam> arrays = sampler::ArrayParamsOf(p);
        bool known = true;
        for (size_t k = 0; k < in->size() && k < arrays.size(); ++k) {
          const DType a = (*in)[k];
          known = known && a != DType::kUnknown;
          WEFT_CHECK(a == DType::kUnknown || a == DType::kFloat32 || a == DType::kFloat64, kDType)
              << p.op()->name << ": input '" << arrays[k].name << "' (the parameter as an array) must be float32 or "
              << "float64, got " << DTypeName(a);
        }
        return known;
      })
      .set_compute_cpu(NpSampleCPU)
      .set_needs_rng();
  op.list_input_names = [](const Params& p) {
    std::vector<std::string> names;
    for (const sampler::ArrayParam& a : sampler::ArrayParamsOf(p)) names.push_back(a.name);
    return names;
  };
}

void LocScale(OpDef& op) {
  op.add_optional_param("loc", ParamType::kFloat, "The location (a scalar; None: an input array).")
      .add_optional_param("scale", ParamType::kFloat, "The scale >= 0 (a scalar; None: an input array).");
}

[[maybe_unused]] const bool kNpSamplersRegistered = [] {
  Declare("_npi_gumbel", "Samples of the Gumbel distribution: loc - scale * log(-log(u)).", LocScale);
  Declare("_npi_logistic", "Samples of the logistic distribution: loc + scale * log(u / (1 - u)).", LocScale);
  Declare("_npi_rayleigh", "Samples of the Rayleigh distribution: scale * sqrt(-2 log(u)).", [](OpDef& op) {
    // MXNet's optional<float> scale with default 1: None is an input array
    op.add_param("scale", ParamType::kFloat, "1", "The scale >= 0 (None: an input array).");
    op.params.back().optional = true;
  });
  Declare("_npi_weibull", "Samples of the Weibull distribution of shape a: (-log(u))^(1/a).", [](OpDef& op) {
    op.add_optional_param("a", ParamType::kFloat, "The shape >= 0 (a scalar; None: an input array).");
  });
  Declare("_npi_pareto", "Samples of the Pareto II (Lomax) distribution of shape a: u^(-1/a) - 1, as NumPy's.",
          [](OpDef& op) {
            op.add_optional_param("a", ParamType::kFloat,
                                  "The shape > 0 (a scalar; None: an input array).");
          });
  Declare("_npi_powerd", "Samples of the power distribution of exponent a (np.random.power): u^(1/a) in [0, 1].",
          [](OpDef& op) {
            op.add_optional_param("a", ParamType::kFloat,
                                  "The exponent > 0 (a scalar; None: an input array).");
          });
  // np.random.normal/uniform/exponential and npx.random's normal_n/uniform_n (numbers only):
  // legacy samplers compute the number forms, but MXNet's graphs also give arrays
  auto loc_scale_dtype = [](OpDef& op) {
    op.add_optional_param("loc", ParamType::kFloat, "The mean (a scalar; None: an input array).")
        .add_optional_param("scale", ParamType::kFloat, "The standard deviation >= 0 (None: an input array).")
        .add_param("dtype", ParamType::kDType, "float32", "The output dtype: float16, float32 or float64.");
  };
  auto low_high_dtype = [](OpDef& op) {
    op.add_optional_param("low", ParamType::kFloat, "The lower bound (a scalar; None: an input array).")
        .add_optional_param("high", ParamType::kFloat, "The upper bound, excluded (None: an input array).")
        .add_param("dtype", ParamType::kDType, "float32", "The output dtype: float16, float32 or float64.");
  };
  Declare("_npi_normal", "Samples of the normal distribution N(loc, scale^2).", loc_scale_dtype, true);
  Declare("_npi_normal_n", "Samples of N(loc, scale^2) (npx.random.normal_n; number parameters).",
          loc_scale_dtype, true);
  Declare("_npi_uniform", "Samples of the uniform distribution on [low, high).", low_high_dtype, true);
  Declare("_npi_uniform_n", "Samples of the uniform distribution on [low, high) (npx.random.uniform_n; number "
          "parameters).", low_high_dtype, true);
  Declare("_npi_exponential", "Samples of the exponential distribution of scale (mean) scale: -scale log(u).",
          [](OpDef& op) {
            op.add_param("scale", ParamType::kFloat, "1", "The scale >= 0 (None: an input array).");
            op.params.back().optional = true;  // MXNet's optional<float> with default 1
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
