#include "core/graph/infer_node.h"

#include "core/base/error.h"
#include "core/graph/partial_shape.h"
#include "core/opdef/op_rules.h"

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
//     An op may fill an unknown input with a guess (SoftmaxOutput's label
//     (batch,), LeakyReLU's gamma (channels,), the pdf ops' parameters). A fill
//     for a partial input that contradicts its known dims is an error only when
//     the op then rejects the input completed with the fill's dims
//     (CheckAgainstGuess); one that fits is kept only when the op rejects
//     another completion (AcceptsOther: gamma (1,) passes, so (channels,) was
//     a guess). Otherwise this step's fills are dropped for the sentinel step.
//  2. Slots that always share one shape (SameShapeOf, core/opdef/op_rules.h: an op
//     without its own infer_shape, or one declared with set_same_shape) are
//     unified dim by dim in both directions: (0, 3) + (2, 0) gives (2, 3)
//     everywhere, and a known output fills softmax's unknown input.
//  3. With a partial input, the op's inference runs with sentinel values in
//     place of the unknown dims: twice with large, highly divisible values
//     (every unknown dim the same value in a run, so Concat's and broadcasting's
//     equal dims and reshape's -1 and split's divisions pass), then once with 1
//     (a dim clipped to a parameter, slice's end, then differs) and twice with
//     a distinct value per dim, ascending and descending (a difference, ratio
//     or comparison of two unknown dims then differs: image resize's shorter
//     side). A result dim equal in every run is known (FullyConnected's
//     weight (4, 3) from data (0, 3)); one that differs stays unknown (its
//     output (0, 4)), and a slot whose ndim differs between runs (squeeze of
//     the all-ones run) stays unknown. A large run that throws means "cannot
//     tell yet", not an error; the others only take knowledge away, and only
//     when they pass.
//  tests/python/test_partial_shapes.py checks over every op's harness cases
//  that hiding input dims never gives a known dim the full inference does not.
//     When a partial input's unknown dims are the op's to decide (a weight
//     whose __shape__ hint lacks the channels), sentinels there make every run
//     throw: the runs are then repeated with one partial input given at a
//     time and the others hidden for the op to fill, a fill kept only when it
//     fits the known dims and is no guess (as in 1).
//  4. A result dim equal to one unknown input dim's sentinel in every run is
//     that dim passed through (FullyConnected's batch dim to its output, data's
//     to SoftmaxOutput's label): where the pass knows it, it fills the input
//     dim backward. So is one equal to a whole multiple c of it in every run
//     (Reshape(-1) of (16, 0) gives 16 times the 0, as Flatten does): the
//     input dim is the known result dim / c, a ShapeError naming the node when
//     c does not divide it (MXNet's Reshape infers such a dim backward from
//     the output's size; Gluon's RNN weights reach _rnn_param_concat that
//     way, Note [RNN parameter concat] in core/op/shape/concat.cc).
// Custom ops (the user's CustomOpProp.infer_shape) get no sentinel runs. A
// sentinel never leaves this file: a dim that depends on one differs between
// runs and stays unknown.
// What this cannot do: infer an unknown input dim that no result passes
// through unchanged and that the op does not fill itself, e.g. Convolution's
// spatial dims from its output (stride and padding lose information).

