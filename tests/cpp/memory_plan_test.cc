// Memory planning: every strategy's plan passes the verifier, the strategies
// order as expected (both <= inplace/coshare <= naive), the lower bound is
// below every plan, and a corrupted plan is caught.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/graph/gradient.h"
#include "core/graph/infer.h"
#include "core/graph/memory_plan.h"
#include "core/graph/symbol.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

using Shapes = std::unordered_map<std::string, Shape>;

Symbol Op(const std::string& op, const std::string& name, const std::vector<Symbol>& args,
          std::map<std::string, std::string> attrs = {}) {
  return Symbol::Compose(OpRegistry::Get()->FindOrThrow(op), name, std::move(attrs), args, {});
}

struct Planned {
  std::map<PlanStrategy, MemoryPlan> plans;
  std::vector<int64_t> bytes;
};

const PlanStrategy kAll[] = {PlanStrategy::kNaive, PlanStrategy::kInplace, PlanStrategy::kCoShare, PlanStrategy::kBoth};

int NumStorages(const MemoryPlan& p) { return static_cast<int>(p.storage_bytes.size()); }

// Plans `heads` under every strategy, checks each plan and the ordering.
Planned PlanAll(const std::vector<NodeEntry>& heads, const Shapes& shapes, const std::vector<bool>& external = {}) {
  IndexedGraph g(heads);
  ShapeInference si = InferShapes(g, shapes);
  TypeInference ti = InferTypes(g, {});
  EXPECT_EQ(si.num_unknown, 0u);
  Planned r;
  r.bytes = EntryBytes(g, si, ti);
  for (PlanStrategy s : kAll) {
    MemoryPlan p = PlanMemory(g, r.bytes, external, s);
    EXPECT_NO_THROW(CheckMemoryPlan(g, p, &r.bytes)) << PlanStrategyName(s);
    EXPECT_LE(p.lower_bound_bytes, p.total_bytes) << PlanStrategyName(s);
    r.plans[s] = p;
  }
  for (int colors : {2, 4}) {  // the path-coloured co-share (Note [Path colouring])
    for (PlanStrategy s : {PlanStrategy::kCoShare, PlanStrategy::kBoth}) {
      MemoryPlan p = PlanMemory(g, r.bytes, external, s, colors);
      EXPECT_NO_THROW(CheckMemoryPlan(g, p, &r.bytes)) << PlanStrategyName(s) << " colours " << colors;
      EXPECT_LE(p.lower_bound_bytes, p.total_bytes);
      EXPECT_LE(p.total_bytes, r.plans[PlanStrategy::kNaive].total_bytes);
    }
  }
  const int64_t naive = r.plans[PlanStrategy::kNaive].total_bytes;
  if (naive > 0) {
    EXPECT_GT(r.plans[PlanStrategy::kNaive].lower_bound_bytes, 0);
  }
  const int64_t inplace = r.plans[PlanStrategy::kInplace].total_bytes;
  const int64_t coshare = r.plans[PlanStrategy::kCoShare].total_bytes;
  const int64_t both = r.plans[PlanStrategy::kBoth].total_bytes;
  EXPECT_LE(inplace, naive);
  EXPECT_LE(coshare, naive);
  EXPECT_LE(both, inplace);
  EXPECT_LE(both, coshare);
  // The schedule is the same for every strategy, so is the bound.
  for (PlanStrategy s : kAll) EXPECT_EQ(r.plans[s].lower_bound_bytes, r.plans[PlanStrategy::kNaive].lower_bound_bytes);
  return r;
}

TEST(MemoryPlan, ParseStrategy) {
  EXPECT_EQ(ParsePlanStrategy("naive"), PlanStrategy::kNaive);
  EXPECT_EQ(ParsePlanStrategy("inplace"), PlanStrategy::kInplace);
  EXPECT_EQ(ParsePlanStrategy("coshare"), PlanStrategy::kCoShare);
  EXPECT_EQ(ParsePlanStrategy("both"), PlanStrategy::kBoth);
  try {
    ParsePlanStrategy("greedy");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("greedy"), std::string::npos);
  }
}

