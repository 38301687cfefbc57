#include "core/ndarray/axpy_fusion.h"

#include <cstdint>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/engine/push_count.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace axpy_fusion {
namespace {

// The remembered call (Note [In-place axpy fusion]); chunk is compared by
// address only: while the multiply is pending its closure keeps the chunk
// alive, and once it started the gate refuses.
struct Remembered {
  Gate gate;
  const Chunk* chunk = nullptr;
  int64_t offset = 0;
  NDArray g;
  float scalar = 0;
  uint64_t push = 0;  // PushesFromThisThread() right after the multiply's push
};

thread_local Remembered last;

const OpDef* MulScalar() {
  static const OpDef* op = OpRegistry::Get()->Find("_mul_scalar");
  return op;
}

const OpDef* SgdUpdate() {
  static const OpDef* op = OpRegistry::Get()->Find("sgd_update");
  return op;
}

bool Overlaps(const NDArray& a, const NDArray& b) {
  if (!a.SharesChunk(b)) return false;
  const int64_t a0 = a.byte_offset(), a1 = a0 + static_cast<int64_t>(a.Bytes());
  const int64_t b0 = b.byte_offset(), b1 = b0 + static_cast<int64_t>(b.Bytes());
  return a0 < b1 && b0 < a1;
}

}  // namespace

Gate NoteCall(const PreparedOp& p, bool fresh, bool recording) {
  if (last.gate) last = Remembered();
  if (!fresh || recording || p.op == nullptr || p.op != MulScalar() || p.outputs.size() != 1 ||
      p.inputs.size() != 1 || p.inputs[0].dtype() != DType::kFloat32 || p.outputs[0].dtype() != DType::kFloat32)
    return nullptr;
  last.gate = std::make_shared<std::atomic<int>>(kPending);
  last.chunk = p.outputs[0].chunk().get();
  last.offset = p.outputs[0].byte_offset();
  last.g = p.inputs[0].Detach();
  last.scalar = static_cast<float>(p.params.GetFloat("scalar"));
  last.push = PushesFromThisThread() + 1;  // the caller pushes it next
  return last.gate;
}

bool TryFuse(NDArray* w, const NDArray& t, int sign, bool recording) {
  if (!last.gate) return false;
  Remembered r = std::move(last);
  last = Remembered();
  const OpDef* sgd = SgdUpdate();
  // A non-finite scalar would meet sgd_update's (1 - lr * wd) * w as inf * 0.
  if (recording || sgd == nullptr || (sign != 1 && sign != -1) || !std::isfinite(r.scalar)) return false;
  if (t.chunk().get() != r.chunk || t.byte_offset() != r.offset || t.ag_node()) return false;
  if (PushesFromThisThread() != r.push) return false;
  // Holders of t's memory: t itself and the pending multiply; a view or another op adds one.
  if (t.chunk().use_count() > 2) return false;
  if (w->is_none() || w->dtype() != DType::kFloat32 || w->shape() != r.g.shape() || w->ctx() != r.g.ctx())
    return false;
  if (Overlaps(*w, r.g) && w->byte_offset() != r.g.byte_offset()) return false;
  if (Overlaps(*w, t)) return false;
  int expected = kPending;
  if (!r.gate->compare_exchange_strong(expected, kCancelled)) return false;
  // w - lr * g with lr = -sign * scalar: sgd_update's float32 kernel computes
  // exactly w - fl(lr * g) (wd 0, rescale 1, no clipping), the two-op result.
  char lr[32];
  std::snprintf(lr, sizeof(lr), "%.9g", static_cast<double>(-static_cast<float>(sign) * r.scalar));
  std::vector<NDArray> outs{*w};
  InvokeParsed(*sgd, Params::Parse(*sgd, {{"lr", lr}}), {*w, r.g}, &outs, false);
  return true;
}

}  // namespace axpy_fusion
}  // namespace weft
