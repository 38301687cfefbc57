// The imperative update `w -= lr * g` as one kernel (issue 23).
//
// Note [In-place axpy fusion]
// `lr * g` is pushed as _mul_scalar into a fresh temporary t, and `w -= t` as
// elemwise_sub into w: two passes over every weight and a temporary the size
// of the weight, which the in-graph sgd_update (one pass) does not pay. The
// front end cannot wait to see whether t is used before pushing it, but it can
// tell, when `w -= t` arrives, that t is a temporary nobody else holds (the
// Python binding checks the reference count and that the call is an in-place
// operator: weft/ndarray/axpy.py). Then:
//  * NoteCall remembers, per thread, the last op call when it was a float32
//    _mul_scalar into a fresh array pushed while autograd did not record, and
//    gives its kernel a gate (pending -> started, checked when it runs);
//  * TryFuse(w, t, sign), when t is that call's output, this thread pushed
//    nothing after it (PushesFromThisThread), t's memory has no other holder
//    (no view, no other pushed op), w is float32 of g's shape and overlaps g
//    not at all or exactly, and the gate is still pending, cancels the
//    multiply (pending -> cancelled: its kernel then returns without running)
//    and pushes sgd_update(w, g, lr = sign * scalar) into w instead, which
//    computes w - (sign * scalar) * g in float32, bit for bit the two-op result.
// When any of this does not hold it returns false and the caller runs the two
// ops as before; a multiply that already started simply completes. The
// NaiveEngine runs each op as it is pushed, so it never fuses.
#pragma once
#include <atomic>
#include <memory>

#include "core/ndarray/imperative.h"

namespace weft {
namespace axpy_fusion {

enum GateState : int { kPending = 0, kStarted = 1, kCancelled = 2 };
using Gate = std::shared_ptr<std::atomic<int>>;

// Called by every imperative op call after preparing and before pushing `p`
// (`fresh`: its outputs were allocated by the call; `recording`: autograd
// records it). Forgets the remembered call; remembers this one and returns its
// gate when it is a candidate, else returns nullptr.
Gate NoteCall(const PreparedOp& p, bool fresh, bool recording);

// A pushed kernel with a gate runs only when this moves it from pending to started.
inline bool Admit(const Gate& gate) {
  if (!gate) return true;
  int expected = kPending;
  return gate->compare_exchange_strong(expected, kStarted);
}

// *w += sign * (remembered scalar) * g as one sgd_update, cancelling the
// remembered multiply whose output is t (sign is +1 or -1). `recording`: the
// caller's thread records autograd (never fuses). False: nothing was done.
bool TryFuse(NDArray* w, const NDArray& t, int sign, bool recording);

}  // namespace axpy_fusion
}  // namespace weft