TEST(MemoryPlan, ElementwiseChainInplaceUsesOneStorage) {
  Symbol x = Symbol::Variable("x");
  Symbol y = Op("exp", "e3", {Op("exp", "e2", {Op("exp", "e1", {x})})});
  Planned r = PlanAll(y.outputs, {{"x", Shape{4, 8}}});
  const int64_t one = 4 * 8 * 4;
  EXPECT_EQ(NumStorages(r.plans[PlanStrategy::kNaive]), 3);
  EXPECT_EQ(r.plans[PlanStrategy::kNaive].total_bytes, 3 * one);
  EXPECT_EQ(NumStorages(r.plans[PlanStrategy::kInplace]), 1);
  EXPECT_EQ(r.plans[PlanStrategy::kInplace].total_bytes, one);
  EXPECT_EQ(NumStorages(r.plans[PlanStrategy::kBoth]), 1);
  // Without in-place, e1 is freed after e2 is written: e1/e3 share, e2 alone.
  EXPECT_EQ(NumStorages(r.plans[PlanStrategy::kCoShare]), 2);
  EXPECT_EQ(r.plans[PlanStrategy::kNaive].lower_bound_bytes, one);
}

TEST(MemoryPlan, DiamondKeepsBranchesApart) {
  // a = exp(x); b = sin(a); c = cos(a); d = b + c; e = exp(d)
  Symbol x = Symbol::Variable("x");
  Symbol a = Op("exp", "a", {x});
  Symbol b = Op("sin", "b", {a});
  Symbol c = Op("cos", "c", {a});
  Symbol d = Op("elemwise_add", "d", {b, c});
  Symbol e = Op("exp", "e", {d});
  Planned r = PlanAll(e.outputs, {{"x", Shape{16}}});
  // a has two readers, so b cannot overwrite it; c can (it is a's last reader).
  const MemoryPlan& ip = r.plans[PlanStrategy::kInplace];
  IndexedGraph g(e.outputs);
  auto sid = [&](const Symbol& s) { return ip.storage_id[g.entry_id(g.node_id(s.outputs[0].node.get()), 0)]; };
  EXPECT_NE(sid(a), sid(b));
  EXPECT_EQ(sid(a), sid(c));
  EXPECT_EQ(sid(d), sid(e));
  EXPECT_LT(NumStorages(r.plans[PlanStrategy::kBoth]), NumStorages(r.plans[PlanStrategy::kNaive]));
}

TEST(MemoryPlan, PathColouringKeepsParallelBranchesApart) {
  Symbol x = Symbol::Variable("x");
  Symbol p = Op("exp", "p3", {Op("exp", "p2", {Op("exp", "p1", {x})})});
  Symbol q = Op("sin", "q3", {Op("sin", "q2", {Op("sin", "q1", {x})})});
  Symbol out = Op("elemwise_add", "sum", {p, q});
  IndexedGraph g(out.outputs);
  ShapeInference si = InferShapes(g, {{"x", Shape{10}}});
  std::vector<int64_t> bytes = EntryBytes(g, si, InferTypes(g, {}));
  // Does some storage hold an entry of each branch?
  auto crosses = [&](const MemoryPlan& plan) {
    std::map<int, std::string> seen;
    for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
      int sid = plan.storage_id[g.entry_id(static_cast<uint32_t>(nid), 0)];
      const std::string& name = g[nid].source->name;
      if (sid < 0 || (name[0] != 'p' && name[0] != 'q')) continue;
      auto it = seen.emplace(sid, name.substr(0, 1)).first;
      if (it->second != name.substr(0, 1)) return true;
    }
    return false;
  };
  MemoryPlan flat = PlanMemory(g, bytes, {}, PlanStrategy::kCoShare, 1);
  MemoryPlan coloured = PlanMemory(g, bytes, {}, PlanStrategy::kCoShare, 3);
  CheckMemoryPlan(g, flat, &bytes);
  CheckMemoryPlan(g, coloured, &bytes);
  EXPECT_TRUE(crosses(flat));
  EXPECT_FALSE(crosses(coloured));
  EXPECT_GE(coloured.total_bytes, flat.total_bytes);
  EXPECT_THROW(PlanMemory(g, bytes, {}, PlanStrategy::kCoShare, 0), Error);
}

TEST(MemoryPlan, ExternalEntriesAreNotPlanned) {
  Symbol x = Symbol::Variable("x");
  Symbol e1 = Op("exp", "e1", {x});
  Symbol e2 = Op("exp", "e2", {e1});
  Symbol out = Symbol::Group({e1, e2});  // e1 is also an output
  IndexedGraph g(out.outputs);
  std::vector<bool> external(g.num_entries(), false);
  external[g.entry_id(g.outputs()[0])] = true;  // the caller keeps e1
  Planned r = PlanAll(out.outputs, {{"x", Shape{3}}}, external);
  for (PlanStrategy s : kAll) {
    const MemoryPlan& p = r.plans[s];
    EXPECT_EQ(p.storage_id[g.entry_id(g.outputs()[0])], -1);
    EXPECT_EQ(p.storage_id[g.entry_id(g.arg_nodes()[0], 0)], -1);
    EXPECT_EQ(p.total_bytes, 12) << PlanStrategyName(s);  // only e2, never over e1 (external)
  }
}

