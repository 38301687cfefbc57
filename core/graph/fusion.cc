#include "core/graph/fusion.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/env.h"
#include "core/base/error.h"

namespace weft {
namespace {

// Note [Fusion rules]
// Elementwise groups. A node can join a group when its op is of the
// elementwise fusion class and declares a fused form (OpDef::fused_form: how
// the interpreter expresses it; elementwise-class ops missing from it, such
// as where or Cast, are left alone), it neither draws random numbers nor
// mutates inputs, it has one output, no control dependencies, and its inputs
// and output are all float32 (or all float64) with one known shape. An edge
// producer -> consumer between two such nodes is inside a group when the
// producer's output is read by that consumer alone, is not a graph output nor
// kept, and both nodes have the same phase and __ctx_group__. Every internal
// entry therefore has one reader inside the group, so a group is a tree whose
// root is its only output: nothing outside can read an intermediate, and no
// path leaves the group and comes back (the group is convex). Groups of two
// or more operators become one _fused_elemwise node named like the root.
//
// The layer patterns below are over roles the ops declare, not op names
// (Note [Fusion patterns on the op] in core/opdef/op_def.h): "a layer" is an
// op of role kLayer (FullyConnected, Convolution), "an activation" one of
// kActivation (Activation), "a norm" kNorm (BatchNorm), "a residual sum"
// kResidualSum (elemwise_add), each when its `applies` holds for the node's
// parameters; the fused ops are those the layer names.
//
// Layer + activation. A FullyConnected or Convolution whose output is read by
// one Activation alone (same phase, not kept, not a graph output) becomes one
// _fused_fully_connected_act / _fused_convolution_act node named like the
// Activation. In a training graph this still applies for relu, sigmoid, tanh,
// softrelu and log_sigmoid, whose gradients read the Activation's output, not
// its input; softsign's and mish's read the input, which then has two readers.
// Layer pairs are matched first, so their Activation does not join an
// elementwise group.
//
// Convolution + BatchNorm (+ add) (+ Activation). Before the layer pairs, a
// Convolution whose output is read by one BatchNorm alone (channel axis 1,
// output_mean_var off, its mean and var outputs read by nobody), optionally
// followed by an elemwise_add of that BatchNorm's output and another entry of
// the same shape, optionally followed by an Activation (each edge internal as
// above), becomes one _fused_convolution_bn node named like the last node of
// the chain (Note [Inference folding] in core/op/fused/fused_conv_bn.cc). A
// training graph keeps its chains: the backward pass reads the convolution's
// output and BatchNorm's statistics.
//
// Inputs of a fused node are numbered in the order a depth-first walk from
// the root meets them (the walk IndexedGraph makes), so variables keep their
// order in the rewritten graph.


// The op's program form, declared with it (OpDef::fused_form).
const FusedForm* FindForm(const OpDef* op) {
  return op->fused_form.kind == FusedForm::kNone ? nullptr : &op->fused_form;
}

// The node's op plays `role` for the node's parameters (Note [Fusion patterns
// on the op]).
bool Plays(const Node* n, FusionPattern::Role role) {
  return n->op != nullptr && n->op->fusion_pattern.role == role && n->op->fusion_pattern.Applies(n->params);
}

// A fused op a layer names; nullptr when it names none or this build lacks it.
const OpDef* FusedOp(const std::string& name) { return name.empty() ? nullptr : OpRegistry::Get()->Find(name); }

// The op that runs fused elementwise programs, found once by its role.
const OpDef& ElementwiseProgramOp() {
  static const OpDef* const op = [] {
    const OpRegistry* reg = OpRegistry::Get();
    for (const std::string& name : reg->ListNames()) {
      const OpDef* d = reg->Find(name);
      if (d->fusion_pattern.role == FusionPattern::kElementwiseProgram) return d;
    }
    return static_cast<const OpDef*>(nullptr);
  }();
  WEFT_CHECK(op != nullptr, kInternal) << "fusion: no registered op runs fused elementwise programs";
  return *op;
}

bool IsFloat(DType t) { return t == DType::kFloat32 || t == DType::kFloat64; }

std::string Number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

std::string HiddenAttr(const Node* n, const char* key) {
  auto it = n->attrs.find(key);
  return it == n->attrs.end() ? std::string() : it->second;
}

// A value of a program under construction: an input slot or an instruction.
struct Ref {
  bool input = false;
  int index = 0;
};

struct Instr {
  std::string head;  // "u:exp", "s:add", "c", ...
  std::vector<Ref> args;
  std::string tail;  // ":<scalar>:<left>" for scalar instructions
};

class ProgramBuilder {
 public:
  Ref Emit(std::string head, std::vector<Ref> args, std::string tail = "") {
    code_.push_back(Instr{std::move(head), std::move(args), std::move(tail)});
    return Ref{false, static_cast<int>(code_.size()) - 1};
  }
  // Instructions for one node of `form` over operand values `a`.
  Ref EmitNode(const FusedForm& f, const Node& node, const std::vector<Ref>& a) {
    switch (f.kind) {
      case FusedForm::kUnary: return Emit(std::string("u:") + f.fn, {a[0]});
      case FusedForm::kBinary: return Emit(std::string("b:") + f.fn, {a[0], a[1]});
      case FusedForm::kScalar:
        return Emit(std::string("s:") + f.fn, {a[0]},
                    ":" + Number(node.params.GetFloat("scalar")) + (f.scalar_left ? ":1" : ":0"));
      case FusedForm::kAct: return Emit("a:" + node.params.GetString("act_type"), {a[0]});
      case FusedForm::kActGrad: return Emit("g:" + node.params.GetString("act_type"), a);
      case FusedForm::kIdentity: return a[0];
      case FusedForm::kAddN: {
        Ref r = a[0];
        for (size_t i = 1; i < a.size(); ++i) r = Emit("b:add", {r, a[i]});
        return r;
      }
      case FusedForm::kClip: {  // min(max(x, a_min), a_max) equals clip when a_min <= a_max (checked)
        Ref r = Emit("s:max", {a[0]}, ":" + Number(node.params.GetFloat("a_min")) + ":0");
        return Emit("s:min", {r}, ":" + Number(node.params.GetFloat("a_max")) + ":0");
      }
      case FusedForm::kNone: break;  // FindForm never hands one over
    }
    WEFT_THROW(kInternal) << "fusion: unknown form";
  }
  // The text, with `result` as the output (copied when it is not the last value).
  std::string Finish(Ref result, int num_inputs) {
    if (result.input || result.index != static_cast<int>(code_.size()) - 1) Emit("c", {result});
    std::string text;
    for (const Instr& in : code_) {
      if (!text.empty()) text += ';';
      text += in.head;
      for (const Ref& r : in.args) text += ":" + std::to_string(r.input ? r.index : num_inputs + r.index);
      text += in.tail;
    }
    return text;
  }

