// _contrib_MultiBoxPrior (MXNet 1.9.1 contrib/multibox_prior.cc): the SSD
// anchor boxes of a (batch, channel, height, width) feature map. Rule:
// multibox_drivers.h PriorBox; kernels: detect_cpu.cc, detect.cu.
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/op/detect/detect_cpu.h"
#include "core/op/detect/detect_gpu.h"
#include "core/op/detect/multibox_drivers.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace detect {
namespace {

void CheckPriorParams(const Params& p) {
  const std::string& op = p.op()->name;
  const std::vector<double>& sizes = p.GetFloatTuple("sizes");
  const std::vector<double>& ratios = p.GetFloatTuple("ratios");
  WEFT_CHECK(!sizes.empty() && sizes.size() <= kMaxPriorParams, kInvalidArgument)
      << op << ": parameter 'sizes' must have 1 to " << kMaxPriorParams << " entries, got " << sizes.size();
  WEFT_CHECK(!ratios.empty() && ratios.size() <= kMaxPriorParams, kInvalidArgument)
      << op << ": parameter 'ratios' must have 1 to " << kMaxPriorParams << " entries, got " << ratios.size();
  for (double s : sizes)
    WEFT_CHECK(s > 0, kInvalidArgument) << op << ": parameter 'sizes' entries must be positive, got " << s;
  for (double r : ratios)
    WEFT_CHECK(r > 0, kInvalidArgument) << op << ": parameter 'ratios' entries must be positive, got " << r;
  WEFT_CHECK(p.GetFloatTuple("steps").size() == 2, kInvalidArgument)
      << op << ": parameter 'steps' must have 2 entries (step_y, step_x), got " << p.GetFloatTuple("steps").size();
  WEFT_CHECK(p.GetFloatTuple("offsets").size() == 2, kInvalidArgument)
      << op << ": parameter 'offsets' must have 2 entries (offset_y, offset_x), got "
      << p.GetFloatTuple("offsets").size();
}

bool PriorShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  CheckPriorParams(p);
  const Shape& d = (*in)[0];
  if (!d.known()) return false;
  WEFT_CHECK(d.ndim() == 4, kShape) << p.op()->name << ": input 'data': expected 4 dimensions (batch, channel, "
                                    << "height, width), got " << d.ToString();
  if (d[2] == 0 || d[3] == 0) return false;
  const int64_t per = static_cast<int64_t>(p.GetFloatTuple("sizes").size() + p.GetFloatTuple("ratios").size()) - 1;
  const int64_t anchors = CheckedMul(CheckedMul(d[2], d[3], "_contrib_MultiBoxPrior: height * width"), per,
                                     "_contrib_MultiBoxPrior: anchors (height * width * anchors per position)");
  AssignShape(out, 0, Shape{1, anchors, 4}, p.op()->name + ": output");
  return true;
}

}  // namespace

WEFT_REGISTER_OP("_contrib_MultiBoxPrior")
    .describe("Generate prior(anchor) boxes from data, sizes and ratios.\n\n"
              "For each cell (row, col) of the (batch, channel, height, width) input, with center\n"
              "cy = (row + offsets[0]) * step_y and cx = (col + offsets[1]) * step_x (a step <= 0 means 1/height, "
              "1/width), the anchors are the sizes at ratio 1 (half width size * height / width / 2, half height "
              "size / 2), then sizes[0] at each ratio in ratios[1:] (width scaled by sqrt(ratio), height divided "
              "by it), as [xmin, ymin, xmax, ymax], clipped to [0, 1] when clip. Output shape (1, height * width * "
              "(len(sizes) + len(ratios) - 1), 4). Zero gradients are back-propagated (as MXNet).")
    .add_input("data")
    .add_param("sizes", ParamType::kFloatTuple, "(1,)", "List of sizes of generated MultiBoxPriores.")
    .add_param("ratios", ParamType::kFloatTuple, "(1,)", "List of aspect ratios of generated MultiBoxPriores.")
    .add_param("clip", ParamType::kBool, "False", "Whether to clip out-of-boundary boxes.")
    .add_param("steps", ParamType::kFloatTuple, "(-1, -1)", "Priorbox step across y and x, -1 for auto calculation.")
    .add_param("offsets", ParamType::kFloatTuple, "(0.5, 0.5)", "Priorbox center offsets, y and x respectively")
    .set_infer_shape(PriorShape)
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(MultiBoxPriorKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::MultiBoxPriorKernelGpu))
    .set_gradient(ZeroGradients);

}  // namespace detect
}  // namespace weft
