// MXNet 1.9.1's _npi_share_memory(a, b) under its registered name: a 0-d bool,
// true when the two inputs' buffers overlap (np.shares_memory and
// np.may_share_memory; Note [Shared memory as overlapping byte ranges] in
// np_share_memory.h). Any dtypes, any shapes. No gradient: MXNet registers
// none (a backward through it fails there as "non-differentiable").
#include <vector>

#include "core/op/reduce/np_share_memory.h"
#include "core/op/reduce/np_share_memory_gpu.h"
#include "core/opdef/default_infer.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

void ShareMemoryCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] != OpReq::kNull) out[0].ptr<bool>()[0] = reduce_np::BuffersOverlap(in[0], in[1]);
}

WEFT_REGISTER_OP("_npi_share_memory")
    .describe("True (a 0-d bool) when the buffers of `a` and `b` overlap (np.shares_memory, "
              "np.may_share_memory); false when either is empty.")
    .add_input("a")
    .add_input("b")
    .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
      AssignShape(out, 0, Shape(std::vector<int64_t>{}), p.op()->name + ": output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>*, std::vector<DType>* out) {
      AssignType(out, 0, DType::kBool, p.op()->name + ": output");
      return true;
    })
    .set_compute_cpu(ShareMemoryCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpShareMemoryGpu));

}  // namespace
}  // namespace weft