 private:
  std::vector<Instr> code_;
};

class Fuser {
 public:
  Fuser(const IndexedGraph& g, const ShapeInference& shapes, const TypeInference& types, const std::vector<int>& phase,
        const std::vector<bool>& keep)
      : g_(g), shapes_(shapes), types_(types), phase_(phase) {
    const size_t n = g.num_nodes(), e = g.num_entries();
    WEFT_CHECK(shapes.entry.size() == e && types.entry.size() == e, kInvalidArgument)
        << "FuseGraph: inference results for " << shapes.entry.size() << "/" << types.entry.size()
        << " entries, the graph has " << e;
    WEFT_CHECK(phase.empty() || phase.size() == n, kInvalidArgument)
        << "FuseGraph: " << phase.size() << " phases for " << n << " nodes";
    WEFT_CHECK(keep.empty() || keep.size() == e, kInvalidArgument)
        << "FuseGraph: " << keep.size() << " keep flags for " << e << " entries";
    readers_.assign(e, 0);
    pinned_.assign(e, false);
    has_deps_.assign(n, false);
    for (size_t i = 0; i < keep.size(); ++i) pinned_[i] = keep[i];
    for (const auto& out : g.outputs()) pinned_[g.entry_id(out)] = true;
    // A node reading one entry at several positions counts once; the last
    // node that counted an entry is remembered, so a node with thousands of
    // inputs (a fused backward chain) costs linear time.
    std::vector<size_t> counted_by(e, SIZE_MAX);
    for (size_t nid = 0; nid < n; ++nid) {
      for (const auto& in : g[nid].inputs) {
        const uint32_t entry = g.entry_id(in);
        if (counted_by[entry] == nid) continue;
        counted_by[entry] = nid;
        ++readers_[entry];
      }
      if (!g[nid].control_deps.empty()) has_deps_[nid] = true;
      for (uint32_t d : g[nid].control_deps) has_deps_[d] = true;
    }
  }

