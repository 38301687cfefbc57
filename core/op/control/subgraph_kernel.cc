// The installed kernels of the subgraph operators (Note [Subgraph operators]).
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "core/base/error.h"
#include "core/op/control/subgraph_kernel.h"

namespace weft {
namespace control {
namespace {
std::map<std::string, FCompute>& Table() {
  static auto* t = new std::map<std::string, FCompute>();  // leaked: kernels may run at exit
  return *t;
}
std::mutex& TableMutex() {
  static auto* m = new std::mutex();
  return *m;
}
}  // namespace

void SetSubgraphKernel(const std::string& op, FCompute kernel) {
  std::lock_guard<std::mutex> lk(TableMutex());
  Table()[op] = std::move(kernel);
}

FCompute SubgraphKernel(const std::string& op) {
  std::lock_guard<std::mutex> lk(TableMutex());
  auto it = Table().find(op);
  WEFT_CHECK(it != Table().end() && it->second, kInvalidArgument)
      << op << ": this build has no graph runner for control-flow operators";
  return it->second;
}

}  // namespace control
}  // namespace weft
