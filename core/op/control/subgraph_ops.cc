// Declarations of _foreach, _while_loop, _cond and their backward ops: schema,
// shape and type inference over the subgraphs, gradient rules (Note [Subgraph
// operators] in subgraph_ops.h). The kernels are installed from above.
#include "core/op/control/subgraph_ops.h"

#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/graph/gradient.h"
#include "core/graph/infer.h"
#include "core/graph/subgraphs.h"
#include "core/graph/symbol.h"
#include "core/op/control/subgraph_ops_gpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace control {
namespace {

// ---- the parameters ------------------------------------------------------

struct OpShape {
  int num_graphs;  // leading "inputs" of num_args that are graphs
  std::vector<const char*> graph_names;
};

const OpShape& ShapeOf(const std::string& op) {
  static const std::map<std::string, OpShape> k = {
      {"_foreach", {1, {"body"}}},
      {"_while_loop", {2, {"cond", "func"}}},
      {"_cond", {3, {"cond", "then_branch", "else_branch"}}},
  };
  return k.at(op);
}

std::string ForwardName(const Params& p) {
  const std::string& n = p.op()->name;
  return n.compare(0, 10, "_backward_") == 0 ? n.substr(9) : n;
}

int NumDataInputs(const Params& p) {
  const int64_t n = p.GetInt("num_args") - ShapeOf(ForwardName(p)).num_graphs;
  WEFT_CHECK(n >= 0, kInvalidArgument) << p.op()->name << ": num_args (" << p.GetInt("num_args")
                                       << ") counts the " << ShapeOf(ForwardName(p)).num_graphs
                                       << " subgraph(s) as well, so it cannot be smaller";
  return static_cast<int>(n);
}

}  // namespace

const Symbol& Graph(const Params& p, size_t i) {
  const std::shared_ptr<const SubgraphList> subs = ParamsSubgraphs(p);
  const OpShape& s = ShapeOf(ForwardName(p));
  std::string graphs;
  for (const char* g : s.graph_names) graphs += std::string(graphs.empty() ? "" : ", ") + g;
  WEFT_CHECK(subs && subs->size() >= static_cast<size_t>(s.num_graphs), kInvalidArgument)
      << p.op()->name << " runs the graphs its node carries (" << graphs << "), and this call has none; build it "
      << "with weft.sym.contrib."
      << (ForwardName(p) == "_foreach" ? "foreach" : ForwardName(p) == "_while_loop" ? "while_loop" : "cond")
      << " or load it from a symbol file, not as a plain operator call";
  WEFT_CHECK(i < subs->size(), kInternal) << p.op()->name << ": no subgraph " << i;
  return (*subs)[i];  // the node (and so its graphs) outlives every use of its Params
}

