// _contrib_AdaptiveAvgPooling2D (MXNet 1.x contrib) and its backward op: data
// (N, C, H, W) averaged over output_size bins (adaptive_avg_pool_rules.h).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/spatial/spatial_cpu.h"
#include "core/op/spatial/spatial_gpu.h"

namespace weft {
namespace {

constexpr const char* kFwd = "_contrib_AdaptiveAvgPooling2D";
constexpr const char* kBwd = "_backward_contrib_AdaptiveAvgPooling2D";

void AddPoolParams(OpDef& op) {
  op.add_param("output_size", ParamType::kShape, "()",
               "int (output size) or a tuple of int for output (height, width).");
}

// The (OH, OW) of output_size: () is (1, 1), (s,) is (s, s).
std::pair<int64_t, int64_t> OutputSize(const Params& p, const std::string& op) {
  const std::vector<int64_t>& s = p.GetTuple("output_size");
  WEFT_CHECK(s.size() <= 2, kInvalidArgument)
      << op << ": parameter 'output_size' must be an int or a tuple of 2 ints, got " << s.size() << " values";
  const int64_t oh = s.empty() ? 1 : s[0], ow = s.empty() ? 1 : (s.size() == 1 ? s[0] : s[1]);
  WEFT_CHECK(oh >= 1 && ow >= 1, kInvalidArgument)
      << op << ": parameter 'output_size' must be positive, got (" << oh << ", " << ow << ")";
  return {oh, ow};
}

void CheckData(const std::string& op, const Shape& d) {
  WEFT_CHECK(d.ndim() == 4, kShape) << op << ": input 'data' must be 4-D in (batch, channel, y, x), got "
                                    << d.ToString();
}

[[maybe_unused]] const bool kAdaptiveRegistered = [] {
  WEFT_REGISTER_OP(fwd, kFwd);
  fwd.describe("Applies a 2D adaptive average pooling over a 4D input with the shape of (NCHW). The pooling "
               "kernel and stride sizes are automatically chosen for desired output sizes.\n\n"
               "- If a single integer is provided for output_size, the output size is (N x C x output_size x "
               "output_size) for any input (NCHW).\n\n"
               "- If a tuple of integers (height, width) are provided for output_size, the output size is "
               "(N x C x height x width) for any input (NCHW).\n\n"
               "Output (y, x) averages rows [floor(y H / OH), ceil((y + 1) H / OH)) and the columns likewise.")
      .add_input("data");
  AddPoolParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const auto o = OutputSize(p, kFwd);
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        CheckData(kFwd, d);
        AssignShape(out, 0, Shape{d[0], d[1], o.first, o.second}, std::string(kFwd) + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::AdaptiveAvgPool)
      .set_compute_gpu(WEFT_GPU(cuda::AdaptiveAvgPoolGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, kBwd, {og[0], n->inputs[0]});
      });

  WEFT_REGISTER_OP(bwd, kBwd);
  bwd.describe("Gradient of _contrib_AdaptiveAvgPooling2D: inputs (out_grad, data); each output bin's "
               "gradient is spread evenly over the input elements of its bin.")
      .add_input("out_grad")
      .add_input("data");
  AddPoolParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const auto o = OutputSize(p, kBwd);
        const Shape& g = (*in)[0];
        const Shape& d = (*in)[1];
        if (!g.known() || !d.known()) return false;
        CheckData(kBwd, d);
        WEFT_CHECK(g == Shape({d[0], d[1], o.first, o.second}), kShape)
            << kBwd << ": input 'out_grad' has shape " << g.ToString() << ", expected (" << d[0] << ", " << d[1]
            << ", " << o.first << ", " << o.second << ")";
        AssignShape(out, 0, d, std::string(kBwd) + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::AdaptiveAvgPoolBackward)
      .set_compute_gpu(WEFT_GPU(cuda::AdaptiveAvgPoolBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
