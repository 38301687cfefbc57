// `_CrossDeviceCopy` (MXNet 1.x): the node the placement pass puts on an edge
// between two contexts of a `group2ctx` bind (Note [Device placement] in
// core/graph/place_device.cc). MXNet's executor runs it as a special copy
// (ExecType::kCrossDeviceCopy); here it is an ordinary op whose kernel runs on
// its input's device and writes its output, wherever that array lives:
// between CPU contexts both are host memory, so the CPU copy is the whole
// transfer, and the engine orders it by the vars it reads and writes. The
// placement pass refuses edges between a CPU and a GPU context, which this
// kernel could not cross. Called on one device (imperatively) it is a copy.
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

void CrossDeviceCopyCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
}

WEFT_REGISTER_OP("_CrossDeviceCopy")
    .set_compute_gpu(WEFT_GPU(cuda::CopyGpu("_CrossDeviceCopy")))
    .describe("Copies data between the contexts of a model-parallel executor (bind with group2ctx); inserted by "
              "the executor where an edge crosses contexts. Called directly, it copies its input.")
    .add_input("data")
    .set_compute_cpu(CrossDeviceCopyCompute)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // a copy: the gradient passes back through one
      return {b("_CrossDeviceCopy", {og[0]})};
    });

}  // namespace
}  // namespace weft
