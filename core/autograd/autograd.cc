#include "core/autograd/autograd.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/base/error.h"
#include "core/graph/graph.h"
#include "core/ndarray/imperative.h"

namespace weft {
namespace {

thread_local bool t_recording = false;
thread_local bool t_training = false;

// What a tape node keeps (Node::info). A variable keeps its value (and, when
// marked by the user, its gradient array and grad_req); an op keeps every
// output it wrote, which its gradient rule may read.
struct TapeInfo {
  std::vector<NDArray> values;  // variable: {value}; op: all outputs
  NDArray grad;                 // marked variables only
  GradReq req = GradReq::kNull;
  bool marked = false;
  bool freed = false;           // released by a backward without retain_graph
  bool fresh_grad = false;      // Note [Fresh gradients]
};

// Note [Custom function nodes]
// An autograd.Function is recorded as a node of a private operator (not in
// the registry: it cannot appear in a symbol or run in an executor). Its
// gradient rule emits a node of a second private operator that Backward runs
// by calling the front end, with the function's id as the only parameter.
struct CustomCallbacks {
  Autograd::CustomBackward backward;
  Autograd::CustomRelease release;
};
CustomCallbacks& Callbacks() {
  static CustomCallbacks c;
  return c;
}

// Owns a custom function's id: the front end forgets the function when the
// last node referring to it dies.
struct CustomId {
  int64_t id;
  explicit CustomId(int64_t i) : id(i) {}
  ~CustomId() {
    if (Callbacks().release) Callbacks().release(id);
  }
};

struct CustomInfo : TapeInfo {
  std::shared_ptr<CustomId> id;       // a front-end Function, or
  Autograd::OpaqueBackward backward;  // a core closure (RecordOpaque)
  Autograd::OpaqueReplay replay;      // may be empty (Note [Replaying an opaque node])
  std::shared_ptr<void> keep_alive;
  std::vector<bool> needs_grad;       // per input; empty: all
};

// Both private operators take their output count as a parameter.
OpDef* MakeCustomOp(const char* name) {
  auto* d = new OpDef();
  d->name = name;
  d->add_param("num_outputs", ParamType::kInt, "1", "outputs of the node");
  d->set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_outputs")); });
  return d;
}

Params CountParams(const OpDef& op, size_t n) { return Params::Parse(op, {{"num_outputs", std::to_string(n)}}); }

const OpDef& CustomBackwardOp() {
  static const OpDef* op = MakeCustomOp("_autograd_function_backward");
  return *op;
}

const OpDef& CustomForwardOp() {
  static const OpDef* op = [] {
    OpDef* d = MakeCustomOp("_autograd_function");
    d->gradient = [](const NodePtr& n, const std::vector<NodeEntry>& out_grads) {
      auto b = std::make_shared<Node>();
      b->op = &CustomBackwardOp();
      b->op_name = b->op->name;
      b->name = n->name + "_backward";
      b->params = CountParams(CustomBackwardOp(), n->inputs.size());
      b->inputs = out_grads;
      b->control_deps = {n};  // Backward finds the forward node (and its id) here
      const auto* info = static_cast<const CustomInfo*>(n->info.get());
      std::vector<NodeEntry> grads;
      for (uint32_t i = 0; i < n->inputs.size(); ++i) {
        const bool needed = info == nullptr || info->needs_grad.empty() || info->needs_grad[i];
        grads.push_back(needed ? NodeEntry{b, i, 0} : NodeEntry{});
      }
      return grads;
    };
    return d;
  }();
  return *op;
}

TapeInfo* Info(const Node& n) { return static_cast<TapeInfo*>(n.info.get()); }

NodeEntry EntryOf(const NDArray& a) { return NodeEntry{a.ag_node(), a.ag_index(), 0}; }

// An input that is not on the tape enters as a constant variable node.
NodeEntry ConstantEntry(const NDArray& a) {
  auto n = Node::Variable("");
  auto info = std::make_shared<TapeInfo>();
  info->values = {a.Detach()};
  n->info = info;
  return NodeEntry{n, 0, 0};
}

}  // namespace

bool Autograd::IsRecording() { return t_recording; }

namespace {
// Note [Recording hook] (core/ndarray/imperative.h): the imperative invoke
// path reaches the tape through this, so the NDArray layer does not depend on
// autograd.
[[maybe_unused]] const bool kRecordHookInstalled = [] {
  SetRecordHook(&Autograd::IsRecording, &Autograd::RecordOp);
  return true;
}();
}  // namespace
bool Autograd::IsTraining() { return t_training; }
bool Autograd::SetRecording(bool on) {
  std::swap(t_recording, on);
  return on;
}
bool Autograd::SetTraining(bool on) {
  std::swap(t_training, on);
  return on;
}

void Autograd::MarkVariable(NDArray* var, const NDArray& grad, GradReq req) {
  WEFT_CHECK(var != nullptr && !var->is_none(), kInvalidArgument) << "mark_variables: the variable is empty";
  WEFT_CHECK(req == GradReq::kNull || !grad.is_none(), kInvalidArgument) << "mark_variables: no gradient array";
  if (!grad.is_none()) {
    WEFT_CHECK(grad.shape() == var->shape(), kShape)
        << "mark_variables: the gradient array has shape " << grad.shape().ToString() << ", the variable "
        << var->shape().ToString();
    WEFT_CHECK(grad.dtype() == var->dtype(), kDType)
        << "mark_variables: the gradient array is " << DTypeName(grad.dtype()) << ", the variable "
        << DTypeName(var->dtype());
  }
  auto n = Node::Variable("");
  auto info = std::make_shared<TapeInfo>();
  info->values = {var->Detach()};
  info->grad = grad;
  info->req = req;
  info->marked = true;
  n->info = info;
  var->set_ag_entry(std::move(n), 0);
}

void Autograd::RecordOp(const OpDef& op, const Params& params, const std::vector<NDArray>& inputs,
                        std::vector<NDArray>* outputs) {
  bool on_tape = false;
  for (const NDArray& a : inputs) on_tape = on_tape || a.ag_node() != nullptr;
  if (!on_tape) return;
  auto n = std::make_shared<Node>();
  n->op = &op;
  n->op_name = op.name;
  n->name = op.name;
  for (const auto& kv : params.raw()) n->attrs[kv.first] = kv.second;
  n->params = params;
  for (const NDArray& a : inputs) n->inputs.push_back(a.ag_node() ? EntryOf(a) : ConstantEntry(a));
  auto info = std::make_shared<TapeInfo>();
  for (const NDArray& o : *outputs) info->values.push_back(o.Detach());
  n->info = info;
  for (size_t i = 0; i < outputs->size(); ++i) (*outputs)[i].set_ag_entry(n, static_cast<uint32_t>(i));
}

void Autograd::RecordView(const std::string& op_name,
                          const std::vector<std::pair<std::string, std::string>>& attrs, const NDArray& input,
                          NDArray* view) {
  if (!IsRecording() || input.ag_node() == nullptr) return;
  const OpDef& op = OpRegistry::Get()->FindOrThrow(op_name);
  std::vector<NDArray> out = {*view};
  RecordOp(op, Params::Parse(op, attrs), {input}, &out);
  *view = out[0];
}

void Autograd::SetCustomCallbacks(CustomBackward backward, CustomRelease release) {
  Callbacks().backward = std::move(backward);
  Callbacks().release = std::move(release);
}

void Autograd::RecordCustom(int64_t id, const std::vector<NDArray>& inputs, std::vector<NDArray>* outputs) {
  auto cid = std::make_shared<CustomId>(id);  // released with the node, or now if nothing is recorded
  WEFT_CHECK(static_cast<bool>(Callbacks().backward), kInvalidArgument)
      << "autograd.Function: no front end registered its backward callback (or it has shut down)";
  WEFT_CHECK(!outputs->empty(), kInvalidArgument) << "autograd.Function: forward returned no outputs";
  bool on_tape = false;
  for (const NDArray& a : inputs) on_tape = on_tape || a.ag_node() != nullptr;
  if (!on_tape) return;
  auto n = std::make_shared<Node>();
  n->op = &CustomForwardOp();
  n->op_name = n->op->name;
  n->name = "function" + std::to_string(id);
  n->params = CountParams(CustomForwardOp(), outputs->size());
  for (const NDArray& a : inputs) n->inputs.push_back(a.ag_node() ? EntryOf(a) : ConstantEntry(a));
  auto info = std::make_shared<CustomInfo>();
  info->id = cid;
  for (const NDArray& o : *outputs) info->values.push_back(o.Detach());
  n->info = info;
  for (size_t i = 0; i < outputs->size(); ++i) (*outputs)[i].set_ag_entry(n, static_cast<uint32_t>(i));
}

// Note [Fresh gradients]
// MXNet's fresh_out_grad: backward (without explicit variables) marks every
// variable whose gradient it wrote, and gluon.Trainer clears the mark when it
// applies the gradient. A parameter still unmarked at the next step was not
// used by that iteration's backward: its gradient is stale, and the Trainer
// refuses it (or skips it with ignore_stale_grad). The mark lives on the
// variable's tape node, so every handle of the variable sees it.
bool Autograd::FreshGrad(const NDArray& var) {
  if (!var.ag_node() || !var.ag_node()->is_variable()) return false;
  const TapeInfo* info = Info(*var.ag_node());
  return info && info->marked && info->fresh_grad;
}

void Autograd::SetFreshGrad(const NDArray& var, bool fresh) {
  WEFT_CHECK(var.ag_node() && var.ag_node()->is_variable() && Info(*var.ag_node()) &&
                 Info(*var.ag_node())->marked,
             kInvalidArgument)
      << "fresh_grad: the array has no gradient attached (call attach_grad or mark_variables first)";
  Info(*var.ag_node())->fresh_grad = fresh;
}

NDArray Autograd::WriteTarget(const NDArray& var) {
  if (!var.ag_node() || !var.ag_node()->is_variable()) return NDArray();
  const TapeInfo* info = Info(*var.ag_node());
  return info && info->marked && info->req == GradReq::kWrite ? info->grad : NDArray();
}

void Autograd::RecordOpaque(const std::string& name, const std::vector<NDArray>& inputs,
                            std::vector<NDArray>* outputs, OpaqueBackward backward, std::shared_ptr<void> keep_alive,
                            OpaqueReplay replay) {
  bool on_tape = false;
  std::vector<bool> needs_grad;
  for (const NDArray& a : inputs) {
    needs_grad.push_back(a.ag_node() != nullptr);
    on_tape = on_tape || a.ag_node() != nullptr;
  }
  if (!on_tape) return;
  auto n = std::make_shared<Node>();
  n->op = &CustomForwardOp();
  n->op_name = n->op->name;
  n->name = name;
  n->params = CountParams(CustomForwardOp(), outputs->size());
  for (const NDArray& a : inputs) n->inputs.push_back(a.ag_node() ? EntryOf(a) : ConstantEntry(a));
  auto info = std::make_shared<CustomInfo>();
  info->backward = std::move(backward);
  info->replay = std::move(replay);
  info->keep_alive = std::move(keep_alive);
  info->needs_grad = std::move(needs_grad);
  for (const NDArray& o : *outputs) info->values.push_back(o.Detach());
  n->info = info;
  for (size_t i = 0; i < outputs->size(); ++i) (*outputs)[i].set_ag_entry(n, static_cast<uint32_t>(i));
}

// Note [Replaying an opaque node]
// An opaque node (a hybridized block) runs its backward as one executor call
// whose ops are not recorded, so under create_graph its gradient could not be
// differentiated again. Instead, backward replays the node: each input goes
// through a recorded copy (so the replay's gradient is the partial derivative
// by that input alone, even when inputs depend on each other), the node's
// graph runs again op by op on the tape, and a nested backward with
// create_graph differentiates that replay. The cost is one more forward; the
// gradients are recorded expressions of the original inputs.
static std::vector<NDArray> ReplayBackward(const Node& fwd, const CustomInfo& info, const std::vector<NDArray>& out_grads,
                                           const std::vector<NDArray>& forward_inputs, bool is_train) {
  WEFT_CHECK(static_cast<bool>(info.replay), kInvalidArgument)
      << "backward with create_graph: node '" << fwd.name << "' cannot be differentiated twice";
  const OpDef& copy = OpRegistry::Get()->FindOrThrow("_copy");
  std::vector<NDArray> xs, wanted;
  std::vector<int> slot(forward_inputs.size(), -1);
  for (size_t i = 0; i < forward_inputs.size(); ++i) {
    std::vector<NDArray> out;
    InvokeParsed(copy, Params::Parse(copy, {}), {forward_inputs[i]}, &out, is_train);
    xs.push_back(out.at(0));
    if (info.needs_grad.empty() || info.needs_grad[i]) {
      slot[i] = static_cast<int>(wanted.size());
      wanted.push_back(xs.back());
    }
  }
  std::vector<NDArray> outs = info.replay(xs);
  WEFT_CHECK(outs.size() == out_grads.size(), kInternal)
      << "backward: replay of '" << fwd.name << "' gave " << outs.size() << " outputs, expected " << out_grads.size();
  std::vector<NDArray> heads, head_grads;
  for (size_t k = 0; k < outs.size(); ++k) {
    if (outs[k].ag_node() == nullptr || out_grads[k].is_none()) continue;
    heads.push_back(outs[k]);
    head_grads.push_back(out_grads[k]);
  }
  std::vector<NDArray> grads(forward_inputs.size());
  if (heads.empty() || wanted.empty()) return grads;
  std::vector<NDArray> got = Autograd::Backward(heads, head_grads, wanted, /*retain_graph=*/true,
                                                /*create_graph=*/true, is_train);
  for (size_t i = 0; i < grads.size(); ++i)
    if (slot[i] >= 0) grads[i] = got.at(static_cast<size_t>(slot[i]));
  return grads;
}

// The gradients of a custom function's inputs: from the front end, or from
// an opaque node's closure (replayed under create_graph).
std::vector<NDArray> RunCustomBackward(const Node& fwd, const std::vector<NDArray>& out_grads,
                                       const std::vector<NDArray>& forward_inputs,
                                       const std::vector<NDArray>& targets, bool create_graph, bool is_train) {
  const auto* info = static_cast<const CustomInfo*>(fwd.info.get());
  if (info->backward && create_graph) return ReplayBackward(fwd, *info, out_grads, forward_inputs, is_train);
  if (info->backward) return info->backward(out_grads, targets);
  std::vector<NDArray> grads = Callbacks().backward(info->id->id, out_grads, forward_inputs.size());
  WEFT_CHECK(grads.size() == forward_inputs.size(), kInvalidArgument)
      << "autograd.Function: backward returned " << grads.size() << " gradients for " << forward_inputs.size()
      << " inputs";
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].is_none() && !info->needs_grad.empty() && !info->needs_grad[i]) continue;
    WEFT_CHECK(!grads[i].is_none() && grads[i].shape() == forward_inputs[i].shape(), kShape)
        << "autograd.Function: backward's gradient " << i << " has shape "
        << (grads[i].is_none() ? std::string("none") : grads[i].shape().ToString()) << ", input " << i << " has "
        << forward_inputs[i].shape().ToString();
  }
  return grads;
}

