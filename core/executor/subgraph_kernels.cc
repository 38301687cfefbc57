// The kernels of _foreach, _while_loop, _cond and their backward ops (Note
// [Subgraph operators] in core/op/control/subgraph_ops.h): each step runs a
// subgraph op by op through the imperative path (CachedOp::RunInline) on
// NDArrays that view the node's buffers, on the node's device. The pushes run
// on the kernel's own thread (Note [Inline pushes]), and every array handed
// out is waited on before the kernel returns, as a custom operator does.
#include <memory>
#include <string>
#include <vector>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/engine/engine.h"
#include "core/engine/inline_push.h"
#include "core/executor/cached_op.h"
#include "core/ndarray/imperative.h"
#include "core/op/control/subgraph_ops.h"

namespace weft {
namespace control {
namespace {

using Arrays = std::vector<NDArray>;

// One kernel call: inline pushes, no recording (the naive engine runs the
// kernel on a thread that may be recording), the views it made.
class Step {
 public:
  explicit Step(const OpContext& ctx) : inline_(), ctx_(ctx), was_recording_(Autograd::SetRecording(false)) {}
  ~Step() {
    for (const NDArray& a : wrapped_) {
      try {
        Engine::Get()->WaitForVar(a.var());
      } catch (...) {  // the kernel is throwing already; only its buffers must be quiet
      }
    }
    Autograd::SetRecording(was_recording_);
  }
  // Waits for everything pushed on the node's buffers; rethrows an op's error.
  void Finish() {
    for (const NDArray& a : wrapped_) Engine::Get()->WaitForVar(a.var());
  }
  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;

  Arrays Wrap(const std::vector<TensorView>& views) {
    static char not_owned;
    Arrays r;
    for (const TensorView& v : views) {
      std::shared_ptr<void> owner(&not_owned, [](void*) {});
      r.push_back(NDArray::WrapExternal(v.data, v.shape, v.dtype, ctx_.ctx, std::move(owner)));
      wrapped_.push_back(r.back());
    }
    return r;
  }

  Arrays Run(const Symbol& g, const std::vector<std::string>& names, const Arrays& in) {
    return CachedOp::RunInline(g, names, in, ctx_.is_train);
  }

  NDArray Call(const char* op, const Arrays& in, const AttrList& attrs = {}) {
    std::vector<NDArray> out;
    Invoke(OpRegistry::Get()->FindOrThrow(op), attrs, in, &out, ctx_.is_train);
    return out.at(0);
  }
  NDArray Add(const NDArray& a, const NDArray& b) { return a.is_none() ? b : Call("elemwise_add", {a, b}); }
  NDArray Zeros(const NDArray& like) { return Call("zeros_like", {like}); }

  // dst (a view of an output) <- src as req says.
  void Store(const NDArray& src, const NDArray& dst, OpReq req) {
    if (req == OpReq::kNull || dst.shape().Size() == 0) return;
    WEFT_CHECK(src.shape() == dst.shape(), kShape)
        << "control flow: a subgraph output has shape " << src.shape().ToString() << ", expected "
        << dst.shape().ToString() << " (every step must give the shapes inference found)";
    NDArray::Copy(req == OpReq::kAddTo ? Call("elemwise_add", {dst, src}) : src, dst);
  }

  bool Truth(const NDArray& pred) {
    WEFT_CHECK(pred.shape().Size() == 1, kShape)
        << "control flow: the condition must be a scalar (one element), got shape " << pred.shape().ToString();
    NDArray host = Call("Cast", {pred}, {{"dtype", "float64"}}).CopyTo(Context::CPU(0));
    double v = 0;
    host.SyncCopyToHost(&v, sizeof v);
    return v != 0;
  }

