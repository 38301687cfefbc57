// The installed kernels of the subgraph operators (Note [Subgraph kernel
// slots] in subgraph_kernel.h).
#include <array>
#include <mutex>
#include <string>
#include <utility>

#include "core/base/error.h"
#include "core/op/control/subgraph_kernel.h"

namespace weft {
namespace control {
namespace {
constexpr size_t kSlots = static_cast<size_t>(SubgraphSlot::kCount);
std::array<FCompute, kSlots>& Table() {
  static auto* t = new std::array<FCompute, kSlots>();  // leaked: kernels may run at exit
  return *t;
}
std::mutex& TableMutex() {
  static auto* m = new std::mutex();
  return *m;
}
size_t Index(SubgraphSlot slot) {
  const auto i = static_cast<size_t>(slot);
  WEFT_CHECK(i < kSlots, kInternal) << "subgraph kernel slot " << i << " out of range";
  return i;
}
}  // namespace

void SetSubgraphKernel(SubgraphSlot slot, FCompute kernel) {
  std::lock_guard<std::mutex> lk(TableMutex());
  Table()[Index(slot)] = std::move(kernel);
}

FCompute SubgraphKernel(SubgraphSlot slot, const std::string& op) {
  std::lock_guard<std::mutex> lk(TableMutex());
  const FCompute& k = Table()[Index(slot)];
  WEFT_CHECK(static_cast<bool>(k), kInvalidArgument)
      << op << ": this build has no graph runner for control-flow operators";
  return k;
}

}  // namespace control
}  // namespace weft