std::vector<NDArray> Autograd::Backward(const std::vector<NDArray>& heads, const std::vector<NDArray>& head_grads,
                                        const std::vector<NDArray>& variables, bool retain_graph,
                                        bool create_graph, bool is_train) {
  WEFT_CHECK(!heads.empty(), kInvalidArgument) << "backward: no heads";
  WEFT_CHECK(head_grads.empty() || head_grads.size() == heads.size(), kInvalidArgument)
      << "backward: " << heads.size() << " heads but " << head_grads.size() << " head gradients";
  std::vector<NodeEntry> head_entries, head_grad_entries;
  for (size_t i = 0; i < heads.size(); ++i) {
    WEFT_CHECK(heads[i].ag_node() != nullptr, kInvalidArgument)
        << "backward: head " << i << " is not on the autograd tape (compute it inside autograd.record() from "
        << "arrays that have attach_grad)";
    head_entries.push_back(EntryOf(heads[i]));
    NDArray hg = i < head_grads.size() ? head_grads[i] : NDArray();
    if (hg.is_none()) {
      hg = NDArray(heads[i].shape(), heads[i].ctx(), heads[i].dtype());
      const OpDef& full = OpRegistry::Get()->FindOrThrow("_full");
      std::vector<NDArray> out = {hg};
      InvokeParsed(full, Params::Parse(full, {{"shape", hg.shape().ToString()}, {"dtype", DTypeName(hg.dtype())},
                                              {"ctx", hg.ctx().ToString()}, {"value", "1"}}),
                   {}, &out);
    } else {
      WEFT_CHECK(hg.shape() == heads[i].shape(), kShape)
          << "backward: head gradient " << i << " has shape " << hg.shape().ToString() << ", the head "
          << heads[i].shape().ToString();
    }
    head_grad_entries.push_back(create_graph && hg.ag_node() ? EntryOf(hg) : ConstantEntry(hg));
  }

  PostOrderDFS(head_entries, [&](const NodePtr& n) {
    const TapeInfo* info = Info(*n);
    WEFT_CHECK(info == nullptr || !info->freed, kInvalidArgument)
        << "backward: the graph was already freed by a backward without retain_graph=True (node "
        << n->op->name << ")";
  });

  // The variables to differentiate: given, or every marked one the heads reach.
  std::vector<NodeEntry> xs;
  std::vector<TapeInfo*> x_info;
  if (!variables.empty()) {
    for (size_t i = 0; i < variables.size(); ++i) {
      WEFT_CHECK(variables[i].ag_node() != nullptr, kInvalidArgument)
          << "grad: variable " << i << " is not on the autograd tape (call attach_grad or mark_variables first)";
      xs.push_back(EntryOf(variables[i]));
    }
  } else {
    PostOrderDFS(head_entries, [&](const NodePtr& n) {
      TapeInfo* info = Info(*n);
      if (n->is_variable() && info && info->marked && info->req != GradReq::kNull) {
        xs.push_back(NodeEntry{n, 0, 0});
        x_info.push_back(info);
      }
    });
    WEFT_CHECK(!xs.empty(), kInvalidArgument)
        << "backward: the heads do not depend on any array with attach_grad (or all have grad_req 'null')";
  }

  std::vector<NodeEntry> grads = BuildGradient(head_entries, head_grad_entries, xs);

  // Run the gradient nodes; tape nodes already hold their values.
  std::unordered_map<const Node*, std::vector<NDArray>> values;
  std::vector<NodePtr> order;
  PostOrderDFS(grads, [&](const NodePtr& n) { order.push_back(n); });
  // Note [Releasing gradient intermediates]
  // A gradient node's outputs are dropped once its last reader has been
  // pushed, so their storage goes back to the pool (after the engine is done
  // with it) and later nodes reuse it: the backward pass holds only what is
  // still to be read, not every intermediate gradient at once.
  std::unordered_map<const Node*, int> readers;
  for (const NodePtr& n : order) {
    for (const NodeEntry& e : n->inputs) ++readers[e.node.get()];
    for (const NodePtr& d : n->control_deps) ++readers[d.get()];
  }
  for (const NodeEntry& g : grads) ++readers[g.node.get()];
  auto done_reading = [&](const Node* n) {
    if (--readers[n] == 0 && Info(*n) == nullptr) values.erase(n);
  };
  // Note [Gradients written in place]
  // When a marked variable's gradient (grad_req write) comes straight from an
  // opaque node (a hybridized block), that node is told to write it into the
  // variable's grad array, which then needs no copy; the executor behind it
  // then needs no gradient buffer of its own for that parameter.
  std::unordered_map<const Node*, std::vector<NDArray>> targets;
  if (variables.empty() && !create_graph) {
    for (size_t k = 0; k < grads.size(); ++k) {
      const Node* b = grads[k].node.get();
      if (b->op != &CustomBackwardOp() || x_info[k]->req != GradReq::kWrite) continue;
      auto& t = targets[b];
      if (t.empty()) t.resize(static_cast<size_t>(b->num_outputs()));
      t[grads[k].index] = x_info[k]->grad;
    }
  }
  // Note [Backward outputs]
  // Two savings the executor gets from its graph passes, made here per call:
  //  * an output of a gradient node that nothing reads (the gradient of an
  //    input not on the tape, such as FullyConnected's data gradient in the
  //    first layer) is computed with kNull, so its kernel skips that work;
  //  * the gradient of a marked variable with grad_req write is written
  //    straight into its grad array instead of a fresh array copied there
  //    afterwards (one read and one write of every parameter per step).
  // The second is skipped when the grad array is also a value the tape
  // saved or an input of the node (the write would change what is read),
  // and both are off under create_graph (the recorded backward ops may read
  // any output).
  std::unordered_map<const Node*, std::vector<bool>> dead;
  std::unordered_map<const Node*, std::vector<NDArray>> direct;
  if (!create_graph) {
    std::unordered_map<const Node*, std::vector<bool>> read;
    auto mark_read = [&](const NodeEntry& e) {
      auto& r = read[e.node.get()];
      if (r.size() <= e.index) r.resize(e.index + 1, false);
      r[e.index] = true;
    };
    for (const NodePtr& n : order)
      for (const NodeEntry& e : n->inputs) mark_read(e);
    for (const NodeEntry& g : grads) mark_read(g);
    for (const NodePtr& n : order) {
      if (Info(*n) != nullptr || n->is_variable() || n->op == &CustomBackwardOp()) continue;
      const auto& r = read[n.get()];
      std::vector<bool> d(static_cast<size_t>(n->num_outputs()), false);
      bool any = false;
      // Hidden outputs (kernel-side state) are always computed.
      for (size_t i = 0; i < static_cast<size_t>(n->num_visible_outputs()); ++i) {
        d[i] = i >= r.size() || !r[i];
        any = any || d[i];
      }
      if (any) dead[n.get()] = std::move(d);
    }
    if (variables.empty()) {
      std::vector<NDArray> saved;  // every array the tape holds
      for (const NodePtr& n : order)
        if (const TapeInfo* info = Info(*n)) saved.insert(saved.end(), info->values.begin(), info->values.end());
      for (size_t k = 0; k < grads.size(); ++k) {
        const Node* b = grads[k].node.get();
        const NDArray& target = x_info[k]->grad;
        if (Info(*b) != nullptr || b->is_variable() || b->op == &CustomBackwardOp() ||
            x_info[k]->req != GradReq::kWrite || target.is_none() || x_info[k]->values.empty() ||
            target.ctx() != x_info[k]->values[0].ctx())
          continue;
        bool aliased = false;
        for (const NDArray& v : saved) aliased = aliased || v.SharesChunk(target);
        if (aliased) continue;
        auto& t = direct[b];
        if (t.empty()) t.resize(static_cast<size_t>(b->num_outputs()));
        if (t[grads[k].index].is_none()) t[grads[k].index] = target;
      }
    }
  }
  const bool was_recording = SetRecording(create_graph);
  const bool was_training = SetTraining(is_train);
  try {
    for (const NodePtr& n : order) {
      const TapeInfo* info = Info(*n);
      if (info != nullptr) {
        WEFT_CHECK(!info->freed, kInvalidArgument)
            << "backward: the graph was already freed by a backward without retain_graph=True (node "
            << (n->is_variable() ? std::string("variable") : n->op->name) << ")";
        std::vector<NDArray> v = info->values;
        if (create_graph)  // tape arrays keep their place on the new tape
          for (size_t i = 0; i < v.size(); ++i) v[i].set_ag_entry(n, static_cast<uint32_t>(i));
        values[n.get()] = std::move(v);
        continue;
      }
      WEFT_CHECK(!n->is_variable(), kInternal) << "backward: variable '" << n->name << "' has no value";
      std::vector<NDArray> in;
      for (const NodeEntry& e : n->inputs) in.push_back(values.at(e.node.get()).at(e.index));
      if (n->op == &CustomBackwardOp()) {  // Note [Custom function nodes]
        const Node& fwd = *n->control_deps.at(0);
        std::vector<NDArray> fwd_in;
        for (const NodeEntry& e : fwd.inputs) fwd_in.push_back(values.at(e.node.get()).at(e.index));
        auto t = targets.find(n.get());
        values[n.get()] = RunCustomBackward(fwd, in, fwd_in,
                                            t == targets.end() ? std::vector<NDArray>(fwd_in.size()) : t->second,
                                            create_graph, is_train);
      } else {
        auto d = dead.find(n.get());
        auto t = direct.find(n.get());
        if (d == dead.end() && t == direct.end()) {
          std::vector<NDArray> out;
          InvokeParsed(*n->op, n->params, std::move(in), &out, is_train);
          values[n.get()] = std::move(out);
        } else {  // Note [Backward outputs]
          std::vector<NDArray> out =
              t == direct.end() ? std::vector<NDArray>(static_cast<size_t>(n->num_outputs())) : t->second;
          if (t != direct.end())
            for (NDArray& o : out)  // a target that is also an input gets a fresh array
              for (const NDArray& a : in)
                if (!o.is_none() && a.SharesChunk(o)) o = NDArray();
          InvokeBackward(*n->op, n->params, std::move(in), &out, is_train,
                         d == dead.end() ? std::vector<bool>() : d->second);
          values[n.get()] = std::move(out);
        }
      }
      for (const NodeEntry& e : n->inputs) done_reading(e.node.get());
    }
  } catch (...) {
    SetRecording(was_recording);
    SetTraining(was_training);
    throw;
  }
  SetRecording(was_recording);
  SetTraining(was_training);

  std::vector<NDArray> result;
  for (size_t k = 0; k < grads.size(); ++k) {
    NDArray g = values.at(grads[k].node.get()).at(grads[k].index);
    if (!variables.empty()) {
      if (create_graph) {
        result.push_back(g);
      } else {  // a copy: a gradient may live in a hybridized block's reused buffers
        NDArray c(g.shape(), g.ctx(), g.dtype());
        NDArray::Copy(g.Detach(), c);
        result.push_back(c);
      }
      continue;
    }
    TapeInfo* info = x_info[k];
    info->fresh_grad = true;
    if (info->req == GradReq::kWrite) {
      if (g.SharesChunk(info->grad) && g.byte_offset() == info->grad.byte_offset()) continue;  // written in place
      NDArray::Copy(g, info->grad);
    } else {
      const OpDef& add = OpRegistry::Get()->FindOrThrow("elemwise_add");
      std::vector<NDArray> out = {info->grad.Detach()};
      InvokeParsed(add, Params::Parse(add, {}), {info->grad.Detach(), g.Detach()}, &out);
    }
  }

  if (!retain_graph) {  // release what the tape saved for the heads' graph
    PostOrderDFS(head_entries, [&](const NodePtr& n) {
      TapeInfo* info = Info(*n);
      if (info == nullptr || n->is_variable()) return;
      info->values.clear();
      info->freed = true;
    });
  }
  return result;
}

}  // namespace weft