  std::vector<NodeEntry> Run(std::unordered_map<const Node*, int>* new_phase, FusionStats* stats);

 private:
  int Phase(size_t nid) const { return phase_.empty() ? 0 : phase_[nid]; }
  const Node* Src(size_t nid) const { return g_[nid].source; }

  // The producer of `in` may be merged into its reader `consumer`.
  bool Internal(const IndexedGraph::IEntry& in, uint32_t consumer) const {
    const uint32_t e = g_.entry_id(in);
    return readers_[e] == 1 && !pinned_[e] && Phase(in.node_id) == Phase(consumer) && !has_deps_[in.node_id] &&
           !has_deps_[consumer] &&
           HiddenAttr(Src(in.node_id), "__ctx_group__") == HiddenAttr(Src(consumer), "__ctx_group__");
  }

  const FusedForm* ElementwiseForm(uint32_t nid) const;
  void MatchConvBN();
  NodePtr MakeConvBN(uint32_t last);
  void MatchLayers();
  void GroupElementwise();
  NodePtr MakeFused(uint32_t root, std::vector<NodeEntry>* inputs_out);
  NodeEntry Map(const IndexedGraph::IEntry& in) const;

  const IndexedGraph& g_;
  const ShapeInference& shapes_;
  const TypeInference& types_;
  const std::vector<int>& phase_;
  std::vector<int> readers_;     // per entry: distinct reading nodes
  std::vector<bool> pinned_;     // per entry: kept or a graph output
  std::vector<bool> has_deps_;   // per node: has or is a control dependency
  struct ConvBN {
    const OpDef* fused = nullptr;  // the layer's with_norm op
    int conv = -1, bn = -1, add = -1, act = -1;
    IndexedGraph::IEntry addend{};
    std::map<std::string, std::string> attrs;  // the fused node's attributes
  };
  std::vector<int> chain_of_;    // per node: index into chains_ of the chain it ends, or -1
  std::vector<ConvBN> chains_;
  std::vector<int> layer_of_;    // per Activation node: the layer it absorbs, or -1
  std::vector<const OpDef*> layer_fused_;  // per Activation node absorbing a layer: the fused op
  std::vector<std::map<std::string, std::string>> layer_attrs_;  // the fused layer node's attributes
  std::vector<bool> hidden_;     // per node: absorbed into another node
  std::vector<const FusedForm*> form_;
  std::vector<int> group_;       // per node: root of its elementwise group, or -1
  std::vector<int> group_size_;  // per root
  std::vector<NodePtr> repl_;    // per node: its node in the result
};

const FusedForm* Fuser::ElementwiseForm(uint32_t nid) const {
  const Node* node = Src(nid);
  const OpDef* op = node->op;
  if (op == nullptr || op->fusion != FusionClass::kElementwise || hidden_[nid] || layer_of_[nid] >= 0 ||
      chain_of_[nid] >= 0 || has_deps_[nid])
    return nullptr;
  const FusedForm* f = FindForm(op);
  if (f == nullptr || op->NeedsRNG(node->params) || !op->mutate_inputs.empty() || node->num_outputs() != 1)
    return nullptr;
  const uint32_t out = g_.entry_id(nid, 0);
  const DType t = types_.entry[out];
  const Shape& s = shapes_.entry[out];
  if (!IsFloat(t) || !s.known()) return nullptr;
  for (const auto& in : g_[nid].inputs) {
    const uint32_t e = g_.entry_id(in);
    if (types_.entry[e] != t || shapes_.entry[e] != s) return nullptr;
  }
  if (f->kind == FusedForm::kClip && !(node->params.GetFloat("a_min") <= node->params.GetFloat("a_max"))) return nullptr;
  if (g_[nid].inputs.empty()) return nullptr;
  return f;
}

void Fuser::MatchConvBN() {
  const size_t n = g_.num_nodes();
  chain_of_.assign(n, -1);
  hidden_.assign(n, false);
  // The single reader of node `nid`'s output 0 when the edge is internal, else -1.
  std::vector<int> only_reader(n, -1);
  for (uint32_t nid = 0; nid < n; ++nid)
    for (const auto& in : g_[nid].inputs)
      if (in.index == 0 && Internal(in, nid)) only_reader[in.node_id] = static_cast<int>(nid);
  auto plays = [&](int nid, FusionPattern::Role role) { return Plays(Src(static_cast<uint32_t>(nid)), role); };
  for (uint32_t conv = 0; conv < n; ++conv) {
    const Node* c = Src(conv);
    if (!plays(static_cast<int>(conv), FusionPattern::kLayer) || c->num_outputs() != 1 || hidden_[conv]) continue;
    const OpDef* fused = FusedOp(c->op->fusion_pattern.with_norm);
    if (fused == nullptr) continue;
    const uint32_t ce = g_.entry_id(conv, 0);
    if (!IsFloat(types_.entry[ce]) || !shapes_.entry[ce].known()) continue;
    ConvBN ch;
    ch.fused = fused;
    ch.conv = static_cast<int>(conv);
    ch.bn = only_reader[conv];
    if (ch.bn < 0 || !plays(ch.bn, FusionPattern::kNorm)) continue;  // its `applies`: channel axis 1, no output_mean_var
    const uint32_t bn = static_cast<uint32_t>(ch.bn);
    const Node* b = Src(bn);
    if (g_[bn].inputs[0].node_id != conv) continue;
    bool stats_read = false;  // the norm's other outputs
    for (uint32_t k = 1; k < static_cast<uint32_t>(b->num_outputs()); ++k)
      stats_read = stats_read || readers_[g_.entry_id(bn, k)] > 0 || pinned_[g_.entry_id(bn, k)];
    if (stats_read) continue;
    int last = ch.bn;
    const int next = only_reader[bn];
    // ResNet's add reads two chains' BatchNorms: the first chain takes it.
    auto unclaimed = [&](int k) { return !hidden_[static_cast<size_t>(k)] && chain_of_[static_cast<size_t>(k)] < 0; };
    if (next >= 0 && plays(next, FusionPattern::kResidualSum) && unclaimed(next)) {
      const auto& ins = g_[static_cast<uint32_t>(next)].inputs;
      const IndexedGraph::IEntry other = ins[0].node_id == bn ? ins[1] : ins[0];
      const uint32_t oe = g_.entry_id(other), be = g_.entry_id(bn, 0);
      if (other.node_id != bn && shapes_.entry[oe] == shapes_.entry[be] && types_.entry[oe] == types_.entry[be]) {
        ch.add = next;
        ch.addend = other;
        last = next;
      }
    }
    const int act = only_reader[static_cast<uint32_t>(last)];
    if (act >= 0 && plays(act, FusionPattern::kActivation) && unclaimed(act)) {
      ch.act = act;
      last = act;
    }
    // Attributes: the convolution's, the norm's carried (statistics) parameters, the chain's shape.
    ch.attrs = c->attrs;
    for (const std::string& k : b->op->fusion_pattern.carried_params) {
      auto it = b->attrs.find(k);
      if (it != b->attrs.end()) ch.attrs[k] = it->second;
    }
    if (ch.add >= 0) ch.attrs["with_sum"] = "True";
    if (ch.act >= 0) ch.attrs["act_type"] = Src(static_cast<uint32_t>(ch.act))->params.GetString("act_type");
    try {  // the fused op declares the layer's parameters; anything else stays unfused
      std::vector<std::pair<std::string, std::string>> list(ch.attrs.begin(), ch.attrs.end());
      Params::Parse(*fused, list);
    } catch (const Error&) {
      continue;
    }
    for (int k : {ch.conv, ch.bn, ch.add, ch.act})
      if (k >= 0 && k != last) hidden_[static_cast<size_t>(k)] = true;
    chain_of_[static_cast<size_t>(last)] = static_cast<int>(chains_.size());
    chains_.push_back(std::move(ch));
  }
}

NodePtr Fuser::MakeConvBN(uint32_t last) {
  const ConvBN& ch = chains_[static_cast<size_t>(chain_of_[last])];
  std::vector<NodeEntry> inputs;
  for (const auto& in : g_[static_cast<uint32_t>(ch.conv)].inputs) inputs.push_back(Map(in));
  const auto& bn_in = g_[static_cast<uint32_t>(ch.bn)].inputs;
  for (size_t k = 1; k < bn_in.size(); ++k) inputs.push_back(Map(bn_in[k]));
  if (ch.add >= 0) inputs.push_back(Map(ch.addend));
  return Node::Op(*ch.fused, Src(last)->name, ch.attrs, std::move(inputs));
}

void Fuser::MatchLayers() {
  const size_t n = g_.num_nodes();
  layer_of_.assign(n, -1);
  layer_attrs_.assign(n, {});
  layer_fused_.assign(n, nullptr);
  for (uint32_t nid = 0; nid < n; ++nid) {
    const Node* act = Src(nid);
    if (!Plays(act, FusionPattern::kActivation) || g_[nid].inputs.size() != 1) continue;
    const IndexedGraph::IEntry in = g_[nid].inputs[0];
    const Node* layer = Src(in.node_id);
    if (layer->op == nullptr || in.index != 0 || layer->num_outputs() != 1 || !Internal(in, nid) ||
        hidden_[nid] || chain_of_[nid] >= 0 || hidden_[in.node_id])
      continue;
    const OpDef* fused = Plays(layer, FusionPattern::kLayer) ? FusedOp(layer->op->fusion_pattern.with_activation) : nullptr;
    const uint32_t e = g_.entry_id(in);
    if (fused == nullptr || !IsFloat(types_.entry[e]) || !shapes_.entry[e].known()) continue;
    std::map<std::string, std::string> attrs = layer->attrs;
    attrs["act_type"] = act->params.GetString("act_type");
    try {  // the fused op declares the layer's parameters; anything else stays unfused
      std::vector<std::pair<std::string, std::string>> list(attrs.begin(), attrs.end());
      Params::Parse(*fused, list);
    } catch (const Error&) {
      continue;
    }
    layer_of_[nid] = static_cast<int>(in.node_id);
    layer_attrs_[nid] = std::move(attrs);
    layer_fused_[nid] = fused;
    hidden_[in.node_id] = true;
  }
}

void Fuser::GroupElementwise() {
  const size_t n = g_.num_nodes();
  form_.assign(n, nullptr);
  group_.assign(n, -1);
  group_size_.assign(n, 0);
  for (uint32_t nid = 0; nid < n; ++nid) form_[nid] = ElementwiseForm(nid);
  // Readers come after producers in id order: walking down, a node's group is
  // known before its producers are looked at.
  for (size_t k = n; k-- > 0;) {
    const uint32_t nid = static_cast<uint32_t>(k);
    if (form_[nid] == nullptr) continue;
    if (group_[nid] < 0) group_[nid] = static_cast<int>(nid);
    ++group_size_[static_cast<size_t>(group_[nid])];
    for (const auto& in : g_[nid].inputs)
      if (form_[in.node_id] != nullptr && group_[in.node_id] < 0 && Internal(in, nid))
        group_[in.node_id] = group_[nid];
  }
  for (uint32_t nid = 0; nid < n; ++nid)
    if (group_[nid] >= 0 && group_[nid] != static_cast<int>(nid) && group_size_[static_cast<size_t>(group_[nid])] >= 2)
      hidden_[nid] = true;
}

NodeEntry Fuser::Map(const IndexedGraph::IEntry& in) const {
  const NodePtr& p = repl_[in.node_id];
  WEFT_CHECK(p != nullptr, kInternal) << "fusion: an entry of a fused group is read outside it";
  return NodeEntry{p, in.index, in.version};
}

// The _fused_elemwise node for the group rooted at `root`.
NodePtr Fuser::MakeFused(uint32_t root, std::vector<NodeEntry>* inputs_out) {
  ProgramBuilder prog;
  std::vector<IndexedGraph::IEntry> inputs;
  std::unordered_map<uint32_t, int> input_slot;  // entry id -> input index
  std::unordered_map<uint32_t, Ref> value;       // member node -> its value
  auto is_member = [&](uint32_t nid) { return group_[nid] == static_cast<int>(root); };
  auto ref_of = [&](const IndexedGraph::IEntry& in) {
    if (is_member(in.node_id)) return value.at(in.node_id);
    return Ref{true, input_slot.at(g_.entry_id(in))};
  };
  std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    const uint32_t nid = stack.back().first;
    const size_t i = stack.back().second;
    const auto& ins = g_[nid].inputs;
    if (i < ins.size()) {
      ++stack.back().second;
      const IndexedGraph::IEntry in = ins[i];
      if (is_member(in.node_id)) {
        if (!value.count(in.node_id)) stack.emplace_back(in.node_id, 0);
      } else if (input_slot.emplace(g_.entry_id(in), static_cast<int>(inputs.size())).second) {
        inputs.push_back(in);
      }
      continue;
    }
    std::vector<Ref> args;
    for (const auto& in : ins) args.push_back(ref_of(in));
    value[nid] = prog.EmitNode(*form_[nid], *Src(nid), args);
    stack.pop_back();
  }
  const int num_inputs = static_cast<int>(inputs.size());
  const std::string text = prog.Finish(value.at(root), num_inputs);
  // _fused_elemwise's shape inference parses the program at bind (the pass
  // never writes a bad one; tests/cpp/fusion_test.cc checks what it writes).

