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

}  // namespace weft
