#include "core/graph/infer.h"

#include "core/base/error.h"
#include "core/graph/infer_node.h"
#include "core/graph/partial_shape.h"

namespace weft {
namespace {

// A variable's "__shape__" in MXNet 1.x legacy form: a 0 dim is unknown.
Shape ShapeHint(const Node& n) {
  auto it = n.attrs.find("__shape__");
  if (it == n.attrs.end()) return Shape::Unknown();
  return FromLegacyShape(Shape::Parse(it->second));
}

// Runs `fn(node_id)` in forward then reverse order until nothing changes.
//
// Note [Settled nodes]
// A node whose inference ran with every input known, and left every output
// known, is settled: its op computed (or checked) the outputs from those
// inputs, and known entries never change again, so running it once more
// could neither fill nor contradict anything. Sweeps skip settled nodes, so
// a chain costs one inference per node instead of one per node per sweep
// (four sweeps: forward and back, then a round that finds nothing new).
// `known(entry)` says whether an entry is known.
template <typename Fn, typename Known>
void Sweep(const IndexedGraph& g, Fn fn, Known known) {
  std::vector<bool> settled(g.num_nodes(), false);
  auto run = [&](size_t nid) {
    if (settled[nid]) return false;
    bool inputs_known = true;
    for (const auto& in : g[nid].inputs) inputs_known = inputs_known && known(g.entry_id(in));
    const bool changed = fn(nid);
    if (inputs_known) {
      bool outputs_known = true;
      for (uint32_t e = g.row_ptr()[nid]; e < g.row_ptr()[nid + 1] && outputs_known; ++e) outputs_known = known(e);
      settled[nid] = outputs_known;
    }
    return changed;
  };
  for (int round = 0; round < 8; ++round) {
    bool changed = false;
    for (size_t i = 0; i < g.num_nodes(); ++i) changed |= run(i);
    for (size_t i = g.num_nodes(); i-- > 0;) changed |= run(i);
    if (!changed) break;
  }
}

template <typename T, typename Known>
size_t CountUnknown(const std::vector<T>& v, Known known) {
  size_t n = 0;
  for (const T& x : v) n += !known(x);
  return n;
}

}  // namespace

ShapeInference InferShapes(const IndexedGraph& g, const std::unordered_map<std::string, Shape>& inputs) {
  std::vector<Shape> cur(g.num_entries(), Shape::Unknown());
  for (uint32_t nid : g.arg_nodes()) {
    const Node& n = *g[nid].source;
    auto it = inputs.find(n.name);
    Shape s = it != inputs.end() ? it->second : Shape::Unknown();
    // A partial given shape is refined by the variable's hint (MXNet reads
    // __shape__ only when nothing is given; a hint that contradicts is ignored).
    if (!FullyKnown(s)) {
      Shape merged = s;
      if (MergeShape(&merged, ShapeHint(n)) != MergeResult::kConflict) s = merged;
    }
    cur[g.entry_id(nid, 0)] = s;
  }
  Sweep(
      g,
      [&](size_t nid) {
        if (g[nid].source->is_variable()) return false;
        return InferNodeShapes(g, static_cast<uint32_t>(nid), &cur);
      },
      [&](uint32_t e) { return FullyKnown(cur[e]); });
  ShapeInference r;
  r.entry.reserve(cur.size());
  for (const Shape& s : cur) r.entry.push_back(FullyKnown(s) ? s : Shape::Unknown());
  r.partial = std::move(cur);
  r.num_unknown = CountUnknown(r.entry, [](const Shape& s) { return s.known(); });
  return r;
}

TypeInference InferTypes(const IndexedGraph& g, const std::unordered_map<std::string, DType>& inputs,
                         bool default_float32) {
  TypeInference r;
  r.entry.assign(g.num_entries(), DType::kUnknown);
  for (uint32_t nid : g.arg_nodes()) {
    const Node& n = *g[nid].source;
    auto it = inputs.find(n.name);
    DType t = DType::kUnknown;
    if (it != inputs.end()) {
      t = it->second;
    } else {
      auto a = n.attrs.find("__dtype__");
      if (a != n.attrs.end()) t = ParseDType(a->second);
    }
    r.entry[g.entry_id(nid, 0)] = t;
  }
  auto run = [&]() {
    Sweep(g, [&](size_t nid) {
      const auto& inode = g[nid];
      const Node& n = *inode.source;
      if (n.is_variable()) return false;
      std::vector<DType> in, out;
      for (const auto& e : inode.inputs) in.push_back(r.entry[g.entry_id(e)]);
      for (int i = 0; i < n.num_outputs(); ++i) out.push_back(r.entry[g.entry_id(static_cast<uint32_t>(nid), i)]);
      try {
        n.op->InferType(n.params, &in, &out);
      } catch (const Error& e) {
        throw Error(e.status(), "node '" + n.name + "' (" + n.op->name + "): " + e.what());
      }
      bool changed = false;
      for (size_t i = 0; i < in.size(); ++i) {
        DType& slot = r.entry[g.entry_id(inode.inputs[i])];
        if (in[i] != DType::kUnknown && slot == DType::kUnknown) { slot = in[i]; changed = true; }
      }
      for (size_t i = 0; i < out.size(); ++i) {
        DType& slot = r.entry[g.entry_id(static_cast<uint32_t>(nid), static_cast<uint32_t>(i))];
        if (out[i] != DType::kUnknown && slot == DType::kUnknown) { slot = out[i]; changed = true; }
      }
      return changed;
    }, [&](uint32_t e) { return r.entry[e] != DType::kUnknown; });
  };
  run();
  if (default_float32) {
    bool filled = false;
    for (uint32_t nid : g.arg_nodes()) {
      DType& t = r.entry[g.entry_id(nid, 0)];
      if (t == DType::kUnknown) { t = DType::kFloat32; filled = true; }
    }
    if (filled) run();
  }
  r.num_unknown = CountUnknown(r.entry, [](DType t) { return t != DType::kUnknown; });
  return r;
}

}  // namespace weft
