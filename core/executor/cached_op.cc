#include "core/executor/cached_op.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <utility>
#include <unordered_map>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/ndarray/imperative.h"
#include "core/opdef/dynamic_shape.h"

namespace weft {

CachedOp::CachedOp(const Symbol& sym, const std::map<std::string, std::string>& flags)
    : sym_(sym), input_names_(sym.ListInputs()), arg_names_(sym.ListArguments()),
      aux_names_(sym.ListAuxiliaryStates()) {
  // MXNet 1.9.1's CachedOpConfig keys. The bulk sizes and inline_limit tune
  // MXNet's engine bundling and inlining; Weft's executor schedules every
  // node itself, so they are checked and change no result.
  for (const auto& kv : flags) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    if (k == "static_alloc" || k == "static_shape" || k == "is_dynamic" || k == "inline_recording") {
      WEFT_CHECK(v == "0" || v == "1" || v == "True" || v == "False" || v == "true" || v == "false", kInvalidArgument)
          << "CachedOp: flag '" << k << "' must be a boolean, got '" << v << "'";
    } else if (k == "inline_limit" || k == "forward_bulk_size" || k == "backward_bulk_size") {
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      WEFT_CHECK(!v.empty() && *end == '\0' && n >= 0, kInvalidArgument)
          << "CachedOp: flag '" << k << "' must be an integer >= 0, got '" << v << "'";
    } else {
      WEFT_CHECK(k == "data_indices" || k == "param_indices", kInvalidArgument)
          << "CachedOp: unknown flag '" << k
          << "' (known: static_alloc, static_shape, is_dynamic, inline_limit, forward_bulk_size, "
             "backward_bulk_size, data_indices, param_indices, inline_recording)";
    }
  }
  auto it = flags.find("inline_recording");
  inline_recording_ = it != flags.end() && (it->second == "1" || it->second == "True" || it->second == "true");
  // Note [Data-dependent output shapes]: no fixed plan; the graph runs op by op.
  IndexedGraph g(sym_.outputs);
  for (size_t nid = 0; nid < g.num_nodes() && !dynamic_shapes_; ++nid)
    dynamic_shapes_ = !g[nid].source->is_variable() && FindDynamicShapeRule(*g[nid].source->op) != nullptr;
}

std::vector<NDArray> CachedOp::Invoke(const std::vector<NDArray>& inputs) {
  WEFT_CHECK(inputs.size() == input_names_.size(), kInvalidArgument)
      << "CachedOp: the graph has " << input_names_.size() << " inputs, got " << inputs.size();
  for (size_t i = 0; i < inputs.size(); ++i)
    WEFT_CHECK(!inputs[i].is_none(), kInvalidArgument) << "CachedOp: input '" << input_names_[i] << "' is empty";
  const bool is_train = Autograd::IsTraining();
  if (dynamic_shapes_) return RunInline(sym_, input_names_, inputs, is_train);  // recorded op by op when recording
  if (Autograd::IsRecording()) {
    bool on_tape = false;
    for (const NDArray& a : inputs) on_tape = on_tape || a.ag_node() != nullptr;
    if (on_tape) return inline_recording_ ? RunInline(sym_, input_names_, inputs, is_train)
                                          : InvokeTraining(inputs, is_train);
  }

  std::unordered_map<std::string, NDArray> by_name;
  for (size_t i = 0; i < inputs.size(); ++i) by_name[input_names_[i]] = inputs[i].Detach();
  std::vector<NDArray> args, aux;
  for (const std::string& n : arg_names_) args.push_back(by_name.at(n));
  for (const std::string& n : aux_names_) aux.push_back(by_name.at(n));
  std::ostringstream key;
  key << (is_train ? "train" : "predict");
  for (const NDArray& a : inputs) key << "|" << a.shape().ToString() << DTypeName(a.dtype()) << a.ctx().ToString();
  auto it = executors_.find(key.str());
  if (it == executors_.end()) {
    auto exe = std::make_unique<GraphExecutor>(sym_, inputs.empty() ? Context::CPU(0) : inputs[0].ctx(), args,
                                               std::vector<NDArray>{}, std::vector<GradReq>{}, aux);
    it = executors_.emplace(key.str(), std::move(exe)).first;
  }
  it->second->Rebind(args, aux, /*fresh_outputs=*/true);
  it->second->Forward(is_train);
  return it->second->outputs();
}

