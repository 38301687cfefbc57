#include "core/graph/infer_node.h"

#include "core/base/error.h"
#include "core/graph/partial_shape.h"
#include "core/op/op_rules.h"

namespace weft {

// Note [Partial shapes]
// MXNet 1.x writes an unknown dim as 0 (infer_shape(data=(0, 3)), a
// variable's __shape__, Gluon's begin states) and infers such dims forward and
// backward. Every op's InferShape knows only whole shapes (known or
// Shape::Unknown()), so the pass handles partial ones generically, per node:
//  1. The op's own inference on the fully known shapes (partial ones passed as
//     Unknown): what it fills is merged into the partial shapes, and a
//     contradiction with a known dim is a ShapeError naming the node. This is
//     also how an op that fills its inputs from its outputs infers backward.
//  2. Slots that always share one shape (SameShapeOf, core/op/op_rules.h: an op
//     without its own infer_shape, or one declared with SetSameShape) are
//     unified dim by dim in both directions: (0, 3) + (2, 0) gives (2, 3)
//     everywhere, and a known output fills softmax's unknown input.
//  3. With a partial input, the op's inference runs with sentinel values in
//     place of the unknown dims: twice with large, highly divisible values
//     (every unknown dim the same value in a run, so Concat's and broadcasting's
//     equal dims and reshape's -1 and split's divisions pass), then once with 1
//     (a dim clipped to a parameter, slice's end, then differs) and once with a
//     distinct value per dim (a difference or ratio of two unknown dims then
//     differs). A result dim equal in every run is known (FullyConnected's
//     weight (4, 3) from data (0, 3)); one that differs stays unknown (its
//     output (0, 4)). A large run that throws means "cannot tell yet", not an
//     error; the other two only take knowledge away, and only when they pass.
//  4. A result dim equal to one unknown input dim's sentinel in every run is
//     that dim passed through (FullyConnected's batch dim to its output, data's
//     to SoftmaxOutput's label): where the pass knows it, it fills the input
//     dim backward.
// Custom ops (the user's CustomOpProp.infer_shape) get no sentinel runs. A
// sentinel never leaves this file: a dim that depends on one differs between
// runs and stays unknown.
// What this cannot do: infer an unknown input dim that no result passes
// through unchanged and that the op does not fill itself, e.g. Convolution's
// spatial dims from its output (stride and padding lose information).

namespace {

constexpr int64_t kSentinelBase = 80640;  // 2^8 * 3^2 * 5 * 7: divisible by 1..10, 12, 14, 16, ..., 256
constexpr int kSentinelRuns = 4;           // two large, all ones, distinct per dim

// The value of unknown dim k (counted over the node's inputs) in a run.
int64_t Sentinel(int run, int k) {
  switch (run) {
    case 0: return kSentinelBase;
    case 1: return 3 * kSentinelBase;
    case 2: return 1;
    default: return kSentinelBase * (k + 2);
  }
}

[[noreturn]] void ThrowConflict(const Node& n, const std::string& what, const Shape& have, const Shape& need) {
  WEFT_THROW(kShape) << "node '" << n.name << "' (" << n.op->name << "): " << what << " has shape "
                     << PartialShapeString(have) << " but the operator needs " << PartialShapeString(need);
}

struct Slots {
  std::vector<uint32_t> ids;  // entry ids: inputs, then outputs
  size_t num_in = 0;
  std::string Name(size_t s) const {
    return s < num_in ? "input " + std::to_string(s) : "output " + std::to_string(s - num_in);
  }
};

// Merges what the op gave for slot s into the pass's shape for it.
bool MergeInto(const Node& n, const Slots& sl, size_t s, const Shape& got, std::vector<Shape>* entry) {
  Shape& slot = (*entry)[sl.ids[s]];
  switch (MergeShape(&slot, got)) {
    case MergeResult::kChanged: return true;
    case MergeResult::kSame: return false;
    case MergeResult::kConflict: ThrowConflict(n, sl.Name(s), slot, got);
  }
  return false;
}

void RunOp(const Node& n, std::vector<Shape>* in, std::vector<Shape>* out) {
  try {
    n.op->InferShape(n.params, in, out);
  } catch (const Error& e) {
    throw Error(e.status(), "node '" + n.name + "' (" + n.op->name + "): " + e.what());
  }
}

bool ExactStep(const Node& n, const Slots& sl, std::vector<Shape>* entry) {
  std::vector<Shape> in, out;
  for (size_t s = 0; s < sl.ids.size(); ++s) {
    const Shape& sh = (*entry)[sl.ids[s]];
    (s < sl.num_in ? in : out).push_back(FullyKnown(sh) ? sh : Shape::Unknown());
  }
  RunOp(n, &in, &out);
  bool changed = false;
  for (size_t s = 0; s < sl.ids.size(); ++s) {
    Shape got = s < sl.num_in ? in[s] : out[s - sl.num_in];
    if (!got.known()) continue;
    // MXNet 1.x legacy shapes: a 0 dim written by an op without inputs
    // (Gluon's begin states, _zeros(shape=(2, 0, H))) is unknown, as in a
    // variable's __shape__; its consumers fill it in.
    if (sl.num_in == 0) got = FromLegacyShape(got);
    changed |= MergeInto(n, sl, s, got, entry);
  }
  return changed;
}

bool SameShapeStep(const Node& n, const Slots& sl, std::vector<Shape>* entry) {
  const SameShapeSlots& same = SameShapeOf(*n.op);
  std::vector<size_t> members;
  if (same.all)
    for (size_t s = 0; s < sl.ids.size(); ++s) members.push_back(s);
  for (int i : same.inputs)
    if (i >= 0 && static_cast<size_t>(i) < sl.num_in) members.push_back(static_cast<size_t>(i));
  for (int o : same.outputs)
    if (o >= 0 && sl.num_in + static_cast<size_t>(o) < sl.ids.size()) members.push_back(sl.num_in + o);
  if (members.size() < 2) return false;
  Shape u = Shape::Unknown();
  for (size_t m : members) {
    const Shape& sh = (*entry)[sl.ids[m]];
    if (MergeShape(&u, sh) == MergeResult::kConflict)
      WEFT_THROW(kShape) << "node '" << n.name << "' (" << n.op->name << "): " << sl.Name(m) << " has shape "
                         << PartialShapeString(sh) << " but the operator needs the same shape as "
                         << PartialShapeString(u);
  }
  bool changed = false;
  for (size_t m : members) changed |= MergeInto(n, sl, m, u, entry);
  return changed;
}

// The input dim whose sentinel dim d of slot s's result is in every run that
// passed (the dim is passed through: FullyConnected's batch dim to its output,
// Convolution's to its output, data's to SoftmaxOutput's label), or -1.
int PassedThrough(const std::vector<Shape> res[], const bool ok[], size_t num_unknown, size_t s, int d) {
  for (int run = 0; run < kSentinelRuns; ++run) {
    if (!ok[run]) continue;
    const Shape& r = res[run][s];
    if (!r.known() || r.ndim() <= d) return -1;
  }
  if (res[0][s][d] != Sentinel(0, 0) || res[1][s][d] != Sentinel(1, 0)) return -1;
  if (ok[2] && res[2][s][d] != 1) return -1;
  if (num_unknown == 1) return ok[3] && res[3][s][d] != Sentinel(3, 0) ? -1 : 0;
  if (!ok[3]) return -1;  // several unknown dims and no run telling them apart
  for (size_t k = 0; k < num_unknown; ++k)
    if (res[3][s][d] == Sentinel(3, static_cast<int>(k))) return static_cast<int>(k);
  return -1;
}

// Backward over a passed-through dim: a known dim of the slot it reaches gives
// the unknown input dim (MXNet's FullyConnected fills data's batch dim from its
// output the same way, in its own shape function).
bool PassThroughStep(const Node& n, const Slots& sl, const std::vector<Shape> res[], const bool ok[],
                     const std::vector<std::pair<size_t, int>>& unknown, std::vector<Shape>* entry) {
  bool changed = false;
  for (size_t s = 0; s < sl.ids.size(); ++s) {
    const Shape have = (*entry)[sl.ids[s]];
    if (!have.known()) continue;
    for (int d = 0; d < have.ndim(); ++d) {
      if (have[d] < 0) continue;
      if (res[0][s].known() && res[0][s].ndim() != have.ndim()) break;
      const int k = PassedThrough(res, ok, unknown.size(), s, d);
      if (k < 0) continue;
      Shape in = (*entry)[sl.ids[unknown[static_cast<size_t>(k)].first]];
      const int dim = unknown[static_cast<size_t>(k)].second;
      if (in[dim] >= 0) continue;  // filled earlier in this loop
      in[dim] = have[d];
      changed |= MergeInto(n, sl, unknown[static_cast<size_t>(k)].first, in, entry);
    }
  }
  return changed;
}

bool SentinelStep(const Node& n, const Slots& sl, std::vector<Shape>* entry) {
  // Custom's inference is the user's Python callback: never call it with made-up dims.
  if (TakesFreeAttributes(*n.op)) return false;
  bool any_partial = false;
  for (size_t s = 0; s < sl.num_in; ++s) any_partial |= IsPartial((*entry)[sl.ids[s]]);
  if (!any_partial) return false;
  std::vector<Shape> res[kSentinelRuns];
  bool ok[kSentinelRuns] = {};
  std::vector<std::pair<size_t, int>> unknown;  // unknown dim k: (input slot, dim)
  for (int run = 0; run < kSentinelRuns; ++run) {
    std::vector<Shape> in, out(sl.ids.size() - sl.num_in, Shape::Unknown());
    int k = 0;
    for (size_t s = 0; s < sl.num_in; ++s) {
      Shape sh = (*entry)[sl.ids[s]];
      for (int d = 0; d < sh.ndim(); ++d)
        if (sh[d] < 0) {
          if (run == 0) unknown.emplace_back(s, d);
          sh[d] = Sentinel(run, k++);
        }
      in.push_back(sh);
    }
    try {
      n.op->InferShape(n.params, &in, &out);
      ok[run] = true;
    } catch (const Error&) {
      if (run < 2) return false;  // cannot tell yet (Note [Partial shapes])
    }
    res[run] = std::move(in);
    res[run].insert(res[run].end(), out.begin(), out.end());
  }
  bool changed = false;
  for (size_t s = 0; s < sl.ids.size(); ++s) {
    if (FullyKnown((*entry)[sl.ids[s]])) continue;
    const Shape& a = res[0][s];
    const Shape& b = res[1][s];
    if (!a.known() || !b.known() || a.ndim() != b.ndim()) continue;
    Shape got = a;
    for (int d = 0; d < a.ndim(); ++d) {
      bool same = a[d] == b[d];
      for (int run = 2; run < kSentinelRuns && same; ++run) {
        const Shape& c = res[run][s];
        if (ok[run] && c.known() && c.ndim() == a.ndim()) same = c[d] == a[d];
      }
      if (!same) got[d] = kUnknownDim;
    }
    changed |= MergeInto(n, sl, s, got, entry);
  }
  return changed | PassThroughStep(n, sl, res, ok, unknown, entry);
}

}  // namespace

bool InferNodeShapes(const IndexedGraph& g, uint32_t nid, std::vector<Shape>* entry) {
  const auto& inode = g[nid];
  const Node& n = *inode.source;
  Slots sl;
  for (const auto& e : inode.inputs) sl.ids.push_back(g.entry_id(e));
  sl.num_in = sl.ids.size();
  for (int i = 0; i < n.num_outputs(); ++i) sl.ids.push_back(g.entry_id(nid, static_cast<uint32_t>(i)));
  bool changed = ExactStep(n, sl, entry);
  changed |= SameShapeStep(n, sl, entry);
  if (changed) changed |= ExactStep(n, sl, entry);
  changed |= SentinelStep(n, sl, entry);
  return changed;
}

}  // namespace weft
