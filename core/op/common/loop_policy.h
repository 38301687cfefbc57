// Loop policies: how a kernel body written once (a template over L) runs on a
// device. The CPU policy is here; the GPU one is common/gpu_loop.h (.cu files
// only). A policy provides
//   L::For(ctx, n, f)            f(i) for every i in [0, n), in any order, at once;
//   L::Temp(ctx, bytes, &hold)   scratch memory on the op's device, valid for the call;
//   L::kHalf, L::Half            whether float16 storage is built for it, and its type;
//   L::Unsupported(op, dtype)    throws the DTypeError of a dtype the policy lacks.
// Used by the detection ops (detect/box_drivers.h and its siblings) and the optimizer updates
// (optim/update_drivers.h).
#pragma once
#include <cstdint>
#include <vector>

#include "core/base/dtype.h"
#include "core/base/error.h"
#include "core/opdef/op_def.h"
#if !defined(__CUDACC__)
#include "core/op/op_util.h"  // ParallelFor
#endif

namespace weft {

// The arithmetic type of a storage type: float for float16/float32, double for float64.
template <typename T>
struct LoopAccOf { using type = float; };
template <>
struct LoopAccOf<double> { using type = double; };

// Runs BODY with T the storage type of dt: float32, float64 and, where the
// policy L builds it (L::kHalf), float16.
#define WEFT_LOOP_FLOAT_SWITCH(L, dt, opname, T, ...)                                      \
  switch (dt) {                                                                          \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }                \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }               \
    case ::weft::DType::kFloat16:                                                        \
      if constexpr (L::kHalf) { using T = typename L::Half; __VA_ARGS__ }                \
      else { L::Unsupported(opname, dt); }                                               \
      break;                                                                             \
    default:                                                                             \
      WEFT_THROW(kDType) << (opname) << ": unsupported dtype " << ::weft::DTypeName(dt) \
                         << " (float16, float32 or float64 is expected)";               \
  }

#if !defined(__CUDACC__)

// The CPU policy: ParallelFor over the indices, host scratch in `hold`.
struct CpuLoop {
  static constexpr bool kHalf = true;
  using Half = half_t;
  // Note [Vector loops of the CPU policy]
  // Each range runs a copy of f that no pointer reaches, so its captured
  // scalars live in registers (through f itself, a float store might alias
  // them and GCC reloaded them per element), and `ivdep` drops GCC's runtime
  // alias check, which fails for in-place updates (out == weight) and fell
  // back to the scalar loop. Both are safe by the policy's contract: f(i) for
  // distinct i are independent (they run in any order, at once). The
  // Trainer's multi_sgd_mom_update over an MLP's 669k parameters ran scalar
  // (movss/mulss, ~1.5 ns per element) until this.
  template <typename F>
  static void For(const OpContext&, int64_t n, F f) {
    if (n <= 0) return;
    ParallelFor(n, 16, [&f](int64_t b, int64_t e) {
      const F body = f;
#pragma GCC ivdep
      for (int64_t i = b; i < e; ++i) body(i);
    });
  }
  static void* Temp(const OpContext&, size_t bytes, std::vector<char>* hold) {
    hold->resize(bytes);
    return hold->data();
  }
  [[noreturn]] static void Unsupported(const char* op, DType dt) {
    WEFT_THROW(kDType) << op << ": unsupported dtype " << DTypeName(dt);
  }
};
#endif

}  // namespace weft
