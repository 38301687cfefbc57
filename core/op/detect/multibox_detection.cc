// _contrib_MultiBoxDetection (MXNet 1.9.1 contrib/multibox_detection.cc):
// SSD detections from class probabilities, box regressions and anchors.
// Rule: multibox_drivers.h DetectBatch; kernels: detect_cpu.cc, detect.cu.
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/op/detect/detect_cpu.h"
#include "core/op/detect/detect_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace detect {
namespace {

bool DetectionShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  WEFT_CHECK(p.GetFloatTuple("variances").size() == 4, kInvalidArgument)
      << op << ": parameter 'variances' must have 4 entries, got " << p.GetFloatTuple("variances").size();
  const Shape& c = (*in)[0];
  if (!c.known()) return false;
  WEFT_CHECK(c.ndim() == 3, kShape) << op << ": input 'cls_prob': expected 3 dimensions (batch, num_classes, "
                                    << "num_anchors), got " << c.ToString();
  WEFT_CHECK(c[1] >= 2, kShape) << op << ": input 'cls_prob': expected at least 2 classes (background and one), "
                                << "got shape " << c.ToString();
  AssignShape(in, 1, Shape{c[0], CheckedMul(c[2], 4, (op + ": loc_pred's width (num_anchors * 4)").c_str())},
              op + ": input 'loc_pred'");
  AssignShape(in, 2, Shape{1, c[2], 4}, op + ": input 'anchor'");
  AssignShape(out, 0, Shape{c[0], c[2], 6}, op + ": output");
  return true;
}

}  // namespace

WEFT_REGISTER_OP("_contrib_MultiBoxDetection")
    .describe("Convert multibox detection predictions.\n\n"
              "For each anchor, the class of highest probability other than background_id (if at least "
              "threshold) gives a row [class_id, score, xmin, ymin, xmax, ymax] (class ids above the background "
              "shift down by one), the box decoded from loc_pred with variances (clipped to [0, 1] when clip). The "
              "rows are sorted by score (the first nms_topk when > 0), then non-maximum suppression (IoU >= "
              "nms_threshold, same class unless force_suppress) sets the suppressed rows' class_id to -1. Unused "
              "rows are -1. Output (batch, num_anchors, 6). Zero gradients are back-propagated (as MXNet).")
    .add_input("cls_prob")
    .add_input("loc_pred")
    .add_input("anchor")
    .add_param("clip", ParamType::kBool, "True", "Clip out-of-boundary boxes.")
    .add_param("threshold", ParamType::kFloat, "0.01", "Threshold to be a positive prediction.")
    .add_param("background_id", ParamType::kInt, "0", "Background id.")
    .add_param("nms_threshold", ParamType::kFloat, "0.5", "Non-maximum suppression threshold.")
    .add_param("force_suppress", ParamType::kBool, "False", "Suppress all detections regardless of class_id.")
    .add_param("variances", ParamType::kFloatTuple, "(0.1, 0.1, 0.2, 0.2)",
               "Variances to be decoded from box regression output.")
    .add_param("nms_topk", ParamType::kInt, "-1", "Keep maximum top k detections before nms, -1 for no limit.")
    .set_infer_shape(DetectionShape)
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(MultiBoxDetectionKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::MultiBoxDetectionKernelGpu))
    .set_gradient(ZeroGradients);

}  // namespace detect
}  // namespace weft