namespace {

std::vector<int64_t> Locs(const Params& p, const char* name, size_t graph_inputs, size_t node_inputs, bool to_node) {
  std::vector<int64_t> v = p.GetTuple(name);
  const size_t bound = to_node ? node_inputs : graph_inputs;
  for (int64_t x : v)
    WEFT_CHECK(x >= 0 && static_cast<size_t>(x) < bound, kInvalidArgument)
        << p.op()->name << ": " << name << " has position " << x << ", but there are only " << bound
        << (to_node ? " node inputs" : " subgraph inputs");
  return v;
}

// ---- inference over a subgraph -------------------------------------------

Shape DropAxis0(const Shape& s) {
  if (!s.known() || s.ndim() == 0) return Shape::Unknown();
  return Shape(s.dims().begin() + 1, s.dims().end());
}
Shape PrependAxis(int64_t n, const Shape& s) {
  if (!s.known()) return Shape::Unknown();
  std::vector<int64_t> d{n};
  d.insert(d.end(), s.dims().begin(), s.dims().end());
  return Shape(std::move(d));
}

// Fills the shapes of g's inputs (ListInputs order) and outputs that follow
// from the known inputs.
void InferGraphShapes(const Params& p, const Symbol& g, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::vector<std::string> names = g.ListInputs();
  std::unordered_map<std::string, Shape> given;
  for (size_t i = 0; i < names.size(); ++i)
    if ((*in)[i].known()) given[names[i]] = (*in)[i];
  IndexedGraph ig(g.outputs);
  ShapeInference r;
  try {
    r = InferShapes(ig, given);
  } catch (const Error& e) {
    throw Error(e.status(), p.op()->name + " subgraph: " + e.what());
  }
  std::unordered_map<std::string, size_t> pos;
  for (size_t i = 0; i < names.size(); ++i) pos[names[i]] = i;
  for (uint32_t nid : ig.arg_nodes()) {
    const Shape& s = r.entry[ig.entry_id(nid, 0)];
    auto it = pos.find(ig[nid].source->name);
    if (it != pos.end() && s.known() && !(*in)[it->second].known()) (*in)[it->second] = s;
  }
  out->assign(ig.outputs().size(), Shape::Unknown());
  for (size_t k = 0; k < ig.outputs().size(); ++k) (*out)[k] = r.entry[ig.entry_id(ig.outputs()[k])];
}

void InferGraphTypes(const Params& p, const Symbol& g, std::vector<DType>* in, std::vector<DType>* out) {
  const std::vector<std::string> names = g.ListInputs();
  std::unordered_map<std::string, DType> given;
  for (size_t i = 0; i < names.size(); ++i)
    if ((*in)[i] != DType::kUnknown) given[names[i]] = (*in)[i];
  IndexedGraph ig(g.outputs);
  TypeInference r;
  try {
    r = InferTypes(ig, given, /*default_float32=*/false);
  } catch (const Error& e) {
    throw Error(e.status(), p.op()->name + " subgraph: " + e.what());
  }
  std::unordered_map<std::string, size_t> pos;
  for (size_t i = 0; i < names.size(); ++i) pos[names[i]] = i;
  for (uint32_t nid : ig.arg_nodes()) {
    DType t = r.entry[ig.entry_id(nid, 0)];
    auto it = pos.find(ig[nid].source->name);
    if (it != pos.end() && t != DType::kUnknown && (*in)[it->second] == DType::kUnknown) (*in)[it->second] = t;
  }
  out->assign(ig.outputs().size(), DType::kUnknown);
  for (size_t k = 0; k < ig.outputs().size(); ++k) (*out)[k] = r.entry[ig.entry_id(ig.outputs()[k])];
}

template <typename T>
bool IsKnown(const T& v);
template <>
bool IsKnown(const Shape& s) { return s.known(); }
template <>
bool IsKnown(const DType& t) { return t != DType::kUnknown; }

template <typename T>
void Fill(T* dst, const T& src) {
  if (!IsKnown(*dst) && IsKnown(src)) *dst = src;
}
template <typename T>
bool AllKnown(const std::vector<T>& a, const std::vector<T>& b) {
  for (const T& x : a) if (!IsKnown(x)) return false;
  for (const T& x : b) if (!IsKnown(x)) return false;
  return true;
}

// The node inputs feeding graph `g` at positions `locs` (node input index per
// graph input): gathers them, runs `infer`, scatters what it learned back.
template <typename T, typename Infer>
std::vector<T> ThroughGraph(const Params& p, const Symbol& g, const std::vector<int64_t>& locs, std::vector<T>* in,
                            Infer infer) {
  std::vector<T> gin(locs.size()), gout;
  for (size_t j = 0; j < locs.size(); ++j) gin[j] = (*in)[static_cast<size_t>(locs[j])];
  infer(p, g, &gin, &gout);
  for (size_t j = 0; j < locs.size(); ++j) Fill(&(*in)[static_cast<size_t>(locs[j])], gin[j]);
  return gout;
}

// ---- _foreach ------------------------------------------------------------

}  // namespace

ForeachLayout ForeachOf(const Params& p) {
  ForeachLayout l;
  const size_t n_in = static_cast<size_t>(NumDataInputs(p));
  const size_t g_in = Graph(p, 0).ListInputs().size();
  l.data_locs = Locs(p, "in_data_locs", g_in, n_in, false);
  l.state_locs = Locs(p, "in_state_locs", g_in, n_in, false);
  l.remain_locs = Locs(p, "remain_locs", g_in, n_in, false);
  l.num_out_data = static_cast<int>(p.GetInt("num_out_data"));
  l.num_outputs = static_cast<int>(p.GetInt("num_outputs"));
  WEFT_CHECK(l.data_locs.size() + l.state_locs.size() + l.remain_locs.size() == n_in && n_in == g_in,
             kInvalidArgument)
      << "_foreach: in_data_locs, in_state_locs and remain_locs name " << l.data_locs.size() << " + "
      << l.state_locs.size() << " + " << l.remain_locs.size() << " inputs, but the node has " << n_in
      << " and the body " << g_in;
  std::vector<bool> seen(g_in, false);
  for (const auto* locs : {&l.data_locs, &l.state_locs, &l.remain_locs})
    for (int64_t x : *locs) {
      WEFT_CHECK(!seen[static_cast<size_t>(x)], kInvalidArgument)
          << "_foreach: body input " << x << " appears twice in in_data_locs, in_state_locs and remain_locs";
      seen[static_cast<size_t>(x)] = true;
    }
  WEFT_CHECK(l.num_out_data >= 0 && l.num_out_data + static_cast<int>(l.state_locs.size()) == l.num_outputs &&
                 Graph(p, 0).num_outputs() == static_cast<size_t>(l.num_outputs),
             kInvalidArgument)
      << "_foreach: num_outputs (" << l.num_outputs << ") must be num_out_data (" << l.num_out_data
      << ") plus the " << l.state_locs.size() << " states, and the body has " << Graph(p, 0).num_outputs()
      << " outputs";
  return l;
}

