// CPU kernels of the optimizer updates of optim_single.cc / optim_multi.cc:
// the drivers of optim_more_impl.h over a loop split across threads.
#include "core/op/optim/optim_more_cpu.h"

#include "core/op/op_util.h"
#include "core/op/optim/optim_more_impl.h"

namespace weft {
namespace optim {
namespace {

struct CpuLoop {
  static constexpr bool kHalf = true;
  template <typename F>
  static void For(const OpContext&, int64_t n, F f) {
    if (n <= 0) return;
    ParallelFor(n, 8, [&f](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) f(i);
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

using L = CpuLoop;

}  // namespace

#define WEFT_OPTIM_CPU_DEF(name, ...) \
  WEFT_GPU_KERNEL_DECL(name##Cpu) { __VA_ARGS__(ctx, p, in, req, out); }
WEFT_OPTIM_MORE_KERNELS(WEFT_OPTIM_CPU_DEF)
#undef WEFT_OPTIM_CPU_DEF

}  // namespace optim
}  // namespace weft
