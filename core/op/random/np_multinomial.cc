// _npi_multinomial: MXNet 1.9.1's np.random.multinomial(n, pvals, size) with
// pvals given as numbers (Note [Multinomial by categorical draws],
// np_multinomial_rules.h): int64 counts of shape size + (len(pvals),). MXNet
// also takes pvals as an array (then pvals is None and the node has the array
// as an input); that form is refused when the graph is read. No gradient.
#include <random>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/op_util.h"
#include "core/op/random/np_multinomial_gpu.h"
#include "core/op/random/np_multinomial_rules.h"
#include "core/op/random_state.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace sampler {

MultinomialRule MultinomialRuleOf(const Params& p, Shape* out) {
  const char* op = "_npi_multinomial";
  MultinomialRule r;
  r.n = p.GetInt("n");
  WEFT_CHECK(r.n >= 0, kInvalidArgument) << op << ": parameter 'n' must be >= 0, got " << r.n;
  WEFT_CHECK(!p.IsNone("pvals"), kInvalidArgument)
      << op << ": parameter 'pvals' = None (read from an input array) is not supported; only numbers";
  const std::vector<double>& pv = p.GetFloatTuple("pvals");
  WEFT_CHECK(!pv.empty() && pv.size() <= static_cast<size_t>(MultinomialRule::kMaxCategories), kInvalidArgument)
      << op << ": parameter 'pvals' must hold 1 to " << MultinomialRule::kMaxCategories << " probabilities, got "
      << pv.size();
  r.k = static_cast<int>(pv.size());
  double sum = 0;
  for (size_t j = 0; j < pv.size(); ++j) {
    WEFT_CHECK(pv[j] >= 0 && pv[j] <= 1, kInvalidArgument)
        << op << ": parameter 'pvals' entry " << j << " = " << pv[j] << " is not a probability";
    sum += pv[j];
    r.cum[j] = sum;
  }
  WEFT_CHECK(sum - pv.back() <= 1.0 + 1e-12, kInvalidArgument)
      << op << ": parameter 'pvals': sum(pvals[:-1]) = " << sum - pv.back() << " > 1";
  std::vector<int64_t> dims;
  if (!p.IsNone("size")) {
    dims = p.GetTuple("size");
    tensor::CheckNoNone(dims, op, "size");
    for (int64_t d : dims)
      WEFT_CHECK(d >= 0, kInvalidArgument) << op << ": parameter 'size' " << tensor::TupleString(dims)
                                           << " has a negative dimension";
  }
  // Note [Multinomial by categorical draws]: one uniform per draw, so the work is bounded.
  int64_t draws = r.n;
  for (int64_t d : dims)
    WEFT_CHECK(!__builtin_mul_overflow(draws, d, &draws) && draws <= MultinomialRule::kMaxDraws, kInvalidArgument)
        << op << ": n * prod(size) = " << r.n << " * " << tensor::TupleString(dims) << " draws is more than "
        << MultinomialRule::kMaxDraws << " (each draw is made one by one)";
  WEFT_CHECK(draws <= MultinomialRule::kMaxDraws, kInvalidArgument)
      << op << ": parameter 'n' = " << r.n << " draws is more than " << MultinomialRule::kMaxDraws
      << " (each draw is made one by one)";
  dims.push_back(r.k);
  *out = Shape(dims);
  return r;
}

}  // namespace sampler

namespace {

// The CPU source of Note [One sampler rule]: 53-bit uniforms from the device generator.
struct MultinomialSource {
  std::mt19937_64* gen;
  double Next() { return static_cast<double>((*gen)() >> 11) * (1.0 / 9007199254740992.0); }
};

void NpMultinomialCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>&,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << "_npi_multinomial: called without a random generator";
  Shape shape;
  const sampler::MultinomialRule r = sampler::MultinomialRuleOf(p, &shape);
  if (req[0] == OpReq::kNull) return;
  MultinomialSource src{&ctx.rng->engine()};
  int64_t* o = out[0].ptr<int64_t>();
  const int64_t experiments = out[0].Size() / r.k;
  for (int64_t e = 0; e < experiments; ++e) sampler::MultinomialRow(r, e, src, req[0], o);
}

WEFT_REGISTER_OP("_npi_multinomial").set_compute_gpu(WEFT_GPU(cuda::NpMultinomialGpu))
    .describe("NumPy's random.multinomial (MXNet's `_npi_multinomial`): int64 counts of n draws over "
              "len(pvals) categories per experiment, shape size + (len(pvals),); the last category takes "
              "1 - sum(pvals[:-1]).")
    .add_required_param("n", ParamType::kInt, "Draws per experiment (>= 0).")
    .add_optional_param("pvals", ParamType::kFloatTuple,
                        "The categories' probabilities (numbers; None: an input array, not supported).")
    .add_optional_param("size", ParamType::kShape, "The experiments' shape; None: one experiment.")
    .add_param("ctx", ParamType::kString, "",
               "Device of the output, e.g. 'gpu(0)'; empty: cpu(0). Not a parameter of MXNet's operator (which "
               "places its output on the default context): a no-input operator is placed by it here.")
    .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
      Shape shape;
      sampler::MultinomialRuleOf(p, &shape);
      AssignShape(out, 0, shape, "_npi_multinomial: output");
      return true;
    })
    .set_infer_type([](const Params&, std::vector<DType>*, std::vector<DType>* out) {
      AssignType(out, 0, DType::kInt64, "_npi_multinomial: output");
      return true;
    })
    .set_compute_cpu(NpMultinomialCPU)
    .set_needs_rng();

}  // namespace
}  // namespace weft