namespace {

// Node input i in body-input order: data, then states, then the rest.
}  // namespace

std::vector<int64_t> ForeachGraphLocs(const ForeachLayout& l) {
  std::vector<int64_t> node_of(l.data_locs.size() + l.state_locs.size() + l.remain_locs.size());
  size_t i = 0;
  for (int64_t x : l.data_locs) node_of[static_cast<size_t>(x)] = static_cast<int64_t>(i++);
  for (int64_t x : l.state_locs) node_of[static_cast<size_t>(x)] = static_cast<int64_t>(i++);
  for (int64_t x : l.remain_locs) node_of[static_cast<size_t>(x)] = static_cast<int64_t>(i++);
  return node_of;
}

namespace {

template <typename T, typename Infer, typename Slice, typename Stack>
bool ForeachInfer(const Params& p, std::vector<T>* in, std::vector<T>* out, Infer infer, Slice slice, Stack stack) {
  const ForeachLayout l = ForeachOf(p);
  const size_t nd = l.data_locs.size(), ns = l.state_locs.size(), nout = static_cast<size_t>(l.num_out_data);
  const std::vector<int64_t> locs = ForeachGraphLocs(l);
  // The body sees one step of the data: its shape without axis 0.
  std::vector<T> step_in = *in;
  for (size_t k = 0; k < nd; ++k) step_in[k] = slice((*in)[k]);
  for (size_t j = 0; j < ns; ++j) Fill(&step_in[nd + j], (*out)[nout + j]);
  std::vector<T> gout = ThroughGraph<T>(p, Graph(p, 0), locs, &step_in, infer);
  for (size_t i = nd; i < in->size(); ++i) Fill(&(*in)[i], step_in[i]);
  for (size_t j = 0; j < ns; ++j) {
    Fill(&(*in)[nd + j], gout[nout + j]);
    Fill(&(*out)[nout + j], gout[nout + j]);
    Fill(&(*out)[nout + j], (*in)[nd + j]);
  }
  for (size_t k = 0; k < nout; ++k) Fill(&(*out)[k], stack((*in)[0], gout[k]));
  return AllKnown(*in, *out);
}

bool ForeachShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  return ForeachInfer<Shape>(
      p, in, out, InferGraphShapes, DropAxis0, [](const Shape& data, const Shape& step) {
        return data.known() && data.ndim() > 0 ? PrependAxis(data.dims()[0], step) : Shape::Unknown();
      });
}
bool ForeachType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  return ForeachInfer<DType>(p, in, out, InferGraphTypes, [](DType t) { return t; },
                             [](DType, DType step) { return step; });
}

// ---- _while_loop ---------------------------------------------------------

}  // namespace

WhileLayout WhileOf(const Params& p) {
  WhileLayout l;
  const size_t n_in = static_cast<size_t>(NumDataInputs(p));
  l.cond_locs = Locs(p, "cond_input_locs", 0, n_in, true);
  l.func_locs = Locs(p, "func_input_locs", 0, n_in, true);
  const size_t func_in = Graph(p, 1).ListInputs().size();
  l.var_locs = Locs(p, "func_var_locs", func_in, n_in, false);
  l.num_out_data = static_cast<int>(p.GetInt("num_out_data"));
  l.max_iterations = p.GetInt("max_iterations");
  WEFT_CHECK(l.cond_locs.size() == Graph(p, 0).ListInputs().size() && l.func_locs.size() == func_in,
             kInvalidArgument)
      << "_while_loop: cond_input_locs/func_input_locs have " << l.cond_locs.size() << "/" << l.func_locs.size()
      << " entries, but the graphs have " << Graph(p, 0).ListInputs().size() << "/" << func_in << " inputs";
  WEFT_CHECK(Graph(p, 0).num_outputs() == 1, kInvalidArgument) << "_while_loop: the condition must have one output";
  WEFT_CHECK(p.GetInt("num_outputs") == l.num_out_data + static_cast<int64_t>(l.var_locs.size()) &&
                 Graph(p, 1).num_outputs() == static_cast<size_t>(p.GetInt("num_outputs")),
             kInvalidArgument)
      << "_while_loop: num_outputs (" << p.GetInt("num_outputs") << ") must be num_out_data (" << l.num_out_data
      << ") plus the " << l.var_locs.size() << " loop variables, and the step function has "
      << Graph(p, 1).num_outputs() << " outputs";
  WEFT_CHECK(l.max_iterations >= 0, kInvalidArgument) << "_while_loop: max_iterations must be >= 0";
  return l;
}