namespace {

constexpr int64_t kSentinelBase = 80640;  // 2^8 * 3^2 * 5 * 7: divisible by 1..10, 12, 14, 16, ..., 256
constexpr int kSentinelRuns = 5;  // two large, all ones, distinct per dim ascending and descending

// The value of unknown dim k of num (counted over the node's inputs) in a run.
int64_t Sentinel(int run, int k, int num) {
  switch (run) {
    case 0: return kSentinelBase;
    case 1: return 3 * kSentinelBase;
    case 2: return 1;
    case 3: return kSentinelBase * (k + 2);
    default: return kSentinelBase * (num - k + 1);
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

// An op given Unknown for a partial input may fill it with its common-case
// guess (SoftmaxOutput's label (batch,), where's condition, the pdf ops'
// parameters): a guess that contradicts the known dims is no error when the
// op accepts the input with those dims kept (the guess's own dims elsewhere),
// or when the guess has another ndim. `in`/`out` are what the op was given.
void CheckAgainstGuess(const Node& n, const Slots& sl, size_t s, const Shape& guess, std::vector<Shape> in,
                       std::vector<Shape> out, const std::vector<Shape>& entry) {
  const Shape& have = entry[sl.ids[s]];
  if (have.ndim() != guess.ndim()) return;
  Shape candidate = have;
  for (int d = 0; d < have.ndim(); ++d)
    if (candidate[d] < 0) candidate[d] = guess[d];
  in[s] = candidate;
  RunOp(n, &in, &out);  // throws, naming the node, when the known dims are wrong
}

// Whether the op also accepts partial input s completed otherwise than its fill
// `guess` (LeakyReLU's gamma (1,) besides its guess (channels,)): then the fill
// is a guess, not what the other shapes determine.
// `in` and `out` are what the op is given besides: in step 1 its own fills
// for the other inputs and the known outputs, so that a fill the outputs force
// (_rnn_param_concat's equal shares of a known output) is no guess.
bool AcceptsOther(const Node& n, const Slots& sl, size_t s, const Shape& guess, std::vector<Shape> in,
                  const std::vector<Shape>& entry, std::vector<Shape> out) {
  Shape other = entry[sl.ids[s]];
  bool all_ones = true;
  for (int d = 0; d < other.ndim(); ++d)
    if (other[d] < 0) all_ones = all_ones && guess[d] == 1;
  for (int d = 0; d < other.ndim(); ++d)
    if (other[d] < 0) other[d] = all_ones ? kSentinelBase : 1;
  in[s] = other;
  try {
    n.op->InferShape(n.params, &in, &out);
  } catch (const Error&) {
    return false;
  }
  return true;
}

bool ExactStep(const Node& n, const Slots& sl, std::vector<Shape>* entry) {
  std::vector<Shape> in, out;
  for (size_t s = 0; s < sl.ids.size(); ++s) {
    const Shape& sh = (*entry)[sl.ids[s]];
    (s < sl.num_in ? in : out).push_back(FullyKnown(sh) ? sh : Shape::Unknown());
  }
  const std::vector<Shape> given_in = in, given_out = out;
  RunOp(n, &in, &out);
  for (size_t s = 0; s < sl.num_in; ++s) {
    if (!in[s].known() || !IsPartial((*entry)[sl.ids[s]])) continue;
    Shape merged = (*entry)[sl.ids[s]];
    const MergeResult m = MergeShape(&merged, in[s]);
    if (m == MergeResult::kConflict) CheckAgainstGuess(n, sl, s, in[s], given_in, given_out, *entry);
    // What the op filled may rest on a guess: the sentinel step decides.
    if (m == MergeResult::kConflict || (m == MergeResult::kChanged && AcceptsOther(n, sl, s, in[s], in, *entry, given_out)))
      return false;
  }
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

// Whether `got` is exactly `factor` times `sentinel` (no overflow: divides).
bool IsMultiple(int64_t got, int64_t sentinel, int64_t factor) {
  return got >= 0 && got % sentinel == 0 && got / sentinel == factor;
}

// Dim d of slot s's result is `factor` times the unknown input dim `k` in
// every run that passed (factor 1: the dim is passed through, FullyConnected's
// batch dim to its output, data's to SoftmaxOutput's label; factor 16:
// Reshape(-1) of (16, 0)).
struct PassedDim {
  int k = -1;  // index into the unknown input dims, -1 when none
  int64_t factor = 1;
};

PassedDim PassedThrough(const std::vector<Shape> res[], const bool ok[], size_t num_unknown, size_t s, int d) {
  for (int run = 0; run < kSentinelRuns; ++run) {
    if (!ok[run]) continue;
    const Shape& r = res[run][s];
    if (!r.known() || r.ndim() <= d) return {};
  }
  const int num = static_cast<int>(num_unknown);
  const int64_t r0 = res[0][s][d];
  if (r0 <= 0 || r0 % Sentinel(0, 0, num) != 0) return {};
  const int64_t factor = r0 / Sentinel(0, 0, num);
  if (!IsMultiple(res[1][s][d], Sentinel(1, 0, num), factor)) return {};
  if (ok[2] && res[2][s][d] != factor) return {};
  if (num > 1 && !ok[3]) return {};  // several unknown dims and no run telling them apart
  for (int k = 0; k < num; ++k) {
    bool all = true;
    for (int run = 3; run < kSentinelRuns && all; ++run)
      all = !ok[run] || IsMultiple(res[run][s][d], Sentinel(run, k, num), factor);
    if (all) return {k, factor};
  }
  return {};
}

// Backward over a passed-through dim: a known dim of the slot it reaches gives
// the unknown input dim (MXNet's FullyConnected fills data's batch dim from its
// output the same way, in its own shape function; its Reshape an input dim
// from the output's size).
bool PassThroughStep(const Node& n, const Slots& sl, const std::vector<Shape> res[], const bool ok[],
                     const std::vector<std::pair<size_t, int>>& unknown, std::vector<Shape>* entry) {
  bool changed = false;
  for (size_t s = 0; s < sl.ids.size(); ++s) {
    const Shape have = (*entry)[sl.ids[s]];
    if (!have.known()) continue;
    for (int d = 0; d < have.ndim(); ++d) {
      if (have[d] < 0) continue;
      if (res[0][s].known() && res[0][s].ndim() != have.ndim()) break;
      const PassedDim p = PassedThrough(res, ok, unknown.size(), s, d);
      if (p.k < 0) continue;
      const size_t slot = unknown[static_cast<size_t>(p.k)].first;
      Shape in = (*entry)[sl.ids[slot]];
      const int dim = unknown[static_cast<size_t>(p.k)].second;
      if (in[dim] >= 0) continue;  // filled earlier in this loop
      if (have[d] % p.factor != 0)
        WEFT_THROW(kShape) << "node '" << n.name << "' (" << n.op->name << "): " << sl.Name(s) << " has shape "
                           << PartialShapeString(have) << ", whose dim " << d << " must be " << p.factor
                           << " times dim " << dim << " of " << sl.Name(slot) << " (shape " << PartialShapeString(in)
                           << "), but " << have[d] << " is not divisible by " << p.factor;
      in[dim] = have[d] / p.factor;
      changed |= MergeInto(n, sl, slot, in, entry);
    }
  }
  return changed;
}

// The sentinel runs, with the partial inputs marked in `hidden` passed as
// Unknown for the op to fill (Convolution fills its weight, whose hint lacks
// the channels, from data's channels). False when a large run throws. Sets
// the inputs run 0 was given and the unknown dims given sentinels.
bool RunSentinels(const Node& n, const Slots& sl, const std::vector<Shape>& entry, const std::vector<bool>& hidden,
                  std::vector<Shape> res[], bool ok[], std::vector<Shape>* given0,
                  std::vector<std::pair<size_t, int>>* unknown) {
  unknown->clear();
  for (size_t s = 0; s < sl.num_in; ++s) {
    const Shape& sh = entry[sl.ids[s]];
    for (int d = 0; !hidden[s] && d < sh.ndim(); ++d)
      if (sh[d] < 0) unknown->emplace_back(s, d);
  }
  const int num = static_cast<int>(unknown->size());
  for (int run = 0; run < kSentinelRuns; ++run) {
    std::vector<Shape> in, out(sl.ids.size() - sl.num_in, Shape::Unknown());
    int k = 0;
    for (size_t s = 0; s < sl.num_in; ++s) {
      Shape sh = hidden[s] ? Shape::Unknown() : entry[sl.ids[s]];
      for (int d = 0; d < sh.ndim(); ++d)
        if (sh[d] < 0) sh[d] = Sentinel(run, k++, num);
      in.push_back(sh);
    }
    if (run == 0) *given0 = in;
    ok[run] = false;
    try {
      n.op->InferShape(n.params, &in, &out);
      ok[run] = true;
    } catch (const Error&) {
      if (run < 2) return false;  // cannot tell yet (Note [Partial shapes])
    }
    res[run] = std::move(in);
    res[run].insert(res[run].end(), out.begin(), out.end());
  }
  return true;
}

// What the runs determine of slot s: the dims equal in every passing run;
// Unknown when even the ndim differs (squeeze drops the all-ones run's 1s).
Shape Determined(const std::vector<Shape> res[], const bool ok[], size_t s) {
  const Shape& a = res[0][s];
  if (!a.known()) return Shape::Unknown();
  for (int run = 1; run < kSentinelRuns; ++run)
    if (ok[run] && (!res[run][s].known() || res[run][s].ndim() != a.ndim())) return Shape::Unknown();
  Shape got = a;
  for (int d = 0; d < a.ndim(); ++d)
    for (int run = 1; run < kSentinelRuns; ++run)
      if (ok[run] && res[run][s][d] != a[d]) got[d] = kUnknownDim;
  return got;
}

bool SentinelStep(const Node& n, const Slots& sl, std::vector<Shape>* entry) {
  // Custom's inference is the user's Python callback: never call it with made-up dims.
  if (TakesFreeAttributes(*n.op)) return false;
  std::vector<size_t> partial;
  for (size_t s = 0; s < sl.num_in; ++s)
    if (IsPartial((*entry)[sl.ids[s]])) partial.push_back(s);
  if (partial.empty()) return false;
  // First every partial input as sentinels; then each alone, the others hidden.
  std::vector<std::vector<bool>> attempts(1, std::vector<bool>(sl.num_in, false));
  for (size_t keep = 0; partial.size() > 1 && keep < partial.size(); ++keep) {
    attempts.emplace_back(sl.num_in, false);
    for (size_t p : partial) attempts.back()[p] = p != partial[keep];
  }
  for (size_t a = 0; a < attempts.size(); ++a) {
    const std::vector<bool>& hidden = attempts[a];
    std::vector<Shape> res[kSentinelRuns];
    bool ok[kSentinelRuns] = {};
    std::vector<Shape> given0;
    std::vector<std::pair<size_t, int>> unknown;
    if (!RunSentinels(n, sl, *entry, hidden, res, ok, &given0, &unknown)) continue;
    std::vector<Shape> got(sl.ids.size(), Shape::Unknown());
    bool usable = true;
    for (size_t s = 0; s < sl.ids.size() && usable; ++s) {
      if (FullyKnown((*entry)[sl.ids[s]])) continue;
      got[s] = Determined(res, ok, s);
      if (a == 0 || !got[s].known()) continue;
      // With inputs hidden, a fill that contradicts what is known, or that the
      // op only guessed (step 1), makes the attempt useless, not an error.
      Shape merged = (*entry)[sl.ids[s]];
      usable = MergeShape(&merged, got[s]) != MergeResult::kConflict &&
               !(s < sl.num_in && hidden[s] && AcceptsOther(n, sl, s, got[s], given0, *entry,
                                                           std::vector<Shape>(sl.ids.size() - sl.num_in, Shape::Unknown())));
    }
    if (!usable) continue;
    bool changed = false;
    for (size_t s = 0; s < sl.ids.size(); ++s)
      if (got[s].known()) changed |= MergeInto(n, sl, s, got[s], entry);
    changed |= PassThroughStep(n, sl, res, ok, unknown, entry);
    if (changed) return true;
  }
  return false;
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
