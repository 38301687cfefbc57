// `_identity_with_attr_like_rhs(lhs, rhs)` (MXNet 1.x,
// src/operator/tensor/elemwise_unary_op_basic.cc): the output is lhs; rhs only
// lends its attributes. MXNet's legacy tests import it from
// mxnet.symbol._internal, and graphs written by MXNet's own passes (the sparse
// gradient rewrites, `_grad_add` chains) contain it.
//
// Note [Identity with rhs's attributes]
// MXNet declares it with ElemwiseShape<2, 1> and ElemwiseType<2, 1>: lhs, rhs
// and the output are one shape and one dtype, so an unknown lhs shape (or
// dtype) is filled from rhs and a mismatch is an error naming the op — which is
// the default inference of an OpDef without its own rules (SameShapeInfer and
// the shared-dtype rule), so none is set here. The kernel never reads rhs
// (MXNet's FIgnoreInputs {1}); its storage type, the other attribute MXNet
// copies from rhs, is always dense in Weft. The gradient is MXNet's: lhs gets
// the output gradient through a copy (`_backward_copy`, which is `_copyto` here)
// and rhs gets zeros_like(rhs).
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

void IdentityLikeRhsCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  tensor_cpu::ConvertCopy(in[0], req[0], out[0]);  // rhs is not read (Note [Identity with rhs's attributes])
}

WEFT_REGISTER_OP("_identity_with_attr_like_rhs")
    .set_compute_gpu(WEFT_GPU(cuda::CopyGpu("_identity_with_attr_like_rhs")))
    .describe("Returns lhs unchanged; the output takes the attributes of rhs: lhs, rhs and the output share one "
              "shape and one dtype, so either input's shape and dtype fill the other's in inference. rhs's values "
              "are never read. The gradient of lhs is the output gradient, that of rhs zeros.")
    .add_input("lhs")
    .add_input("rhs")
    .set_compute_cpu(IdentityLikeRhsCompute)
    .add_inplace(0, 0)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_copyto", {og[0]}), b.Zeros(b.in(1))};
    });

}  // namespace
}  // namespace weft