namespace {

template <typename T, typename Infer, typename Stack>
bool WhileInfer(const Params& p, std::vector<T>* in, std::vector<T>* out, Infer infer, Stack stack) {
  const WhileLayout l = WhileOf(p);
  const size_t nout = static_cast<size_t>(l.num_out_data);
  for (size_t k = 0; k < l.var_locs.size(); ++k) {  // a loop variable keeps its shape
    size_t node_in = static_cast<size_t>(l.func_locs[static_cast<size_t>(l.var_locs[k])]);
    Fill(&(*in)[node_in], (*out)[nout + k]);
  }
  ThroughGraph<T>(p, Graph(p, 0), l.cond_locs, in, infer);
  std::vector<T> gout = ThroughGraph<T>(p, Graph(p, 1), l.func_locs, in, infer);
  for (size_t k = 0; k < l.var_locs.size(); ++k) {
    size_t node_in = static_cast<size_t>(l.func_locs[static_cast<size_t>(l.var_locs[k])]);
    Fill(&(*in)[node_in], gout[nout + k]);
    Fill(&(*out)[nout + k], gout[nout + k]);
    Fill(&(*out)[nout + k], (*in)[node_in]);
  }
  for (size_t k = 0; k < nout; ++k) Fill(&(*out)[k], stack(l.max_iterations, gout[k]));
  return AllKnown(*in, *out);
}

bool WhileShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  return WhileInfer<Shape>(p, in, out, InferGraphShapes, PrependAxis);
}
bool WhileType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  return WhileInfer<DType>(p, in, out, InferGraphTypes, [](int64_t, DType t) { return t; });
}

// ---- _cond ---------------------------------------------------------------

}  // namespace

std::vector<int64_t> CondLocs(const Params& p, size_t graph, const char* name) {
  std::vector<int64_t> l = Locs(p, name, 0, static_cast<size_t>(NumDataInputs(p)), true);
  WEFT_CHECK(l.size() == Graph(p, graph).ListInputs().size(), kInvalidArgument)
      << "_cond: " << name << " has " << l.size() << " entries, but its graph has "
      << Graph(p, graph).ListInputs().size() << " inputs";
  return l;
}

namespace {

template <typename T, typename Infer>
bool CondInfer(const Params& p, std::vector<T>* in, std::vector<T>* out, Infer infer) {
  const size_t n = static_cast<size_t>(p.GetInt("num_outputs"));
  WEFT_CHECK(Graph(p, 0).num_outputs() == 1 && Graph(p, 1).num_outputs() == n && Graph(p, 2).num_outputs() == n,
             kInvalidArgument)
      << "_cond: the predicate must have one output and both branches num_outputs (" << n << "); they have "
      << Graph(p, 0).num_outputs() << ", " << Graph(p, 1).num_outputs() << " and " << Graph(p, 2).num_outputs();
  ThroughGraph<T>(p, Graph(p, 0), CondLocs(p, 0, "cond_input_locs"), in, infer);
  std::vector<T> t = ThroughGraph<T>(p, Graph(p, 1), CondLocs(p, 1, "then_input_locs"), in, infer);
  std::vector<T> e = ThroughGraph<T>(p, Graph(p, 2), CondLocs(p, 2, "else_input_locs"), in, infer);
  for (size_t k = 0; k < n; ++k) {
    Fill(&(*out)[k], t[k]);
    Fill(&(*out)[k], e[k]);
  }
  return AllKnown(*in, *out);
}

bool CondShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  return CondInfer<Shape>(p, in, out, InferGraphShapes);
}
bool CondType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  return CondInfer<DType>(p, in, out, InferGraphTypes);
}

