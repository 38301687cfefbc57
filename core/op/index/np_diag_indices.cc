// _npi_diag_indices_from (np.diag_indices_from, MXNet 1.9.1's registered name,
// issue 37): the indices of the main diagonal of a square array of n^ndim
// elements, as one int64 array of shape (ndim, n) whose every row is 0..n-1
// (np.diag_indices_from returns its rows as a tuple). Only the input's shape is
// read, so the gradient is zero (as MXNet's). GPU kernel in np_diag_indices.cu.
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/index/np_diag_indices_gpu.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

Shape DiagIndicesShape(const Shape& in) {
  const char* op = "_npi_diag_indices_from";
  WEFT_CHECK(in.ndim() >= 2, kShape) << op << ": input 'data' must be at least 2-d, got shape " << in.ToString();
  for (int d = 1; d < in.ndim(); ++d)
    WEFT_CHECK(in[d] == in[0], kShape) << op << ": all dimensions of input 'data' must be of equal length, got "
                                       << in.ToString();
  return Shape{in.ndim(), in[0]};
}

WEFT_REGISTER_OP("_npi_diag_indices_from").set_compute_gpu(WEFT_GPU(cuda::NpDiagIndicesGpu))
    .describe("The indices of the main diagonal of an n x n x ... array (np.diag_indices_from), as an int64 "
              "array of shape (ndim, n): row d indexes axis d.")
    .add_input("data")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, DiagIndicesShape((*in)[0]), "_npi_diag_indices_from: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      AssignType(out, 0, DType::kInt64, "_npi_diag_indices_from: output");
      return (*in)[0] != DType::kUnknown;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      if (req[0] == OpReq::kNull) return;
      const int64_t n = out[0].shape[1];
      int64_t* y = out[0].ptr<int64_t>();
      for (int64_t i = 0; i < out[0].Size(); ++i) StoreReq(req[0], y + i, i % n);
    })
    .set_gradient(ZeroGradients);

}  // namespace
}  // namespace weft
