#include "core/executor/predictor.h"

#include <algorithm>
#include <unordered_set>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "core/base/error.h"
#include "core/engine/inline_push.h"
#include "core/graph/infer.h"
#include "core/ndarray/ndarray_io.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

std::string Join(const std::vector<std::string>& names, size_t max_shown = 12) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < max_shown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > max_shown) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out.empty() ? "none" : out;
}

std::string StripParamPrefix(const std::string& key) {
  if (key.compare(0, 4, "arg:") == 0 || key.compare(0, 4, "aux:") == 0) return key.substr(4);
  return key;
}

}  // namespace

std::shared_ptr<const ParamArrays> LoadParamArrays(const void* bytes, size_t size, Context ctx) {
  auto params = std::make_shared<ParamArrays>();
  if (size == 0) return params;
  WEFT_CHECK(bytes != nullptr, kInvalidArgument) << "parameter bytes are NULL but their size is " << size;
  std::vector<NDArray> arrays;
  std::vector<std::string> keys;
  LoadNDArrays(static_cast<const char*>(bytes), size, "<parameter bytes>", &arrays, &keys);
  WEFT_CHECK(arrays.empty() || keys.size() == arrays.size(), kIO)
      << "the parameter file holds " << arrays.size() << " unnamed arrays; a predictor needs named parameters";
  for (size_t i = 0; i < arrays.size(); ++i) {
    const std::string name = StripParamPrefix(keys[i]);
    WEFT_CHECK(!params->count(name), kIO) << "the parameter file names '" << name << "' twice";
    (*params)[name] = arrays[i].ctx() == ctx ? arrays[i] : arrays[i].CopyTo(ctx);
  }
  return params;
}

Symbol SelectOutputs(const Symbol& sym, const std::vector<std::string>& names) {
  const Symbol internals = sym.GetInternals();
  const std::vector<std::string> entry_names = internals.ListOutputs();
  Symbol out;
  for (const std::string& want : names) {
    auto it = std::find(entry_names.begin(), entry_names.end(), want);
    if (it != entry_names.end()) {
      out.outputs.push_back(internals.outputs[static_cast<size_t>(it - entry_names.begin())]);
      continue;
    }
    // A node name: its first output (MXNet's predictor accepted both spellings).
    auto by_node = std::find_if(internals.outputs.begin(), internals.outputs.end(),
                                [&](const NodeEntry& e) { return e.node->name == want && e.index == 0; });
    WEFT_CHECK(by_node != internals.outputs.end(), kNotFound)
        << "unknown output '" << want << "'; the symbol's internal outputs are: " << Join(entry_names, 40);
    out.outputs.push_back(*by_node);
  }
  return out;
}

namespace {

// True when every consumer of variable `nid` reads it as its "label" input (a
// loss output such as SoftmaxOutput): such a variable may be absent from a
// checkpoint. Any other missing variable (a weight, a bias) stays an error
// rather than silently becoming zeros.
bool OnlyALabel(const IndexedGraph& g, uint32_t nid) {
  bool used = false;
  for (size_t i = 0; i < g.num_nodes(); ++i) {
    const Node* n = g[i].source;
    if (n->is_variable()) continue;
    const std::vector<std::string> names = n->op->InputNames(n->params);
    for (size_t k = 0; k < g[i].inputs.size(); ++k) {
      if (g[i].inputs[k].node_id != nid) continue;
      if (k >= names.size() || names[k] != "label") return false;
      used = true;
    }
  }
  return used;
}

}  // namespace

