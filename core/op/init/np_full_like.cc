// _npi_full_like: MXNet 1.9.1's np.full_like (NumPy mode writes it): an array
// of the input's shape filled with fill_value, in `dtype` or, when None, the
// input's dtype (the value converted as a C cast: 3.5 gives 3 in int32, as in
// MXNet). No legacy operator takes a fill value and a shape from an input.
// The values do not depend on the input: its gradient is zeros (MXNet's
// MakeZeroGradNodes).
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/init/np_full_like_gpu.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

WEFT_REGISTER_OP("_npi_full_like").set_compute_gpu(WEFT_GPU(cuda::NpFullLikeGpu))
    .describe("NumPy's full_like (MXNet's `_npi_full_like`): an array of a's shape filled with fill_value, of "
              "dtype `dtype` (None: a's dtype).")
    .add_input("a")
    .add_required_param("fill_value", ParamType::kFloat, "The fill value (converted to the output's dtype).")
    .add_param("ctx", ParamType::kString, "", "Accepted for MXNet compatibility; the output is on a's device.")
    .add_optional_param("dtype", ParamType::kDType, "The output dtype; None: a's dtype.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return ShapeOfInput(p, in, out, 0);
    })
    .set_same_shape(SameShapeSlots::Data())  // so a known output shape gives a's
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      if (!p.IsNone("dtype")) {
        AssignType(out, 0, p.GetDType("dtype"), "_npi_full_like: output (dtype)");
        return true;
      }
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>&,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::FillCPU(out[0], req[0], p.GetFloat("fill_value"));
    })
    .set_gradient(ZeroGradients);

}  // namespace
}  // namespace weft
