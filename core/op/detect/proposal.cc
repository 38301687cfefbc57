// _contrib_Proposal and _contrib_MultiProposal (MXNet 1.9.1
// contrib/proposal.cc, multi_proposal.cc): Faster R-CNN region proposals
// from RPN scores and box deltas. Proposal takes one image, MultiProposal a
// batch; the rows of rois are [image index, x1, y1, x2, y2]; the score
// output is visible with output_score. Rule: proposal_drivers.h ProposalImage.
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/op/detect/detect_cpu.h"
#include "core/op/detect/detect_gpu.h"
#include "core/op/detect/proposal_drivers.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace detect {
namespace {

bool ProposalShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, bool multi) {
  const std::string& op = p.op()->name;
  const size_t na = p.GetFloatTuple("scales").size() * p.GetFloatTuple("ratios").size();
  WEFT_CHECK(na >= 1 && na <= static_cast<size_t>(kMaxProposalAnchors), kInvalidArgument)
      << op << ": len(scales) * len(ratios) must be 1 to " << kMaxProposalAnchors << ", got " << na;
  WEFT_CHECK(p.GetInt("rpn_post_nms_top_n") >= 1, kInvalidArgument)
      << op << ": parameter 'rpn_post_nms_top_n' must be at least 1, got " << p.GetInt("rpn_post_nms_top_n");
  WEFT_CHECK(p.GetInt("feature_stride") >= 1, kInvalidArgument)
      << op << ": parameter 'feature_stride' must be at least 1, got " << p.GetInt("feature_stride");
  const Shape& c = (*in)[0];
  if (!c.known()) return false;
  const int64_t a = static_cast<int64_t>(na);
  WEFT_CHECK(c.ndim() == 4 && c[1] == 2 * a, kShape)
      << op << ": input 'cls_prob': expected shape (batch, 2 * " << a << " anchors, height, width), got "
      << c.ToString();
  WEFT_CHECK(multi || c[0] == 1, kShape) << op << ": input 'cls_prob': expected batch 1 (use "
                                         << "_contrib_MultiProposal for a batch), got shape " << c.ToString();
  AssignShape(in, 1, Shape{c[0], 4 * a, c[2], c[3]}, op + ": input 'bbox_pred'");
  AssignShape(in, 2, Shape{c[0], 3}, op + ": input 'im_info'");
  const int64_t rows = CheckedMul(c[0], p.GetInt("rpn_post_nms_top_n"), (op + ": batch * rpn_post_nms_top_n").c_str());
  AssignShape(out, 0, Shape{rows, 5}, op + ": output 0 (rois)");
  AssignShape(out, 1, Shape{rows, 1}, op + ": output 1 (score)");
  return true;
}

void Declare(const char* name, bool multi) {
  WEFT_REGISTER_OP(op, name);
  op.describe(std::string(multi ? "Generate region proposals via RPN, for a batch of images.\n\n"
                                : "Generate region proposals via RPN (one image).\n\n") +
              "Anchors (ratios outer, scales inner, from the feature_stride square) are shifted over the (height, "
              "width) map, moved by bbox_pred (center and log-size deltas, or corner offsets with iou_loss) and "
              "clipped to im_info's (height, width); boxes smaller than rpn_min_size * im_info's scale score -1. "
              "The rpn_pre_nms_top_n highest-scoring go through non-maximum suppression (IoU > threshold) and the "
              "first rpn_post_nms_top_n kept ones (repeated when fewer) are the rows [image, x1, y1, x2, y2] of "
              "the output; their scores are a second output, visible with output_score. Zero gradients.");
  op.add_input("cls_prob").add_input("bbox_pred").add_input("im_info");
  op.add_param("rpn_pre_nms_top_n", ParamType::kInt, "6000", "Number of top scoring boxes to keep before applying "
                                                             "NMS to RPN proposals")
      .add_param("rpn_post_nms_top_n", ParamType::kInt, "300", "Number of top scoring boxes to keep after applying "
                                                               "NMS to RPN proposals")
      .add_param("threshold", ParamType::kFloat, "0.7", "NMS value, below which to suppress.")
      .add_param("rpn_min_size", ParamType::kInt, "16", "Minimum height or width in proposal")
      .add_param("scales", ParamType::kFloatTuple, "(4, 8, 16, 32)", "Used to generate anchor windows by "
                                                                    "enumerating scales")
      .add_param("ratios", ParamType::kFloatTuple, "(0.5, 1, 2)", "Used to generate anchor windows by enumerating "
                                                                  "ratios")
      .add_param("feature_stride", ParamType::kInt, "16", "The size of the receptive field each unit in the "
                                                          "convolution layer of the rpn,for example the product of "
                                                          "all stride's prior to this layer.")
      .add_param("output_score", ParamType::kBool, "False", "Add score to outputs")
      .add_param("iou_loss", ParamType::kBool, "False", "Usage of IoU Loss");
  op.set_num_outputs(2);
  op.num_visible_outputs_fn = [](const Params& p) { return p.GetBool("output_score") ? 2 : 1; };
  op.set_infer_shape([multi](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return ProposalShape(p, in, out, multi);
    })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(ProposalKernelCpu)
      .set_compute_gpu(WEFT_GPU(cuda::ProposalKernelGpu))
      .set_gradient(ZeroGradients);
}

[[maybe_unused]] const bool kRegistered = [] {
  Declare("_contrib_Proposal", false);
  Declare("_contrib_MultiProposal", true);
  return true;
}();

}  // namespace
}  // namespace detect
}  // namespace weft
