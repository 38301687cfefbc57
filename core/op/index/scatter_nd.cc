// scatter_nd: zeros of `shape` with data's slices put at the N-dimensional
// indices (the inverse of gather_nd). The kernels are _backward_gather_nd's
// (indexing_backward_cpu.cc, indexing.cu), which take (values, indices) and
// write out's shape; repeated indices add up there, where MXNet leaves the
// result undefined.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/index/indexing_backward_cpu.h"
#include "core/op/index/indexing_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

WEFT_REGISTER_OP("scatter_nd").set_compute_gpu(WEFT_GPU(cuda::BackwardGatherNdGpu))
    .describe("Scatters data into a new array of `shape` (zeros elsewhere): with indices of shape (M, Y...), "
              "out[indices[0, y], ..., indices[M-1, y], ...] = data[y, ...]; data has shape (Y...) + shape[M:].")
    .add_input("data")
    .add_input("indices")
    .add_required_param("shape", ParamType::kShape, "Shape of the output.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const std::vector<int64_t>& s = p.GetTuple("shape");
      tensor::CheckNoNone(s, "scatter_nd", "shape");
      AssignShape(out, 0, Shape(s), "scatter_nd: output (shape)");
      if (!(*in)[1].known()) return false;
      const Shape& idx = (*in)[1];
      WEFT_CHECK(idx.ndim() >= 1 && idx[0] >= 1 && idx[0] <= static_cast<int64_t>(s.size()), kShape)
          << "scatter_nd: input 'indices' of shape " << idx.ToString() << " must have a first dimension M in [1, "
          << s.size() << "] (the number of indexed axes of shape " << tensor::TupleString(s) << ")";
      Shape d(std::vector<int64_t>(idx.dims().begin() + 1, idx.dims().end()));
      for (size_t i = static_cast<size_t>(idx[0]); i < s.size(); ++i) d.push_back(s[i]);
      AssignShape(in, 0, d, "scatter_nd: input 'data' (indices.shape[1:] + shape[M:])");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::GatherNDBackwardCPU(in[0], in[1], req[0], out[0]);
    })
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // the indices take no gradient
      return {b("gather_nd", {og[0], b.in(1)}), NodeEntry{}};
    });

}  // namespace
}  // namespace weft
