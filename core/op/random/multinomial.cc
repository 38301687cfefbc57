// _sample_multinomial (alias sample_multinomial) and its backward op, as MXNet
// 1.x: `data` (..., k) holds k outcome probabilities per distribution (each
// row summing to 1); the output (..., `shape`) holds the drawn outcomes in
// `dtype`, and with get_prob a second output holds the log-probability of each
// draw (data's dtype). Its gradient reaches `data` only through that second
// output: d log p[s] / d p[s] = 1 / p[s], summed over the draws of outcome s
// (_backward_sample_multinomial), the REINFORCE estimator's gradient. Draws
// come from the device generator (set_needs_rng). GPU kernels:
// core/op/random/multinomial_shuffle.cu.
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/saturating_cast.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/random/multinomial_shuffle_gpu.h"
#include "core/op/random/sample_ops_cpu.h"
#include "core/op/random/sampler_rules.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

const char* kOp = "_sample_multinomial";

void CheckFloatInput(const std::string& op, const char* what, DType t) {
  WEFT_CHECK(t == DType::kUnknown || IsFloating(t), kDType)
      << op << ": input '" << what << "' must be a floating-point type, got " << DTypeName(t);
}

// data (..., k) -> (..., shape); (1,) for a single distribution without `shape`.
Shape SampleShape(const Params& p, const Shape& data) {
  WEFT_CHECK(data.ndim() >= 1, kShape) << kOp << ": input 'data' must have at least one dimension (the k outcome "
                                       << "probabilities), got shape " << data.ToString();
  const std::vector<int64_t>& t = p.GetTuple("shape");
  tensor::CheckNoNone(t, kOp, "shape");
  for (int64_t v : t)
    WEFT_CHECK(v >= 0, kInvalidArgument) << kOp << ": parameter 'shape' " << tensor::TupleString(t)
                                         << " has a negative dimension";
  std::vector<int64_t> dims(data.dims().begin(), data.dims().end() - 1);
  dims.insert(dims.end(), t.begin(), t.end());
  if (dims.empty()) dims.push_back(1);  // one distribution, one draw: shape (1,), as MXNet
  return Shape(dims);
}

void MultinomialCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << kOp << ": called without a random generator";
  std::mt19937_64& gen = ctx.rng->engine();
  const std::vector<double> prob = tensor_cpu::ToDoubles(in[0]);
  const int64_t k = in[0].shape[in[0].ndim() - 1];
  const int64_t rows = k > 0 ? in[0].Size() / k : 0;
  const int64_t m = rows > 0 ? out[0].Size() / rows : 0;
  std::vector<double> draws(static_cast<size_t>(out[0].Size())), logp(draws.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = prob.data() + r * k;
    for (int64_t j = 0; j < m; ++j) {
      const double u = static_cast<double>(gen() >> 11) * (1.0 / 9007199254740992.0);
      const int64_t s = sampler::CategoricalOutcome(row, k, u);
      draws[static_cast<size_t>(r * m + j)] = static_cast<double>(s);
      logp[static_cast<size_t>(r * m + j)] = std::log(row[s]);
    }
  }
  tensor_cpu::ConvertCopy(TensorView{draws.data(), DType::kFloat64, out[0].shape}, req[0], out[0]);
  if (out.size() > 1) tensor_cpu::ConvertCopy(TensorView{logp.data(), DType::kFloat64, out[1].shape}, req[1], out[1]);
}

// grad_data[r, s] = sum over the draws j of row r with outcome s of g[r, j] / data[r, s].
void MultinomialBackwardCPU(const OpContext&, const Params&, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const std::vector<double> g = tensor_cpu::ToDoubles(in[0]), prob = tensor_cpu::ToDoubles(in[1]),
                            s = tensor_cpu::ToDoubles(in[2]);
  const int64_t k = in[1].shape[in[1].ndim() - 1];
  const int64_t rows = k > 0 ? in[1].Size() / k : 0;
  const int64_t m = rows > 0 ? in[2].Size() / rows : 0;
  std::vector<double> grad(prob.size(), 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < m; ++j) {
      const int64_t c = SaturatingToInt64(s[static_cast<size_t>(r * m + j)]);  // samples may be any float
      if (c < 0 || c >= k) continue;
      grad[static_cast<size_t>(r * k + c)] += g[static_cast<size_t>(r * m + j)] / prob[static_cast<size_t>(r * k + c)];
    }
  tensor_cpu::ConvertCopy(TensorView{grad.data(), DType::kFloat64, out[0].shape}, req[0], out[0]);
}

