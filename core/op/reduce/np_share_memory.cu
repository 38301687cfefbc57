// GPU kernel of _npi_share_memory: the overlap is decided from the two
// buffers' addresses on the host (Note [Shared memory as overlapping byte
// ranges]) and one thread writes it.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/reduce/np_share_memory.h"
#include "core/op/reduce/np_share_memory_gpu.h"

namespace weft {
namespace cuda {
namespace {

void ShareMemory(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const bool v = reduce_np::BuffersOverlap(in[0], in[1]);
  bool* o = out[0].ptr<bool>();
  Launch(ctx, 1, [=] WEFT_HD(int64_t i) { o[i] = v; });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpShareMemoryGpu, ShareMemory)  // _npi_share_memory

}  // namespace cuda
}  // namespace weft