  std::map<std::string, std::string> attrs;
  for (const auto& kv : Src(root)->attrs)
    if (kv.first.rfind("__", 0) == 0) attrs.insert(kv);
  attrs["num_args"] = std::to_string(num_inputs);
  attrs["program"] = text;
  for (const auto& in : inputs) inputs_out->push_back(Map(in));
  return Node::Op(ElementwiseProgramOp(), Src(root)->name, std::move(attrs), *inputs_out);
}

std::vector<NodeEntry> Fuser::Run(std::unordered_map<const Node*, int>* new_phase, FusionStats* stats) {
  MatchConvBN();
  MatchLayers();
  GroupElementwise();
  const size_t n = g_.num_nodes();
  repl_.assign(n, nullptr);
  FusionStats st;
  for (uint32_t nid = 0; nid < n; ++nid) {
    if (hidden_[nid]) continue;
    const Node* src = Src(nid);
    NodePtr made;
    if (group_[nid] == static_cast<int>(nid) && group_size_[nid] >= 2) {
      std::vector<NodeEntry> inputs;
      made = MakeFused(nid, &inputs);
      ++st.elementwise_groups;
      st.elementwise_ops_fused += group_size_[nid];
    } else if (chain_of_[nid] >= 0) {
      made = MakeConvBN(nid);
      ++st.conv_bn_fused;
    } else if (layer_of_[nid] >= 0) {
      const uint32_t layer = static_cast<uint32_t>(layer_of_[nid]);
      std::vector<NodeEntry> inputs;
      for (const auto& in : g_[layer].inputs) inputs.push_back(Map(in));
      made = Node::Op(*layer_fused_[nid], src->name, layer_attrs_[nid], std::move(inputs));
      ++st.nn_act_fused;
    } else if (!src->is_variable()) {
      bool changed = false;
      for (const auto& in : g_[nid].inputs) changed = changed || repl_[in.node_id].get() != Src(in.node_id);
      for (uint32_t d : g_[nid].control_deps) changed = changed || repl_[d].get() != Src(d);
      if (changed) {  // a copy reading the rewritten producers; g's node stays as it is
        made = std::make_shared<Node>(*src);
        made->inputs.clear();
        for (const auto& in : g_[nid].inputs) made->inputs.push_back(Map(in));
        made->control_deps.clear();
        for (uint32_t d : g_[nid].control_deps) made->control_deps.push_back(repl_[d]);
      }
    }
    if (made) {
      (*new_phase)[made.get()] = Phase(nid);
      repl_[nid] = std::move(made);
    } else {
      repl_[nid] = g_.node_ptr(nid);
    }
  }
  std::vector<NodeEntry> heads;
  for (const auto& out : g_.outputs()) heads.push_back(Map(out));
  if (stats != nullptr) *stats = st;
  return heads;
}

}  // namespace

bool FusionEnabled() { return GetEnv("WEFT_FUSION", "1") != "0"; }

std::vector<NodeEntry> FuseGraph(const IndexedGraph& g, const ShapeInference& shapes, const TypeInference& types,
                                 const std::vector<int>& phase, const std::vector<bool>& keep,
                                 std::unordered_map<const Node*, int>* new_phase, FusionStats* stats) {
  std::unordered_map<const Node*, int> ignored;
  Fuser f(g, shapes, types, phase, keep);
  return f.Run(new_phase != nullptr ? new_phase : &ignored, stats);
}

std::vector<std::string> FusableElementwiseOps() {
  std::vector<std::string> names;
  const OpRegistry* reg = OpRegistry::Get();
  for (const std::string& name : reg->ListNames())
    if (reg->Find(name)->fused_form.kind != FusedForm::kNone) names.push_back(name);
  return names;
}

}  // namespace weft
