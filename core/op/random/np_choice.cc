// _npi_choice: MXNet 1.9.1's np.random.choice(a, size, replace, p) under its
// registered name and parameters (a, size, ctx, replace, weighted): int64
// indices into range(n) of shape `size` (None or (): one index, a 0-d array).
// n is the integer `a`, or, when a is None, the length of the first input (the
// population array; np.random.choice then indexes it with the result, a
// separate `take` node in MXNet's graphs). With weighted, the next input holds
// the n weights p. No gradient (MXNet registers none).
//
// Note [Choice by sampling rule]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Each case's work is bounded by the output's and the weights' sizes, never
// by n alone (np.random.choice(2**40, 3, replace=False) is three draws; MXNet
// 1.9.1 allocates 2^40 keys and crashes):
//  * replace, no weights: each index uniform in [0, n) (rejection of the
//    generator's top remainder, so no bias however large n is).
//  * replace, weights: MXNet's rule, the first j whose running sum
//    p[0] + ... + p[j] reaches u, u uniform in (0, 1), else n - 1; found by
//    binary search over the prefix sums. As in MXNet p is not normalised (a
//    p summing over 1 favours the first entries; NumPy refuses it).
//  * no replace, no weights: Floyd's algorithm (k set draws, O(k) memory),
//    then the k indices shuffled, so every ordered sample is equally likely.
//  * no replace, weights: MXNet's rule, the k smallest keys -log(u) / p[j]
//    (exponential keys of rate p[j]; a zero weight is an infinite key, chosen
//    only once the positive ones are used up, ties by index).
// A weight that is negative or NaN is refused, as NumPy does.
#include "core/op/random/np_choice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/random/np_choice_gpu.h"
#include "core/op/random_state.h"
#include "core/opdef/default_infer.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace sampler {
namespace {

constexpr const char* kChoiceOp = "_npi_choice";

// Uniform in [0, n), n > 0, without modulo bias.
int64_t UniformIndex(std::mt19937_64& gen, uint64_t n) {
  const uint64_t limit = std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
  uint64_t r = gen();
  while (r >= limit) r = gen();
  return static_cast<int64_t>(r % n);
}

// Uniform in the open interval (0, 1): 53-bit draws shifted by half a step.
double OpenUniform(std::mt19937_64& gen) {
  return (static_cast<double>(gen() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

std::vector<double> Weights(const TensorView& w) {
  std::vector<double> v(static_cast<size_t>(w.Size()));
  tensor_cpu::ConvertCopy(w, OpReq::kWriteTo, TensorView{v.data(), DType::kFloat64, w.shape});
  for (size_t j = 0; j < v.size(); ++j)
    WEFT_CHECK(v[j] >= 0, kInvalidArgument) << kChoiceOp << ": p[" << j << "] = " << v[j]
                                            << " is not a probability (negative or NaN)";
  return v;
}

void WithWeights(std::mt19937_64& gen, const std::vector<double>& w, bool replace, int64_t* o, int64_t k) {
  const int64_t n = static_cast<int64_t>(w.size());
  if (replace) {
    std::vector<double> cum(w.size());
    double s = 0;
    for (size_t j = 0; j < w.size(); ++j) cum[j] = s += w[j];
    for (int64_t i = 0; i < k; ++i) {
      const double u = OpenUniform(gen);
      o[i] = std::min<int64_t>(std::lower_bound(cum.begin(), cum.end(), u) - cum.begin(), n - 1);
    }
    return;
  }
  std::vector<double> key(w.size());
  for (size_t j = 0; j < w.size(); ++j) {
    const double e = -std::log(OpenUniform(gen));
    key[j] = w[j] > 0 ? e / w[j] : std::numeric_limits<double>::infinity();
  }
  std::vector<int64_t> idx(w.size());
  for (int64_t j = 0; j < n; ++j) idx[j] = j;
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                    [&](int64_t a, int64_t b) { return key[a] < key[b] || (key[a] == key[b] && a < b); });
  std::copy(idx.begin(), idx.begin() + k, o);
}

void Unweighted(std::mt19937_64& gen, int64_t n, bool replace, int64_t* o, int64_t k) {
  if (replace) {
    for (int64_t i = 0; i < k; ++i) o[i] = UniformIndex(gen, static_cast<uint64_t>(n));
    return;
  }
  std::unordered_set<int64_t> taken;
  taken.reserve(static_cast<size_t>(k));
  for (int64_t j = n - k, i = 0; j < n; ++j, ++i) {
    const int64_t t = UniformIndex(gen, static_cast<uint64_t>(j) + 1);
    o[i] = taken.insert(t).second ? t : j;
    if (o[i] == j) taken.insert(j);
  }
  for (int64_t i = k - 1; i > 0; --i) std::swap(o[i], o[UniformIndex(gen, static_cast<uint64_t>(i) + 1)]);
}

// The population size: `a`, or the first input's length.
int64_t Population(const Params& p, const std::vector<TensorView>& in) {
  return p.IsNone("a") ? in[0].shape[0] : p.GetInt("a");
}

}  // namespace

void ChoiceCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << kChoiceOp << ": called without a random generator";
  const int64_t n = Population(p, in);
  const int64_t k = out[0].Size();
  const bool replace = p.GetBool("replace");
  WEFT_CHECK(n > 0 || k == 0, kInvalidArgument) << kChoiceOp << ": 'a' must be greater than 0 unless no samples are "
                                                << "taken, got a population of " << n;
  WEFT_CHECK(replace || k <= n, kInvalidArgument) << kChoiceOp << ": cannot take a larger sample (" << k
      << ") than the population (" << n << ") when replace=False";
  // The draws go straight into the (int64) output unless they are to be added to it.
  std::vector<int64_t> scratch(req[0] == OpReq::kWriteTo || req[0] == OpReq::kWriteInplace ? 0 : k);
  int64_t* draws = scratch.empty() ? out[0].ptr<int64_t>() : scratch.data();
  std::mt19937_64& gen = ctx.rng->engine();
  if (p.GetBool("weighted")) {
    WithWeights(gen, Weights(in.back()), replace, draws, k);
  } else if (k > 0) {
    Unweighted(gen, n, replace, draws, k);
  }
  if (req[0] == OpReq::kAddTo) tensor_cpu::ConvertCopy(TensorView{draws, DType::kInt64, out[0].shape}, req[0], out[0]);
}

}  // namespace sampler

