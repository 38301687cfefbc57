// reset_arrays (MXNet 1.x, used by the aggregated LARS/LAMB optimizers to
// clear their accumulators): no outputs; every one of its num_arrays inputs is
// set to zero in place. The inputs are declared written (set_mutate_inputs_fn),
// so the engine orders the reset after every earlier read of them and every
// later read after it. Zero bits are zero in every dtype, so one byte fill
// serves them all (GPU: reset_arrays.cu).
#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/opdef/op_def.h"
#include "core/op/optim/reset_arrays_gpu.h"

namespace weft {
namespace {

[[maybe_unused]] const bool kRegistered = [] {
  WEFT_REGISTER_OP(op, "reset_arrays");
  op.describe("Set to zero multiple arrays (in place; the op has no outputs).")
      .set_variadic("num_arrays")
      .add_required_param("num_arrays", ParamType::kInt, "number of input arrays.")
      .set_num_outputs(0)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>*) {
        WEFT_CHECK(p.GetInt("num_arrays") >= 1, kInvalidArgument)
            << "reset_arrays: parameter 'num_arrays' must be at least 1, got " << p.GetInt("num_arrays");
        for (const Shape& s : *in)
          if (!s.known()) return false;
        return true;
      })
      .set_infer_type([](const Params&, std::vector<DType>* in, std::vector<DType>*) {
        for (DType t : *in)
          if (t == DType::kUnknown) return false;
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>&, const std::vector<TensorView>&) {
        for (const TensorView& x : in)
          if (x.Size() > 0) x.ZeroFill();
      })
      .set_compute_gpu(WEFT_GPU(cuda::ResetArraysGpu));
  op.set_mutate_inputs_fn([](const Params& p) {
    std::vector<int> all(static_cast<size_t>(std::max<int64_t>(0, p.GetInt("num_arrays"))));
    std::iota(all.begin(), all.end(), 0);
    return all;
  });
  return true;
}();

}  // namespace
}  // namespace weft