// ---- gradients -----------------------------------------------------------

// The gradient graph of g: its outputs are the gradients of all of g's inputs
// (ListInputs order), its inputs g's inputs plus one head gradient per output,
// named HeadGradName(k).
Symbol GradGraph(const Symbol& g) {
  std::vector<NodeEntry> heads = g.outputs, head_grads, xs;
  for (size_t k = 0; k < heads.size(); ++k) head_grads.push_back(NodeEntry{Node::Variable(HeadGradName(k)), 0, 0});
  std::map<std::string, NodePtr> vars;
  PostOrderDFS(heads, [&](const NodePtr& n) {
    if (n->is_variable()) vars.emplace(n->name, n);
  });
  for (const std::string& name : g.ListInputs()) xs.push_back(NodeEntry{vars.at(name), 0, 0});
  Symbol s;
  s.outputs = BuildGradient(heads, head_grads, xs);
  return s;
}

std::vector<NodeEntry> SubgraphGradient(const NodePtr& n, const std::vector<NodeEntry>& out_grads) {
  const std::string bwd = "_backward" + n->op->name;
  std::map<std::string, std::string> attrs;
  for (const auto& kv : n->attrs)
    if (kv.first.compare(0, 2, "__") != 0) attrs.insert(kv);
  std::vector<NodeEntry> inputs = out_grads;
  inputs.insert(inputs.end(), n->inputs.begin(), n->inputs.end());
  auto b = std::make_shared<Node>();
  b->op = &OpRegistry::Get()->FindOrThrow(bwd);
  b->op_name = b->op->name;
  b->name = n->name + "_backward";
  b->attrs = std::move(attrs);
  b->inputs = std::move(inputs);
  auto subs = std::make_shared<SubgraphList>(*NodeSubgraphs(*n));
  const size_t nf = subs->size();
  for (size_t i = n->op->name == "_cond" ? 1 : nf - 1; i < nf; ++i) subs->push_back(GradGraph((*subs)[i]));
  SetNodeSubgraphs(b.get(), std::move(subs));
  std::vector<NodeEntry> grads;
  for (size_t i = 0; i < n->inputs.size(); ++i) grads.push_back(OutputOf(b, static_cast<uint32_t>(i)));
  return grads;
}

// ---- the declarations ----------------------------------------------------

FListNames ArgNames(int offset) {
  return [offset](const Params& p) {
    std::vector<std::string> names;
    for (int i = 0; i < offset; ++i) names.push_back("head_grad" + std::to_string(i));
    for (int i = 0; i < NumDataInputs(p); ++i) names.push_back("arg" + std::to_string(i));
    return names;
  };
}

// The kernel in the op's slot (Note [Subgraph kernel slots]).
FCompute Kernel(SubgraphSlot slot, const std::string& op) {
  return [slot, op](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req,
                    const std::vector<TensorView>& out) { SubgraphKernel(slot, op)(ctx, p, in, req, out); };
}

OpDef& Common(OpDef& d, SubgraphSlot slot, FCompute gpu) {
  d.add_required_param("num_args", ParamType::kInt, "Number of inputs, the subgraph(s) included.")
      .add_required_param("num_outputs", ParamType::kInt, "The number of outputs of the subgraph.")
      .set_compute_cpu(Kernel(slot, d.name))
      .set_has_subgraphs()
      .set_compute_gpu(std::move(gpu));
  // The inputs are variadic (the bindings take them positionally); num_args
  // also counts the graphs, so list_input_names, not the count, names them.
  d.set_variadic("num_args");
  return d;
}

OpDef& Backward(OpDef& d, SubgraphSlot slot, FCompute gpu) {
  Common(d, slot, std::move(gpu));
  d.list_input_names = [](const Params& p) {
    std::vector<std::string> n = ArgNames(static_cast<int>(p.GetInt("num_outputs")))(p);
    return n;
  };
  d.set_num_outputs([](const Params& p) { return NumDataInputs(p); });
  d.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
    const size_t no = static_cast<size_t>(p.GetInt("num_outputs"));
    for (size_t i = 0; i < out->size(); ++i) Fill(&(*out)[i], (*in)[no + i]);
    return AllKnown(*in, *out);
  });
  d.set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
    const size_t no = static_cast<size_t>(p.GetInt("num_outputs"));
    for (size_t i = 0; i < out->size(); ++i) Fill(&(*out)[i], (*in)[no + i]);
    return AllKnown(*in, *out);
  });
  return d;
}

}  // namespace