TEST(MemoryPlan, UnpinnedOutputsStayLive) {
  // e1 is a graph output nobody pinned: e2 must not overwrite it.
  Symbol x = Symbol::Variable("x");
  Symbol e1 = Op("exp", "e1", {x});
  Symbol e2 = Op("exp", "e2", {e1});
  Planned r = PlanAll(Symbol::Group({e1, e2}).outputs, {{"x", Shape{3}}});
  for (PlanStrategy s : kAll) EXPECT_EQ(NumStorages(r.plans[s]), 2) << PlanStrategyName(s);
}

// A two-layer MLP with softmax loss, forward and backward in one graph as the
// executor builds it; gradients of the weights are written to user arrays.
struct Mlp {
  std::vector<NodeEntry> heads;
  size_t num_forward_outputs = 0;
};

Mlp BuildMlp() {
  Symbol data = Symbol::Variable("data");
  Symbol label = Symbol::Variable("label");
  Symbol fc1 = Op("FullyConnected", "fc1", {data}, {{"num_hidden", "128"}});
  Symbol act1 = Op("Activation", "relu1", {fc1}, {{"act_type", "relu"}});
  Symbol fc2 = Op("FullyConnected", "fc2", {act1}, {{"num_hidden", "64"}});
  Symbol act2 = Op("Activation", "relu2", {fc2}, {{"act_type", "relu"}});
  Symbol fc3 = Op("FullyConnected", "fc3", {act2}, {{"num_hidden", "10"}});
  Symbol out = Op("SoftmaxOutput", "softmax", {fc3, label});
  std::vector<NodeEntry> xs;
  PostOrderDFS(out.outputs, [&](const NodePtr& n) {
    if (n->is_variable() && n->name != "data" && n->name != "label") xs.push_back(NodeEntry{n, 0, 0});
  });
  std::vector<NodeEntry> head_grads = {NodeEntry{Node::Variable("_head_grad0"), 0, 0}};
  std::vector<NodeEntry> grads = BuildGradient(out.outputs, head_grads, xs);
  Mlp m;
  m.heads = out.outputs;
  m.num_forward_outputs = m.heads.size();
  m.heads.insert(m.heads.end(), grads.begin(), grads.end());
  return m;
}

TEST(MemoryPlan, MlpForwardBackward) {
  Mlp m = BuildMlp();
  const Shapes shapes = {{"data", Shape{32, 256}}, {"label", Shape{32}}, {"_head_grad0", Shape{32, 10}}};
  IndexedGraph g(m.heads);
  // Outputs (the prediction and every gradient) go to caller-owned arrays.
  std::vector<bool> external(g.num_entries(), false);
  for (const auto& o : g.outputs()) external[g.entry_id(o)] = true;
  Planned r = PlanAll(m.heads, shapes, external);
  if (std::getenv("WEFT_PLAN_DUMP")) {
    EntryLifetimes lt = ComputeLifetimes(g);
    for (size_t nid = 0; nid < g.num_nodes(); ++nid)
      for (uint32_t e = g.row_ptr()[nid]; e < g.row_ptr()[nid + 1]; ++e)
        std::printf("%3u %-28s %6lld live %2lld..%2lld  naive %2d inplace %2d coshare %2d both %2d\n", e,
                    g[nid].source->name.c_str(), (long long)r.bytes[e], (long long)lt.first[e], (long long)lt.last[e],
                    r.plans[PlanStrategy::kNaive].storage_id[e], r.plans[PlanStrategy::kInplace].storage_id[e],
                    r.plans[PlanStrategy::kCoShare].storage_id[e], r.plans[PlanStrategy::kBoth].storage_id[e]);
    for (PlanStrategy s : kAll) {
      std::printf("%s:", PlanStrategyName(s));
      for (int64_t b : r.plans[s].storage_bytes) std::printf(" %lld", (long long)b);
      std::printf("\n");
    }
  }
  const int64_t naive = r.plans[PlanStrategy::kNaive].total_bytes;
  EXPECT_LT(r.plans[PlanStrategy::kBoth].total_bytes, naive);
  EXPECT_LT(r.plans[PlanStrategy::kInplace].total_bytes, naive);  // relu fwd/bwd run in place
  for (int colors : {2, 4}) {
    MemoryPlan p = PlanMemory(g, r.bytes, external, PlanStrategy::kBoth, colors);
    std::printf("[ memory  ] MLP 256-128-64-10 batch 32 fwd+bwd: both, %d colours %8lld bytes in %3d storages\n",
                colors, static_cast<long long>(p.total_bytes), NumStorages(p));
  }
  for (PlanStrategy s : kAll)
    std::printf("[ memory  ] MLP 256-128-64-10 batch 32 fwd+bwd: %-8s %8lld bytes in %3d storages (lower bound %lld)\n",
                PlanStrategyName(s), static_cast<long long>(r.plans[s].total_bytes), NumStorages(r.plans[s]),
                static_cast<long long>(r.plans[s].lower_bound_bytes));
  // Unpinned outputs are planned too (and kept live to the end).
  Planned u = PlanAll(m.heads, shapes);
  for (PlanStrategy s : kAll)
    std::printf("[ memory  ] same, outputs unpinned:              %-8s %8lld bytes in %3d storages (lower bound %lld)\n",
                PlanStrategyName(s), static_cast<long long>(u.plans[s].total_bytes), NumStorages(u.plans[s]),
                static_cast<long long>(u.plans[s].lower_bound_bytes));
}

