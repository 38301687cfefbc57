// add_n (alias ElementWiseSum, MXNet 1.x): the sum of any number of arrays of
// one shape and dtype. Kernels: add_n_cpu.cc, misc.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/graph.h"
#include "core/op/elemwise/add_n_cpu.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

WEFT_REGISTER_OP("add_n").set_compute_gpu(WEFT_GPU(cuda::AddNGpu))
    .set_same_shape(SameShapeSlots::All())
    .set_fused_form(FusedForm::kAddN, "add")
    .describe("Adds all input arguments element-wise.\n\n"
              ".. math::\n   add\\_n(a_1, a_2, ..., a_n) = a_1 + a_2 + ... + a_n\n\n"
              "``add_n`` is potentially more efficient than calling ``add`` by `n` times. All inputs have one "
              "shape and dtype; integer sums wrap.")
    .add_alias("ElementWiseSum")
    .add_alias("_sparse_ElementWiseSum")
    .set_variadic("num_args")
    .add_required_param("num_args", ParamType::kInt, "Number of inputs to be summed.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      WEFT_CHECK(p.GetInt("num_args") >= 1, kInvalidArgument)
          << "add_n: parameter 'num_args' must be at least 1, got " << p.GetInt("num_args");
      return SameShapeInfer(*p.op(), p, in, out);
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      bool done = SameTypeInfer(*p.op(), p, in, out);
      WEFT_CHECK((*out)[0] != DType::kBool, kDType) << "add_n: bool inputs are not supported";
      return done;
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      elemwise_cpu::AddN(in, req[0], out[0]);
    })
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kElementwise)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
      return std::vector<NodeEntry>(n->inputs.size(), og[0]);  // every input gets out_grad
    });

}  // namespace
}  // namespace weft