namespace {

bool ChoiceShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  std::vector<int64_t> size;
  if (!p.IsNone("size")) {
    size = p.GetTuple("size");
    tensor::CheckNoNone(size, op, "size");
    for (int64_t d : size)
      WEFT_CHECK(d >= 0, kInvalidArgument) << op << ": parameter 'size' " << tensor::TupleString(size)
                                           << " has a negative dimension";
  }
  int64_t n = -1;
  if (p.IsNone("a")) {
    const Shape& a = (*in)[0];
    if (a.known()) {
      WEFT_CHECK(a.ndim() == 1, kShape) << op << ": input 'input1' (the population a) must be 1-D, got shape "
                                        << a.ToString();
      n = a[0];
    }
  } else {
    n = p.GetInt("a");
    WEFT_CHECK(n >= 0, kInvalidArgument) << op << ": parameter 'a' must be >= 0, got " << n;
  }
  if (p.GetBool("weighted")) {
    const Shape& w = in->back();
    if (w.known()) {
      WEFT_CHECK(w.ndim() == 1 && (n < 0 || w[0] == n), kShape)
          << op << ": input 'p' (the weights) must be 1-D of the population's length " << n << ", got shape "
          << w.ToString();
    }
  }
  AssignShape(out, 0, Shape(size), op + ": output (size)");
  for (const Shape& s : *in)
    if (!s.known()) return false;
  return true;
}

bool ChoiceType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  if (p.GetBool("weighted")) {
    const DType w = in->back();
    WEFT_CHECK(w == DType::kUnknown || w == DType::kFloat16 || w == DType::kFloat32 || w == DType::kFloat64, kDType)
        << p.op()->name << ": input 'p' (the weights) must be float16, float32 or float64, got " << DTypeName(w);
  }
  AssignType(out, 0, DType::kInt64, p.op()->name + ": output");
  for (DType t : *in)
    if (t == DType::kUnknown) return false;
  return true;
}

[[maybe_unused]] const bool kChoiceDeclared = [] {
  WEFT_REGISTER_OP(choice, "_npi_choice").set_compute_gpu(WEFT_GPU(cuda::NpChoiceGpu));
  choice.describe("Indices drawn from range(n) (np.random.choice): n is `a`, or the length of the population "
                  "input when a is None; with `weighted`, by the weights p (the last input); with or without "
                  "replacement. int64 of shape `size` (None: one index, a 0-d array).")
      .add_optional_param("a", ParamType::kInt, "The population size (None: the first input's length).")
      .add_optional_param("size", ParamType::kShape, "Output shape; None: one index (a 0-d array).")
      .add_param("ctx", ParamType::kString, "cpu", "Device of the output, e.g. 'cpu(0)'.")
      .add_param("replace", ParamType::kBool, "True", "Whether an index may be drawn more than once.")
      .add_param("weighted", ParamType::kBool, "False", "Whether the weights p are an input.")
      .set_infer_shape(ChoiceShape)
      .set_infer_type(ChoiceType)
      .set_compute_cpu(sampler::ChoiceCompute)
      .set_needs_rng();
  // MXNet's input names (the population, then the weights): "a" would clash with the parameter.
  // Both are listed in the schema, so a binding's wrapper takes either; the node's own count
  // follows a and weighted.
  choice.add_input("input1").add_input("input2");
  choice.list_input_names = [](const Params& p) {
    std::vector<std::string> names;
    if (p.IsNone("a")) names.push_back("input1");
    if (p.GetBool("weighted")) names.push_back(names.empty() ? "input1" : "input2");
    return names;
  };
  return true;
}();

}  // namespace
}  // namespace weft
