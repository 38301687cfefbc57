// _contrib_MultiBoxTarget (MXNet 1.9.1 contrib/multibox_target.cc): SSD
// training targets from anchors, labels and class predictions. Rule:
// multibox_drivers.h TargetBatch; kernels: detect_cpu.cc, detect.cu.
#include <string>
#include <vector>

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

bool TargetShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  WEFT_CHECK(p.GetFloatTuple("variances").size() == 4, kInvalidArgument)
      << op << ": parameter 'variances' must have 4 entries, got " << p.GetFloatTuple("variances").size();
  WEFT_CHECK(p.GetFloat("negative_mining_ratio") <= 0 || p.GetFloat("negative_mining_thresh") > 0, kInvalidArgument)
      << op << ": parameter 'negative_mining_thresh' must be positive when negative mining is on, got "
      << p.GetFloat("negative_mining_thresh");
  const Shape& a = (*in)[0];
  const Shape& l = (*in)[1];
  if (!a.known() || !l.known()) return false;
  WEFT_CHECK(a.ndim() == 3 && a[0] == 1 && a[2] == 4, kShape)
      << op << ": input 'anchor': expected shape (1, num_anchors, 4), got " << a.ToString();
  WEFT_CHECK(l.ndim() == 3 && l[2] >= 5, kShape)
      << op << ": input 'label': expected shape (batch, num_labels, >= 5) (class, xmin, ymin, xmax, ymax), got "
      << l.ToString();
  const Shape& c = (*in)[2];
  if (c.known()) {
    WEFT_CHECK(c.ndim() == 3 && c[0] == l[0] && c[2] == a[1], kShape)
        << op << ": input 'cls_pred': expected shape (" << l[0] << ", num_classes, " << a[1] << "), got "
        << c.ToString();
  }
  AssignShape(out, 0, Shape{l[0], a[1] * 4}, op + ": output 0 (loc_target)");
  AssignShape(out, 1, Shape{l[0], a[1] * 4}, op + ": output 1 (loc_mask)");
  AssignShape(out, 2, Shape{l[0], a[1]}, op + ": output 2 (cls_target)");
  return c.known();
}

}  // namespace

WEFT_REGISTER_OP("_contrib_MultiBoxTarget")
    .describe("Compute Multibox training targets.\n\n"
              "The ground truths (label rows [class, xmin, ymin, xmax, ymax] up to the first class -1) are each "
              "matched to their best anchor, then every other anchor to its best ground truth when the IoU exceeds "
              "overlap_threshold. Negatives are all the other anchors, or with negative_mining_ratio > 0 the "
              "ratio * positives anchors of lowest background probability (softmax of cls_pred) among those with "
              "IoU < negative_mining_thresh. Outputs: loc_target (batch, num_anchors * 4) with the variance-scaled "
              "center offsets of the positives, loc_mask (1 for the positives), cls_target (batch, num_anchors): "
              "class + 1 for positives, 0 for negatives, ignore_label otherwise. Zero gradients (as MXNet).")
    .add_input("anchor")
    .add_input("label")
    .add_input("cls_pred")
    .add_param("overlap_threshold", ParamType::kFloat, "0.5", "Anchor-GT overlap threshold to be regarded as a "
                                                              "positive match.")
    .add_param("ignore_label", ParamType::kFloat, "-1", "Label for ignored anchors.")
    .add_param("negative_mining_ratio", ParamType::kFloat, "-1", "Max negative to positive samples ratio, use -1 "
                                                                 "to disable mining")
    .add_param("negative_mining_thresh", ParamType::kFloat, "0.5", "Threshold used for negative mining.")
    .add_param("minimum_negative_samples", ParamType::kInt, "0", "Minimum number of negative samples (accepted; "
                                                                 "unused, as in MXNet's kernel).")
    .add_param("variances", ParamType::kFloatTuple, "(0.1, 0.1, 0.2, 0.2)",
               "Variances to be encoded in box regression target.")
    .set_num_outputs(3)
    .set_infer_shape(TargetShape)
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(MultiBoxTargetKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::MultiBoxTargetKernelGpu))
    .set_gradient(ZeroGradients);

}  // namespace detect
}  // namespace weft
