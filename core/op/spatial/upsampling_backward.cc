// _backward_UpSampling_multi: the gradient of nearest UpSampling with several
// inputs.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/op/spatial/upsampling_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/spatial/upsampling_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// ---- _backward_UpSampling_multi ----

[[maybe_unused]] const bool kUpSamplingMultiRegistered = [] {
  WEFT_REGISTER_OP(op, "_backward_UpSampling_multi").set_compute_gpu(WEFT_GPU(cuda::BackwardUpSamplingMultiGpu));
  op.describe("Gradient of nearest UpSampling with any num_args: inputs (out_grad, arg0, ..., "
              "arg{num_args-1}), where the args are the forward inputs (only their shapes are read; "
              "_backward_UpSampling cannot infer them from out_grad when num_args > 1). Output i gets the "
              "block sums of out_grad over input i's channels.")
      .set_variadic("num_args")
      .add_required_param("num_args", ParamType::kInt, "Number of inputs of the forward UpSampling.")
      .add_enum_param("multi_input_mode", {"concat", "sum"}, "concat",
                      "How the forward combined its inputs (see UpSampling).")
      .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_args")); })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!ShapesOfArgs(p, in, out)) return false;
        // The kernel reads out_grad at each arg's channel offset and scale (out_grad h / arg h): the args
        // must be what the forward took for this out_grad.
        const Shape& g = (*in)[0];
        const bool sum = p.GetString("multi_input_mode") == "sum";
        WEFT_CHECK(g.ndim() == 4, kShape) << "_backward_UpSampling_multi: out_grad must be 4-D, got " << g.ToString();
        int64_t channels = 0;
        for (size_t i = 1; i < in->size(); ++i) {
          const Shape& a = (*in)[i];
          bool ok = a.ndim() == 4 && a[0] == g[0] && (!sum || a[1] == g[1]);
          if (ok && a.Size() > 0)
            ok = g[2] % a[2] == 0 && g[2] / a[2] >= 1 && g[3] == (g[2] / a[2]) * a[3];
          WEFT_CHECK(ok, kShape) << "_backward_UpSampling_multi: arg " << i - 1 << " of shape " << a.ToString()
                                 << " does not upsample to out_grad " << g.ToString();
          channels = CheckedAdd(channels, a[1], "_backward_UpSampling_multi: channels");
        }
        WEFT_CHECK(sum || channels == g[1], kShape)
            << "_backward_UpSampling_multi: the args' channels add to " << channels << ", out_grad has " << g[1];
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::UpSamplingNearestBackward(in[0], p.GetString("multi_input_mode") == "sum", req, out);
      });
  op.list_input_names = GradAndArgs;
  op.list_output_names = ArgGrads;
  return true;
}();

}  // namespace
}  // namespace weft