struct CachedOp::TrainSlot {
  std::unique_ptr<GraphExecutor> exe;
  bool busy = false;        // a recorded forward waits for its backward
  uint64_t generation = 0;  // forwards run so far
};

namespace {
// Frees a training executor for the next call when its tape node dies.
// Only the lease of the slot's latest forward frees it: an older result
// dying later must not free a slot a newer call holds.
struct SlotLease {
  std::shared_ptr<void> slot;
  bool* busy = nullptr;
  const uint64_t* slot_generation = nullptr;
  uint64_t generation = 0;
  SlotLease() = default;
  SlotLease(const SlotLease&) = delete;
  SlotLease& operator=(const SlotLease&) = delete;
  ~SlotLease() {
    if (busy && *slot_generation == generation) *busy = false;
  }
};

// The replay a backward with create_graph runs instead of the executor's
// backward (Note [Replaying an opaque node] in autograd.cc). Aux states (a
// BatchNorm's moving statistics) are replaced by copies, so the second run
// does not update them again. A random op would draw differently the second
// time and the gradient would not belong to the recorded forward: refused.
Autograd::OpaqueReplay MakeReplay(const Symbol& sym, const std::vector<std::string>& input_names,
                                  const std::vector<std::string>& aux_names, bool is_train) {
  return [sym, input_names, aux_names, is_train](const std::vector<NDArray>& inputs) {
    IndexedGraph g(sym.outputs);
    for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
      const Node* n = g[nid].source;
      WEFT_CHECK(n->is_variable() || !n->op->NeedsRNG(n->params), kInvalidArgument)
          << "backward with create_graph through a hybridized block: its graph has the random operator "
          << n->op->name << " (node '" << n->name << "'), which would not draw the same values again; "
          << "hybridize with inline_recording=True to differentiate it twice";
    }
    std::vector<NDArray> in = inputs;
    for (size_t i = 0; i < in.size(); ++i) {
      if (std::find(aux_names.begin(), aux_names.end(), input_names[i]) == aux_names.end()) continue;
      NDArray c(in[i].shape(), in[i].ctx(), in[i].dtype());
      NDArray::Copy(in[i].Detach(), c);
      in[i] = c;
    }
    return CachedOp::RunInline(sym, input_names, in, is_train);
  };
}
}  // namespace