// Random DAGs of unary and binary elementwise ops with mixed sizes (a
// broadcast_add makes a bigger entry), random pinned entries: every plan must
// pass the verifier and stay between the lower bound and naive.
TEST(MemoryPlan, RandomGraphs) {
  std::mt19937 rng(7);
  const char* unary[] = {"exp", "sin", "cos", "negative"};
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<Symbol> pool = {Symbol::Variable("x"), Symbol::Variable("y")};
    std::vector<bool> wide = {false, false};  // shape (1, 8) or (6, 8)
    int n = 3 + static_cast<int>(rng() % 14);
    for (int k = 0; k < n; ++k) {
      std::string name = "n" + std::to_string(k);
      size_t a = rng() % pool.size(), b = rng() % pool.size();
      switch (rng() % 3) {
        case 0:
          pool.push_back(Op(unary[rng() % 4], name, {pool[a]}));
          wide.push_back(wide[a]);
          break;
        case 1:
          if (wide[a] == wide[b]) {
            pool.push_back(Op("elemwise_add", name, {pool[a], pool[b]}));
            wide.push_back(wide[a]);
            break;
          }
          [[fallthrough]];
        default:
          pool.push_back(Op("broadcast_add", name, {pool[a], Symbol::Variable("z" + name)}));
          wide.push_back(true);
      }
    }
    std::vector<Symbol> heads = {pool.back()};
    for (size_t k = 2; k + 1 < pool.size(); ++k)
      if (rng() % 5 == 0) heads.push_back(pool[k]);
    Symbol out = Symbol::Group(heads);
    IndexedGraph g(out.outputs);
    Shapes shapes = {{"x", Shape{1, 8}}, {"y", Shape{1, 8}}};
    for (int k = 0; k < n; ++k) shapes["zn" + std::to_string(k)] = Shape{6, 8};
    std::vector<bool> external(g.num_entries(), false);
    for (const auto& o : g.outputs())
      if (rng() % 2 == 0) external[g.entry_id(o)] = true;
    SCOPED_TRACE("trial " + std::to_string(trial));
    PlanAll(out.outputs, shapes, external);
  }
}