std::string HeadGradName(size_t k) { return "__head_grad" + std::to_string(k) + "__"; }

namespace {
void AddForeachParams(OpDef& d) {
  d.add_required_param("num_out_data", ParamType::kInt, "The number of output data of the subgraph.")
      .add_required_param("in_state_locs", ParamType::kShape, "The locations of loop states among the inputs.")
      .add_required_param("in_data_locs", ParamType::kShape, "The locations of input data among the inputs.")
      .add_required_param("remain_locs", ParamType::kShape, "The locations of remaining data among the inputs.");
}
void AddWhileParams(OpDef& d) {
  d.add_required_param("num_out_data", ParamType::kInt, "The number of outputs from the function body.")
      .add_required_param("max_iterations", ParamType::kInt, "Maximum number of iterations.")
      .add_required_param("cond_input_locs", ParamType::kShape, "The locations of cond's inputs in the given inputs.")
      .add_required_param("func_input_locs", ParamType::kShape, "The locations of func's inputs in the given inputs.")
      .add_required_param("func_var_locs", ParamType::kShape, "The locations of loop_vars among func's inputs.");
}
void AddCondParams(OpDef& d) {
  d.add_required_param("cond_input_locs", ParamType::kShape, "The locations of cond's inputs in the given inputs.")
      .add_required_param("then_input_locs", ParamType::kShape, "The locations of then's inputs in the given inputs.")
      .add_required_param("else_input_locs", ParamType::kShape, "The locations of else's inputs in the given inputs.");
}

[[maybe_unused]] const bool kRegistered = [] {
  WEFT_REGISTER_OP(foreach_decl, "_foreach");
  OpDef& fe = Common(foreach_decl, SubgraphSlot::kForeach, WEFT_GPU(cuda::ForeachGpu));
  AddForeachParams(fe);
  fe.describe("Runs a for loop over axis 0 of the data with the body subgraph (mx.sym.contrib.foreach); "
              "outputs: the per-step outputs stacked along axis 0, then the final states.");
  fe.list_input_names = ArgNames(0);
  fe.set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_outputs")); });
  fe.set_infer_shape(ForeachShape).set_infer_type(ForeachType).set_gradient(SubgraphGradient);

  WEFT_REGISTER_OP(while_loop_decl, "_while_loop");
  OpDef& wl = Common(while_loop_decl, SubgraphSlot::kWhileLoop, WEFT_GPU(cuda::WhileLoopGpu));
  AddWhileParams(wl);
  wl.describe("Runs func while cond holds, at most max_iterations times (mx.sym.contrib.while_loop); outputs: "
              "the step outputs stacked along axis 0 and padded to max_iterations rows, then the loop variables.");
  wl.list_input_names = ArgNames(0);
  wl.set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_outputs")); });
  wl.set_infer_shape(WhileShape).set_infer_type(WhileType).set_gradient(SubgraphGradient);

  WEFT_REGISTER_OP(cond_decl, "_cond");
  OpDef& cd = Common(cond_decl, SubgraphSlot::kCond, WEFT_GPU(cuda::CondGpu));
  AddCondParams(cd);
  cd.describe("Runs the then or the else branch as the predicate subgraph says (mx.sym.contrib.cond).");
  cd.list_input_names = ArgNames(0);
  cd.set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_outputs")); });
  cd.set_infer_shape(CondShape).set_infer_type(CondType).set_gradient(SubgraphGradient);

  WEFT_REGISTER_OP(backward_foreach_decl, "_backward_foreach");
  AddForeachParams(Backward(backward_foreach_decl, SubgraphSlot::kForeachBackward, WEFT_GPU(cuda::ForeachBackwardGpu)).describe("Backward of _foreach."));
  WEFT_REGISTER_OP(backward_while_loop_decl, "_backward_while_loop");
  AddWhileParams(Backward(backward_while_loop_decl, SubgraphSlot::kWhileLoopBackward,
                          WEFT_GPU(cuda::WhileLoopBackwardGpu)).describe("Backward of _while_loop."));
  WEFT_REGISTER_OP(backward_cond_decl, "_backward_cond");
  AddCondParams(Backward(backward_cond_decl, SubgraphSlot::kCondBackward, WEFT_GPU(cuda::CondBackwardGpu)).describe("Backward of _cond."));
  return true;
}();
}  // namespace

}  // namespace control
}  // namespace weft
