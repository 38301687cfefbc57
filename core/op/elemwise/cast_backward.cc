// _backward_Cast: the gradient of Cast, back in the input's dtype.
// Each backward op here takes the forward input whose shape (or dtype) its
// result has as an extra input: graph shape inference runs forward from the
// arguments, so a backward node cannot learn "the shape of the forward input"
// any other way.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/op/common/copy_cpu.h"

#include "core/opdef/op_def.h"
#include "core/op/elemwise/elemwise_gpu.h"

#include "core/op/op_util.h"

namespace weft {
namespace {

// ---- _backward_Cast ----

WEFT_REGISTER_OP("_backward_Cast").set_compute_gpu(WEFT_GPU(cuda::CopyGpu("_backward_Cast")))
    .describe("Gradient of Cast: out_grad converted back to the dtype of `data` (only data's dtype is read; "
              "the result has out_grad's shape, so norm's rule also uses it for out_dtype).")
    .add_input("out_grad")
    .add_input("data")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, (*in)[0], "_backward_Cast: output");
      return (*in)[1].known();
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 1);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
    })
    .set_fusion(FusionClass::kElementwise);

}  // namespace
}  // namespace weft
