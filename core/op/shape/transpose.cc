// transpose: permutes the axes (reverses them by default). The kernel is the
// shared strided copy (core/op/common/copy_cpu.cc), which merges axes that stay
// adjacent and copies unit-stride rows with memcpy.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/shape/reshape_transpose_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// The permutation for input shape d: out axis i is input axis perm[i].
std::vector<int> Permutation(const Params& p, const Shape& d) {
  const std::vector<int64_t>& axes = p.GetTuple("axes");
  const int nd = d.ndim();
  std::vector<int> perm(static_cast<size_t>(nd));
  if (axes.empty()) {
    for (int i = 0; i < nd; ++i) perm[static_cast<size_t>(i)] = nd - 1 - i;
    return perm;
  }
  tensor::CheckNoNone(axes, "transpose", "axes");
  WEFT_CHECK(static_cast<int>(axes.size()) == nd, kInvalidArgument)
      << "transpose: axes " << tensor::TupleString(axes) << " must list each of the " << nd
      << " axes of input 'data' with shape " << d.ToString();
  std::vector<bool> seen(static_cast<size_t>(nd), false);
  for (int i = 0; i < nd; ++i) {
    int ax = tensor::NormalizeAxis(axes[static_cast<size_t>(i)], nd, "transpose", "data");
    WEFT_CHECK(!seen[static_cast<size_t>(ax)], kInvalidArgument)
        << "transpose: axes " << tensor::TupleString(axes) << " repeat axis " << ax;
    seen[static_cast<size_t>(ax)] = true;
    perm[static_cast<size_t>(i)] = ax;
  }
  return perm;
}

WEFT_REGISTER_OP("transpose").set_compute_gpu(WEFT_GPU(cuda::TransposeGpu)).add_method("transpose")
    .describe("Permutes the dimensions of an array.\n\n"
              "Output axis i is input axis axes[i]; with axes=() the axes are reversed (a matrix is "
              "transposed).")
    .add_input("data")
    .add_param("axes", ParamType::kShape, "()", "The target axes order; () reverses the axes.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& d = (*in)[0];
      if (!d.known()) return false;
      std::vector<int> perm = Permutation(p, d);
      Shape o;
      for (int ax : perm) o.push_back(d[ax]);
      AssignShape(out, 0, o, "transpose: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      std::vector<int> perm = Permutation(p, in[0].shape);
      std::vector<int64_t> istride = tensor_cpu::ContiguousStrides(in[0].shape.dims());
      std::vector<int64_t> src_stride;
      for (int ax : perm) src_stride.push_back(istride[static_cast<size_t>(ax)]);
      tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
        tensor_cpu::StridedCopy(DTypeSize(o.dtype), o.shape.dims(), in[0].data, 0, src_stride, o.data, 0,
                                tensor_cpu::ContiguousStrides(o.shape.dims()));
      });
    })
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      // The inverse permutation (a reversal is its own inverse).
      GradBuilder b(n);
      const std::vector<int64_t>& axes = n->params.GetTuple("axes");
      std::vector<int64_t> inverse(axes.size());
      const int nd = static_cast<int>(axes.size());
      for (int i = 0; i < nd; ++i)
        inverse[static_cast<size_t>(tensor::NormalizeAxis(axes[static_cast<size_t>(i)], nd, "transpose", "data"))] = i;
      return {b("transpose", {og[0]}, {{"axes", tensor::TupleString(inverse)}})};
    });

}  // namespace
}  // namespace weft