Predictor::Predictor(const Symbol& sym, std::shared_ptr<const ParamArrays> params, Context ctx,
                     const NamedShapes& inputs)
    : symbol_(sym), params_(std::move(params)), ctx_(ctx) {
  const std::vector<std::string> arg_names = sym.ListArguments();
  const std::vector<std::string> aux_names = sym.ListAuxiliaryStates();
  const std::vector<std::string> all_vars = sym.ListInputs();
  std::unordered_map<std::string, Shape> input_shapes;
  for (const auto& in : inputs) {
    WEFT_CHECK(std::find(all_vars.begin(), all_vars.end(), in.first) != all_vars.end(), kNotFound)
        << "unknown input '" << in.first << "'; the graph's variables are: " << Join(all_vars, 40);
    WEFT_CHECK(!params_->count(in.first), kInvalidArgument)
        << "input '" << in.first << "' is a parameter in the parameter file, not a data input";
    WEFT_CHECK(!input_shapes.count(in.first), kInvalidArgument) << "input '" << in.first << "' given twice";
    for (int64_t d : in.second.dims())
      WEFT_CHECK(d >= 0, kShape) << "input '" << in.first << "' has a negative dimension in "
                                 << in.second.ToString();
    input_shapes[in.first] = in.second;
    input_names_.push_back(in.first);
  }
  // Shapes from the data inputs alone: a parameter that disagrees is named
  // with both shapes (rather than the node where inference first trips).
  IndexedGraph fg(sym.outputs);
  const ShapeInference si = InferShapes(fg, input_shapes);
  std::unordered_map<std::string, DType> param_types;
  std::unordered_map<std::string, Shape> unbound;  // neither an input nor in the file
  for (uint32_t nid : fg.arg_nodes()) {
    const std::string& name = fg[nid].source->name;
    auto p = params_->find(name);
    const Shape& inferred = si.entry[fg.entry_id(nid, 0)];
    if (p == params_->end()) {
      // As MXNet's predict API: a variable the file lacks whose shape follows
      // from the inputs (a loss's label, e.g. softmax_label of a checkpoint
      // saved with its SoftmaxOutput) is bound to zeros; inference ignores it.
      WEFT_CHECK(input_shapes.count(name) || (inferred.known() && OnlyALabel(fg, nid)), kNotFound)
          << "parameter '" << name << "' is missing from the parameter file (and is not a data input)";
      if (!input_shapes.count(name)) unbound[name] = inferred;
      continue;
    }
    WEFT_CHECK(!inferred.known() || inferred == p->second.shape(), kShape)
        << "parameter '" << name << "' has shape " << p->second.shape().ToString()
        << " in the parameter file but the graph needs " << inferred.ToString();
    param_types[name] = p->second.dtype();
  }
  // Input dtypes: the variable's __dtype__, else what the parameters imply,
  // else float32.
  const TypeInference ti = InferTypes(fg, param_types, true);
  std::unordered_map<std::string, DType> input_types;
  for (uint32_t nid : fg.arg_nodes()) input_types[fg[nid].source->name] = ti.entry[fg.entry_id(nid, 0)];
  for (const std::string& name : input_names_) {
    DType t = input_types.count(name) ? input_types[name] : DType::kFloat32;
    if (t == DType::kUnknown) t = DType::kFloat32;
    NDArray a(input_shapes[name], ctx_, t);
    // Zeros, so a forward before set_input is deterministic.
    std::vector<char> zeros(a.Bytes(), 0);
    a.SyncCopyFromHost(zeros.data(), zeros.size());
    inputs_.push_back(a);
  }

  for (const auto& u : unbound) {
    DType t = input_types.count(u.first) ? input_types[u.first] : DType::kFloat32;
    if (t == DType::kUnknown) t = DType::kFloat32;
    NDArray a(u.second, ctx_, t);
    std::vector<char> zeros(a.Bytes(), 0);
    a.SyncCopyFromHost(zeros.data(), zeros.size());
    unbound_.emplace(u.first, a);
  }
  auto array_of = [&](const std::string& name) {
    auto p = params_->find(name);
    if (p != params_->end()) return p->second;
    auto u = unbound_.find(name);
    return u != unbound_.end() ? u->second : inputs_[InputIndex(name)];
  };
  std::vector<NDArray> args, aux;
  for (const std::string& n : arg_names) args.push_back(array_of(n));
  for (const std::string& n : aux_names) aux.push_back(array_of(n));
  exe_ = std::make_unique<GraphExecutor>(sym, ctx_, std::move(args), std::vector<NDArray>{},
                                         std::vector<GradReq>{}, std::move(aux));
  output_names_ = sym.ListOutputs();
}