 private:
  InlinePushScope inline_;
  const OpContext& ctx_;
  bool was_recording_;
  Arrays wrapped_;
};

std::vector<std::string> WithHeadGrads(std::vector<std::string> names, size_t n) {
  for (size_t k = 0; k < n; ++k) names.push_back(HeadGradName(k));
  return names;
}

// ---- _foreach ------------------------------------------------------------

struct Foreach {
  ForeachLayout l;
  const Symbol* body;
  std::vector<std::string> names;
  std::vector<int64_t> locs;  // node input per body input
  size_t nd, ns, nout;
  int64_t steps;

  Foreach(const Params& p, const Arrays& x) : l(ForeachOf(p)), body(&Graph(p, 0)), names(body->ListInputs()),
        locs(ForeachGraphLocs(l)), nd(l.data_locs.size()), ns(l.state_locs.size()),
        nout(static_cast<size_t>(l.num_out_data)) {
    WEFT_CHECK(nd > 0 && x[0].shape().ndim() > 0, kInvalidArgument) << "_foreach: data must have an axis 0";
    steps = x[0].shape()[0];
    for (size_t k = 1; k < nd; ++k)
      WEFT_CHECK(x[k].shape().ndim() > 0 && x[k].shape()[0] == steps, kShape)
          << "_foreach: the data arrays must have the same length on axis 0";
  }
  Arrays Inputs(const Arrays& x, const Arrays& states, int64_t t) const {
    Arrays in(locs.size());
    for (size_t b = 0; b < locs.size(); ++b) {
      size_t i = static_cast<size_t>(locs[b]);
      in[b] = i < nd ? x[i].At(t) : i < nd + ns ? states[i - nd] : x[i];
    }
    return in;
  }
};

void ForeachForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Step s(ctx);
  Arrays x = s.Wrap(in), y = s.Wrap(out);
  Foreach f(p, x);
  Arrays states(x.begin() + static_cast<std::ptrdiff_t>(f.nd), x.begin() + static_cast<std::ptrdiff_t>(f.nd + f.ns));
  for (int64_t t = 0; t < f.steps; ++t) {
    Arrays r = s.Run(*f.body, f.names, f.Inputs(x, states, t));
    for (size_t k = 0; k < f.nout; ++k) s.Store(r[k], y[k].At(t), req[k]);
    for (size_t j = 0; j < f.ns; ++j) states[j] = r[f.nout + j];
  }
  for (size_t j = 0; j < f.ns; ++j) s.Store(states[j], y[f.nout + j], req[f.nout + j]);
  s.Finish();
}

void ForeachBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Step s(ctx);
  Arrays all = s.Wrap(in), gx = s.Wrap(out);
  const size_t no = static_cast<size_t>(p.GetInt("num_outputs"));
  Arrays og(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(no)), x(all.begin() + static_cast<std::ptrdiff_t>(no), all.end());
  Foreach f(p, x);
  const Symbol& grad = Graph(p, 1);
  const std::vector<std::string> gnames = WithHeadGrads(f.names, no);
  // The states entering each step, recomputed.
  std::vector<Arrays> history;
  Arrays states(x.begin() + static_cast<std::ptrdiff_t>(f.nd), x.begin() + static_cast<std::ptrdiff_t>(f.nd + f.ns));
  for (int64_t t = 0; t < f.steps; ++t) {
    history.push_back(states);
    Arrays r = s.Run(*f.body, f.names, f.Inputs(x, states, t));
    for (size_t j = 0; j < f.ns; ++j) states[j] = r[f.nout + j];
  }
  Arrays gstate(og.begin() + static_cast<std::ptrdiff_t>(f.nout), og.end());
  Arrays gremain(x.size());
  for (int64_t t = f.steps - 1; t >= 0; --t) {
    Arrays gin = f.Inputs(x, history[static_cast<size_t>(t)], t);
    for (size_t k = 0; k < f.nout; ++k) gin.push_back(og[k].At(t));
    for (size_t j = 0; j < f.ns; ++j) gin.push_back(gstate[j]);
    Arrays g = s.Run(grad, gnames, gin);
    for (size_t b = 0; b < f.locs.size(); ++b) {
      size_t i = static_cast<size_t>(f.locs[b]);
      if (i < f.nd) s.Store(g[b], gx[i].At(t), req[i]);
      else if (i < f.nd + f.ns) gstate[i - f.nd] = g[b];
      else gremain[i] = s.Add(gremain[i], g[b]);
    }
  }
  for (size_t j = 0; j < f.ns; ++j) s.Store(gstate[j], gx[f.nd + j], req[f.nd + j]);
  for (size_t i = f.nd + f.ns; i < x.size(); ++i) s.Store(gremain[i].is_none() ? s.Zeros(x[i]) : gremain[i], gx[i], req[i]);
  s.Finish();
}

// ---- _while_loop ---------------------------------------------------------

struct While {
  WhileLayout l;
  const Symbol *cond, *func;
  std::vector<std::string> cond_names, func_names;
  std::vector<size_t> var_node;  // node input of each loop variable
  size_t nout;