std::vector<NDArray> CachedOp::InvokeTraining(const std::vector<NDArray>& inputs, bool is_train) {
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < inputs.size(); ++i) index[input_names_[i]] = i;
  std::vector<NDArray> args, aux;
  std::vector<GradReq> reqs;
  std::ostringstream key;
  key << (is_train ? "train" : "predict");
  for (const NDArray& a : inputs)
    key << "|" << a.shape().ToString() << DTypeName(a.dtype()) << a.ctx().ToString() << (a.ag_node() ? "g" : "");
  for (const std::string& n : arg_names_) {
    const NDArray& a = inputs[index.at(n)];
    args.push_back(a.Detach());
    reqs.push_back(a.ag_node() ? GradReq::kWrite : GradReq::kNull);
  }
  for (const std::string& n : aux_names_) aux.push_back(inputs[index.at(n)].Detach());

  // Gradients go where autograd will store them when that is a parameter's
  // grad array (Note [Gradients written in place] in autograd.cc); the others
  // (and any the backward turns down) get arrays of their own.
  std::vector<NDArray> grads(args.size()), direct(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (reqs[i] == GradReq::kNull) continue;
    direct[i] = Autograd::WriteTarget(inputs[index.at(arg_names_[i])]);
    grads[i] = direct[i].is_none() ? NDArray(args[i].shape(), args[i].ctx(), args[i].dtype()) : direct[i];
  }
  std::shared_ptr<TrainSlot> slot;
  for (const auto& s : train_slots_[key.str()])
    if (!s->busy) slot = s;
  if (!slot) {
    slot = std::make_shared<TrainSlot>();
    slot->exe = std::make_unique<GraphExecutor>(sym_, inputs.empty() ? Context::CPU(0) : inputs[0].ctx(), args, grads,
                                                reqs, aux, InGraphUpdate{}, /*pin_forward_results=*/false);
    train_slots_[key.str()].push_back(slot);
  } else {
    slot->exe->RebindGrads(grads);
  }
  slot->busy = true;
  const uint64_t generation = ++slot->generation;
  GraphExecutor* exe = slot->exe.get();
  TrainSlot* raw = slot.get();
  exe->Rebind(args, aux, /*fresh_outputs=*/true);
  exe->Forward(is_train);
  std::vector<NDArray> outputs = exe->outputs();

  // Gradients come back per input (ListInputs order); aux states get none.
  std::vector<int> arg_of_input(inputs.size(), -1);
  std::vector<int> input_of_arg(args.size(), -1);
  for (size_t a = 0; a < arg_names_.size(); ++a) input_of_arg[a] = static_cast<int>(index.at(arg_names_[a]));
  for (size_t a = 0; a < arg_names_.size(); ++a) arg_of_input[index.at(arg_names_[a])] = static_cast<int>(a);
  auto used = std::make_shared<bool>(false);  // one backward per forward: its activations are not kept
  auto lease = std::make_shared<SlotLease>();  // built in place: a temporary's destructor would free the slot
  lease->slot = slot;
  lease->busy = &slot->busy;
  lease->slot_generation = &slot->generation;
  lease->generation = generation;
  Autograd::RecordOpaque(
      "cached_op", inputs, &outputs,
      [exe, raw, generation, arg_of_input, input_of_arg, direct, lease, used](
          const std::vector<NDArray>& out_grads, const std::vector<NDArray>& targets) {
        WEFT_CHECK(raw->generation == generation, kInvalidArgument)
            << "backward: this hybridized block's executor has run another forward since this result was "
            << "computed (backward twice with retain_graph across forwards); call backward before the next forward";
        WEFT_CHECK(!*used, kInvalidArgument)
            << "backward: a hybridized block's graph is differentiated once per forward (its forward results are "
            << "freed by the first backward); run the block again, or hybridize with inline_recording=True";
        *used = true;
        // A gradient bound to a parameter's array that autograd does not want
        // written there (several sources, or autograd.grad) moves to a fresh array.
        std::vector<NDArray> bound = exe->grad_arrays();
        bool moved = false;
        for (size_t a = 0; a < bound.size(); ++a) {
          if (direct[a].is_none()) continue;
          const NDArray& t = targets[static_cast<size_t>(input_of_arg[a])];
          if (!t.is_none() && t.SharesChunk(direct[a]) && t.byte_offset() == direct[a].byte_offset()) continue;
          bound[a] = NDArray(direct[a].shape(), direct[a].ctx(), direct[a].dtype());
          moved = true;
        }
        if (moved) exe->RebindGrads(bound);
        exe->Backward(out_grads);
        raw->busy = false;  // the next forward may reuse it; `generation` guards a late second backward
        std::vector<NDArray> grads(arg_of_input.size());
        for (size_t i = 0; i < grads.size(); ++i)
          if (arg_of_input[i] >= 0) grads[i] = exe->grad_arrays()[static_cast<size_t>(arg_of_input[i])];
        return grads;
      },
      lease, MakeReplay(sym_, input_names_, aux_names_, is_train));
  return outputs;
}

std::vector<NDArray> CachedOp::RunInline(const Symbol& sym, const std::vector<std::string>& input_names,
                                         const std::vector<NDArray>& inputs, bool is_train) {
  std::unordered_map<std::string, NDArray> by_name;
  for (size_t i = 0; i < inputs.size(); ++i) by_name[input_names[i]] = inputs[i];
  IndexedGraph g(sym.outputs);
  std::vector<std::vector<NDArray>> values(g.num_nodes());
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    const Node* n = g[nid].source;
    if (n->is_variable()) {
      values[nid] = {by_name.at(n->name)};
      continue;
    }
    std::vector<NDArray> in;
    for (const auto& e : g[nid].inputs) {
      const auto& v = values[e.node_id];
      WEFT_CHECK(e.index < v.size(), kInternal)
          << "CachedOp: node '" << n->name << "' reads hidden output " << e.index << " of '"
          << g[e.node_id].source->name << "'";
      in.push_back(v[e.index]);
    }
    std::vector<NDArray> out;
    try {
      InvokeParsed(*n->op, n->params, std::move(in), &out, is_train);
    } catch (const Error& e) {
      throw Error(e.status(), "node '" + n->name + "': " + e.what());
    }
    values[nid] = std::move(out);
  }
  std::vector<NDArray> result;
  for (const auto& o : g.outputs()) result.push_back(values[o.node_id].at(o.index));
  return result;
}

}  // namespace weft