void AddMultinomialParams(OpDef& op) {
  op.add_param("shape", ParamType::kShape, "()", "Shape to be sampled from each random distribution.")
      .add_param("get_prob", ParamType::kBool, "False",
                 "Whether to also return the log probability of sampled result. This is usually used for "
                 "differentiating through stochastic variables, e.g. in reinforcement learning.")
      .add_enum_param("dtype", {"float16", "float32", "float64", "int32", "uint8"}, "int32",
                      "DType of the output in case this can't be inferred.");
}

[[maybe_unused]] const bool kMultinomialRegistered = [] {
  WEFT_REGISTER_OP(fwd, kOp);
  fwd.describe("Concurrent sampling from multiple multinomial distributions.\n\n"
               "*data* is an *n* dimensional array whose last dimension has length *k*, where *k* is the number "
               "of possible outcomes of each multinomial distribution. This operator will draw *shape* samples "
               "from each distribution. If shape is empty one sample will be drawn from each distribution.\n\n"
               "If *get_prob* is true, a second array containing log likelihood of the drawn samples will also "
               "be returned. This is usually used for reinforcement learning where you can provide reward as "
               "head gradient for this array to estimate gradient.\n\n"
               "Note that the input distribution must be normalized, i.e. *data* must sum to 1 along its last "
               "axis.")
      .add_input("data");
  AddMultinomialParams(fwd);
  fwd.set_num_outputs([](const Params& p) { return p.GetBool("get_prob") ? 2 : 1; })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const Shape s = SampleShape(p, (*in)[0]);
        for (size_t i = 0; i < out->size(); ++i) AssignShape(out, i, s, std::string(kOp) + ": output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        CheckFloatInput(kOp, "data", (*in)[0]);
        AssignType(out, 0, ParseDType(p.GetString("dtype")), std::string(kOp) + ": output (dtype)");
        if (out->size() > 1) AssignType(out, 1, (*in)[0], std::string(kOp) + ": output 'prob'");
        return (*in)[0] != DType::kUnknown;
      })
      .set_compute_cpu(MultinomialCPU)
      .set_compute_gpu(WEFT_GPU(cuda::SampleMultinomialGpu))
      .set_needs_rng()
      .add_alias("sample_multinomial");
  fwd.list_output_names = [](const Params& p) {
    return p.GetBool("get_prob") ? std::vector<std::string>{"output", "prob"} : std::vector<std::string>{"output"};
  };
  fwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
    if (og.size() < 2) return ZeroGradients(n, og);
    GradBuilder b(n);
    return {b("_backward_sample_multinomial", {og[1], b.in(0), b.out(0)})};
  });

  WEFT_REGISTER_OP(bwd, "_backward_sample_multinomial");
  bwd.describe("Gradient of _sample_multinomial's log-probability output: from (out_grad of the log "
               "probabilities, data, the drawn samples), out_grad / data at each drawn outcome, summed.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("sample")
      .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known()) return false;
        AssignShape(out, 0, (*in)[1], "_backward_sample_multinomial: output");
        if ((*in)[0].known()) AssignShape(in, 2, (*in)[0], "_backward_sample_multinomial: input 'sample'");
        if ((*in)[2].known()) AssignShape(in, 0, (*in)[2], "_backward_sample_multinomial: input 'out_grad'");
        return (*in)[0].known();
      })
      .set_infer_type([](const Params&, std::vector<DType>* in, std::vector<DType>* out) {
        CheckFloatInput("_backward_sample_multinomial", "data", (*in)[1]);
        AssignType(in, 0, (*in)[1], "_backward_sample_multinomial: input 'out_grad'");
        AssignType(out, 0, (*in)[1], "_backward_sample_multinomial: output");
        return (*in)[1] != DType::kUnknown && (*in)[2] != DType::kUnknown;
      })
      .set_compute_cpu(MultinomialBackwardCPU)
      .set_compute_gpu(WEFT_GPU(cuda::BackwardSampleMultinomialGpu));
  return true;
}();

}  // namespace
}  // namespace weft
