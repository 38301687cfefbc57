// Note [Inline pushes]
// While an InlinePushScope is alive on a thread, the ops that thread pushes to
// the threaded engine run on whichever thread makes them ready -- on the pusher
// itself, inside Push, when their vars are idle -- instead of on a worker
// lane (the naive engine runs every op on the pusher anyway). A custom
// operator's callback (core/op/custom/) runs on an engine worker and may call
// NDArray ops and wait on them; queued on the lanes, those ops could wait
// behind the very worker that is blocked in the callback. The engine's
// semantics (Note [Engine semantics]) are unchanged: reads and writes stay
// ordered per var and an exception is still stored on the op's written vars.
// GPU ops are never run inline (they complete from their stream).
#pragma once

namespace weft {

class InlinePushScope {
 public:
  InlinePushScope();
  ~InlinePushScope();
  InlinePushScope(const InlinePushScope&) = delete;
  InlinePushScope& operator=(const InlinePushScope&) = delete;
  static bool Active();
};

// Note [Small ops run at push]
// The imperative front end pushes a call of a small, pure elementwise op
// (core/ndarray/imperative.cc says which) inside a RunIfReadyScope: when the
// op's vars are idle at that moment, the threaded engine runs it right there
// on the pusher instead of handing it to a worker lane. For a kernel of well
// under a microsecond the hand-off was the cost: the lane's lock and counters,
// the vars' states and the allocator's bins (the call is built on one core and
// freed on the other) all crossed between the two cores, and `x = x * a + b`
// on a (16,) float32 array took 6.9 us per op threaded against 3.2 us with
// every op run on the caller (2-core EPYC, benchmarks/dispatch.py). Unlike
// InlinePushScope, an op that must wait is queued as usual, and an op made
// ready later by a completion goes to its lane, so a chain of waiting ops is
// never run on one thread's stack. Engine semantics are unchanged (Note
// [Engine semantics]); GPU ops are never run at push. The release of a host
// array's memory (Chunk::~Chunk, a DeleteVar) is run at push the same way.
class RunIfReadyScope {
 public:
  // A scope that is not `active` changes nothing (callers decide per push).
  explicit RunIfReadyScope(bool active = true);
  ~RunIfReadyScope();
  RunIfReadyScope(const RunIfReadyScope&) = delete;
  RunIfReadyScope& operator=(const RunIfReadyScope&) = delete;
  static bool Active();

 private:
  bool active_;
};

}  // namespace weft