TEST(MemoryPlan, CheckerCatchesOverlap) {
  Symbol x = Symbol::Variable("x");
  Symbol a = Op("exp", "a", {x});
  Symbol b = Op("sin", "b", {a});
  Symbol c = Op("cos", "c", {a});
  Symbol d = Op("elemwise_add", "d", {b, c});
  IndexedGraph g(d.outputs);
  ShapeInference si = InferShapes(g, {{"x", Shape{5}}});
  TypeInference ti = InferTypes(g, {});
  std::vector<int64_t> bytes = EntryBytes(g, si, ti);
  MemoryPlan p = PlanMemory(g, bytes, {}, PlanStrategy::kNaive);
  CheckMemoryPlan(g, p, &bytes);
  // Put b into a's storage: b is written while a still has a reader (c).
  uint32_t ea = g.entry_id(g.node_id(a.outputs[0].node.get()), 0);
  uint32_t eb = g.entry_id(g.node_id(b.outputs[0].node.get()), 0);
  MemoryPlan bad = p;
  bad.storage_id[eb] = bad.storage_id[ea];
  try {
    CheckMemoryPlan(g, bad, &bytes);
    FAIL() << "expected the checker to throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInternal);
    std::string msg = e.what();
    EXPECT_NE(msg.find("node 'a'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("node 'b'"), std::string::npos) << msg;
  }
  // A variable given storage, a too-small storage and a wrong total are caught too.
  MemoryPlan var = p;
  var.storage_id[g.entry_id(g.arg_nodes()[0], 0)] = 0;
  EXPECT_THROW(CheckMemoryPlan(g, var, &bytes), Error);
  MemoryPlan small = p;
  small.storage_bytes[0] = 1;
  small.total_bytes = 0;
  for (int64_t v : small.storage_bytes) small.total_bytes += v;
  EXPECT_THROW(CheckMemoryPlan(g, small, &bytes), Error);
  MemoryPlan total = p;
  total.total_bytes += 1;
  EXPECT_THROW(CheckMemoryPlan(g, total, &bytes), Error);
}

// Note [Checking a plan in n log n]: in one arena the checker finds an entry
// that overlaps a live one from below, from above, or exactly, and accepts
// entries side by side and an in-place chain of any length in one place.
TEST(MemoryPlan, CheckerFindsOverlapsInsideOneArena) {
  Symbol x = Symbol::Variable("x");
  Symbol a = Op("exp", "a", {x});
  Symbol b = Op("sin", "b", {a});
  Symbol c = Op("cos", "c", {a});
  Symbol d = Op("elemwise_add", "d", {b, c});
  IndexedGraph g(d.outputs);
  ShapeInference si = InferShapes(g, {{"x", Shape{5}}});
  TypeInference ti = InferTypes(g, {});
  std::vector<int64_t> bytes = EntryBytes(g, si, ti);
  auto entry = [&](const Symbol& s) { return g.entry_id(g.node_id(s.outputs[0].node.get()), 0); };
  const uint32_t ea = entry(a), eb = entry(b), ec = entry(c), ed = entry(d);
  MemoryPlan p;  // every entry its own 20 bytes, one after another
  p.storage_id.assign(g.num_entries(), -1);
  p.offset.assign(g.num_entries(), 0);
  int64_t at = 0;
  for (uint32_t e : {ea, eb, ec, ed}) {
    p.storage_id[e] = 0;
    p.offset[e] = at;
    at += bytes[e];
  }
  p.storage_bytes = {at};
  p.total_bytes = at;
  CheckMemoryPlan(g, p, &bytes);
  // d may take b's place (b's last reader writes d, elemwise_add declares it).
  MemoryPlan inplace = p;
  inplace.offset[ed] = p.offset[eb];
  CheckMemoryPlan(g, inplace, &bytes);
  // b written while a is live: overlapping a's bytes from above, from below, exactly.
  for (int64_t shift : {int64_t{4}, int64_t{-4}, int64_t{0}}) {
    MemoryPlan bad = p;
    bad.offset[ea] = 8;
    bad.offset[eb] = 8 + shift;
    bad.offset[ec] = 40;
    bad.offset[ed] = 60;
    bad.storage_bytes = {80};
    bad.total_bytes = 80;
    try {
      CheckMemoryPlan(g, bad, &bytes);
      ADD_FAILURE() << "overlap shifted by " << shift << " not found";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("node 'a'"), std::string::npos) << msg;
      EXPECT_NE(msg.find("node 'b'"), std::string::npos) << msg;
    }
  }

  // A 50,000-node in-place chain puts every entry in one storage (its check compared all pairs).
  Symbol chain = x;
  for (int i = 0; i < 50000; ++i) chain = Op("relu", "r" + std::to_string(i), {chain});
  IndexedGraph cg(chain.outputs);
  ShapeInference csi = InferShapes(cg, {{"x", Shape{5}}});
  TypeInference cti = InferTypes(cg, {});
  std::vector<int64_t> cbytes = EntryBytes(cg, csi, cti);
  MemoryPlan cp = PlanMemory(cg, cbytes, {}, PlanStrategy::kInplace);
  EXPECT_EQ(cp.storage_bytes.size(), 1u);
  CheckMemoryPlan(cg, cp, &cbytes);
}

}  // namespace
}  // namespace weft