std::unique_ptr<Predictor> Predictor::Reshape(const NamedShapes& changes) const {
  NamedShapes shapes;
  for (size_t i = 0; i < inputs_.size(); ++i) shapes.emplace_back(input_names_[i], inputs_[i].shape());
  for (const auto& c : changes) {
    const size_t i = InputIndex(c.first);
    shapes[i].second = c.second;
  }
  return std::make_unique<Predictor>(symbol_, params_, ctx_, shapes);
}

size_t Predictor::InputIndex(const std::string& name) const {
  auto it = std::find(input_names_.begin(), input_names_.end(), name);
  WEFT_CHECK(it != input_names_.end(), kNotFound)
      << "unknown input '" << name << "'; the predictor's inputs are: " << Join(input_names_);
  return static_cast<size_t>(it - input_names_.begin());
}

void Predictor::SetInput(const std::string& name, const void* data, size_t nbytes) {
  const NDArray& a = inputs_[InputIndex(name)];
  WEFT_CHECK(nbytes == a.Bytes(), kInvalidArgument)
      << "input '" << name << "' " << a.shape().ToString() << " " << DTypeName(a.dtype()) << " takes " << a.Bytes()
      << " bytes, got " << nbytes;
  WEFT_CHECK(data != nullptr || nbytes == 0, kInvalidArgument) << "input '" << name << "': data is NULL";
  a.SyncCopyFromHost(data, nbytes);
}

void Predictor::Forward() {
  exe_->Forward(false);
  for (const NDArray& o : exe_->outputs()) o.WaitToRead();
}

// Note [Forward on the caller]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Forward hands every op to the engine's CPU worker and waits: per request
// the worker wakes, runs the ops, signals the caller, spins 50 us and sleeps.
// A server answering n requests at once from n threads queues them all on
// that one worker, and pays the two threads' hand-offs on every request. In
// weft-serve (digits CNN, 2 loaded CPUs, v2 JSON) the worker thread took 43%
// of the server's CPU, three quarters of it context switches, its queue's
// spin, malloc and the op's dispatch rather than the kernels; running every
// engine op on the caller (WEFT_ENGINE=naive, which also serialises them on
// one lock) doubled the requests/s at concurrency 4. ForwardOnCaller pushes
// the same ops inside an InlinePushScope (Note [Inline pushes]): each runs on
// the calling thread when it is ready, which for a predictor's chain is at
// its push, so n callers compute on n threads with no hand-off; ordering and
// errors are the engine's as ever (a failed op's error is stored on its
// outputs and rethrown by the wait).
// Each caller's kernels use the caller's own OpenMP team, so n callers open
// n teams: max_threads caps this thread's team for the call (a server passes
// about KernelThreads() / n), restored afterwards to at most KernelThreads()
// (what the kernels set on a thread anyway, Note [oneDNN threads are fixed at
// creation]). The cap reaches ParallelFor and the oneDNN primitives made
// during the call; primitives made before keep their team.
void Predictor::ForwardOnCaller(int max_threads) {
  const int team = KernelThreads();
  const int cap = max_threads > 0 ? std::min(max_threads, team) : team;
#if defined(_OPENMP)
  const int before = omp_get_max_threads();
  omp_set_num_threads(cap);
  struct Restore {
    int to;
    ~Restore() { omp_set_num_threads(to); }
  } restore{std::min(before, team)};
#endif
  InlinePushScope on_caller;
  Forward();
}

const NDArray& Predictor::output(size_t i) const {
  WEFT_CHECK(i < exe_->outputs().size(), kInvalidArgument)
      << "output index " << i << " out of range: the predictor has " << exe_->outputs().size() << " outputs";
  return exe_->outputs()[i];
}

void Predictor::GetOutput(size_t i, void* data, size_t nbytes) const {
  const NDArray& a = output(i);
  WEFT_CHECK(nbytes == a.Bytes(), kInvalidArgument)
      << "output '" << output_names_[i] << "' " << a.shape().ToString() << " " << DTypeName(a.dtype())
      << " takes " << a.Bytes() << " bytes, got " << nbytes;
  WEFT_CHECK(data != nullptr || nbytes == 0, kInvalidArgument) << "output '" << output_names_[i] << "': data is NULL";
  a.SyncCopyToHost(data, nbytes);
}

}  // namespace weft