  explicit While(const Params& p) : l(WhileOf(p)), cond(&Graph(p, 0)), func(&Graph(p, 1)),
        cond_names(cond->ListInputs()), func_names(func->ListInputs()), nout(static_cast<size_t>(l.num_out_data)) {
    for (int64_t v : l.var_locs) var_node.push_back(static_cast<size_t>(l.func_locs[static_cast<size_t>(v)]));
  }
  static Arrays Gather(const Arrays& cur, const std::vector<int64_t>& locs) {
    Arrays r;
    for (int64_t i : locs) r.push_back(cur[static_cast<size_t>(i)]);
    return r;
  }
  // Runs the loop from `cur`; keeps the variables entering each step when asked.
  int64_t Loop(Step& s, Arrays* cur, std::vector<Arrays>* history, const Arrays* y, const std::vector<OpReq>* req) const {
    int64_t t = 0;
    for (; t < l.max_iterations; ++t) {
      if (!s.Truth(s.Run(*cond, cond_names, Gather(*cur, l.cond_locs)).at(0))) break;
      if (history) history->push_back(*cur);
      Arrays r = s.Run(*func, func_names, Gather(*cur, l.func_locs));
      if (y)
        for (size_t k = 0; k < nout; ++k) s.Store(r[k], (*y)[k].At(t), (*req)[k]);
      for (size_t k = 0; k < var_node.size(); ++k) (*cur)[var_node[k]] = r[nout + k];
    }
    return t;
  }
};

void WhileForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Step s(ctx);
  Arrays cur = s.Wrap(in), y = s.Wrap(out);
  While w(p);
  const int64_t steps = w.Loop(s, &cur, nullptr, &y, &req);
  // MXNet leaves the rows after the last step undefined; they are zeros here.
  for (size_t k = 0; k < w.nout; ++k)
    if (steps < w.l.max_iterations) {
      NDArray rest = y[k].Slice(steps, w.l.max_iterations);
      s.Store(s.Zeros(rest), rest, req[k] == OpReq::kAddTo ? OpReq::kNull : req[k]);
    }
  for (size_t k = 0; k < w.var_node.size(); ++k) s.Store(cur[w.var_node[k]], y[w.nout + k], req[w.nout + k]);
  s.Finish();
}

void WhileBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Step s(ctx);
  Arrays all = s.Wrap(in), gx = s.Wrap(out);
  const size_t no = static_cast<size_t>(p.GetInt("num_outputs"));
  Arrays og(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(no)), cur(all.begin() + static_cast<std::ptrdiff_t>(no), all.end());
  const Arrays x = cur;
  While w(p);
  const Symbol& grad = Graph(p, 2);
  const std::vector<std::string> gnames = WithHeadGrads(w.func_names, no);
  std::vector<Arrays> history;
  const int64_t steps = w.Loop(s, &cur, &history, nullptr, nullptr);
  std::vector<int> var_of(w.func_names.size(), -1);  // func input -> loop variable
  for (size_t k = 0; k < w.l.var_locs.size(); ++k) var_of[static_cast<size_t>(w.l.var_locs[k])] = static_cast<int>(k);
  Arrays gvar(og.begin() + static_cast<std::ptrdiff_t>(w.nout), og.end());
  Arrays acc(x.size());
  for (int64_t t = steps - 1; t >= 0; --t) {
    Arrays gin = While::Gather(history[static_cast<size_t>(t)], w.l.func_locs);
    for (size_t k = 0; k < w.nout; ++k) gin.push_back(og[k].At(t));
    for (const NDArray& g : gvar) gin.push_back(g);
    Arrays g = s.Run(grad, gnames, gin);
    Arrays next = gvar;
    for (size_t j = 0; j < g.size(); ++j) {
      if (var_of[j] >= 0) next[static_cast<size_t>(var_of[j])] = g[j];
      else acc[static_cast<size_t>(w.l.func_locs[j])] = s.Add(acc[static_cast<size_t>(w.l.func_locs[j])], g[j]);
    }
    gvar = next;
  }
  for (size_t k = 0; k < w.var_node.size(); ++k) acc[w.var_node[k]] = s.Add(acc[w.var_node[k]], gvar[k]);
  for (size_t i = 0; i < x.size(); ++i) s.Store(acc[i].is_none() ? s.Zeros(x[i]) : acc[i], gx[i], req[i]);
  s.Finish();
}

// ---- _cond ---------------------------------------------------------------

size_t Branch(Step& s, const Params& p, const Arrays& x) {
  const Symbol& pred = Graph(p, 0);
  return s.Truth(s.Run(pred, pred.ListInputs(), While::Gather(x, CondLocs(p, 0, "cond_input_locs"))).at(0)) ? 1 : 2;
}
const char* BranchLocs(size_t b) { return b == 1 ? "then_input_locs" : "else_input_locs"; }

void CondForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Step s(ctx);
  Arrays x = s.Wrap(in), y = s.Wrap(out);
  const size_t b = Branch(s, p, x);
  const Symbol& g = Graph(p, b);
  Arrays r = s.Run(g, g.ListInputs(), While::Gather(x, CondLocs(p, b, BranchLocs(b))));
  for (size_t k = 0; k < y.size(); ++k) s.Store(r[k], y[k], req[k]);
  s.Finish();
}

void CondBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Step s(ctx);
  Arrays all = s.Wrap(in), gx = s.Wrap(out);
  const size_t no = static_cast<size_t>(p.GetInt("num_outputs"));
  Arrays og(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(no)), x(all.begin() + static_cast<std::ptrdiff_t>(no), all.end());
  const size_t b = Branch(s, p, x);
  const std::vector<int64_t> locs = CondLocs(p, b, BranchLocs(b));
  const Symbol& g = Graph(p, b);  // graphs: pred, then, else, then's gradient, else's gradient
  Arrays gin = While::Gather(x, locs);
  gin.insert(gin.end(), og.begin(), og.end());
  Arrays gr = s.Run(Graph(p, b + 2), WithHeadGrads(g.ListInputs(), no), gin);
  Arrays acc(x.size());
  for (size_t j = 0; j < locs.size(); ++j) acc[static_cast<size_t>(locs[j])] = s.Add(acc[static_cast<size_t>(locs[j])], gr[j]);
  for (size_t i = 0; i < x.size(); ++i) s.Store(acc[i].is_none() ? s.Zeros(x[i]) : acc[i], gx[i], req[i]);
  s.Finish();
}

[[maybe_unused]] const bool kInstalled = [] {
  SetSubgraphKernel(SubgraphSlot::kForeach, ForeachForward);
  SetSubgraphKernel(SubgraphSlot::kForeachBackward, ForeachBackward);
  SetSubgraphKernel(SubgraphSlot::kWhileLoop, WhileForward);
  SetSubgraphKernel(SubgraphSlot::kWhileLoopBackward, WhileBackward);
  SetSubgraphKernel(SubgraphSlot::kCond, CondForward);
  SetSubgraphKernel(SubgraphSlot::kCondBackward, CondBackward);
  return true;
}();

}  // namespace
}  // namespace control
}  // namespace weft
