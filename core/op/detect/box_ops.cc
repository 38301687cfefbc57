// Box ops of MXNet 1.9.1's contrib (bounding_box.cc): _contrib_box_iou,
// _contrib_box_nms (alias _contrib_box_non_maximum_suppression; a hidden
// second output records where each kept row came from, for the gradient) and
// _backward_contrib_box_nms. Rules: box_rules.h; drivers: box_drivers.h.
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

const std::vector<std::string> kFormats = {"corner", "center"};

// A (..., 4) box array: the last dimension is 4 (filled when unknown).
void CheckBoxes(const std::string& op, const char* name, Shape* s) {
  if (!s->known()) return;
  WEFT_CHECK(s->ndim() >= 1 && ((*s)[s->ndim() - 1] == 4 || (*s)[s->ndim() - 1] == 0), kShape)
      << op << ": input '" << name << "': expected shape (..., 4) (boxes of 4 coordinates), got " << s->ToString();
  (*s)[s->ndim() - 1] = 4;
}

bool BoxIouShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  CheckBoxes("_contrib_box_iou", "lhs", &(*in)[0]);
  CheckBoxes("_contrib_box_iou", "rhs", &(*in)[1]);
  if (!(*in)[0].known() || !(*in)[1].known()) return false;
  std::vector<int64_t> d((*in)[0].dims().begin(), (*in)[0].dims().end() - 1);
  d.insert(d.end(), (*in)[1].dims().begin(), (*in)[1].dims().end() - 1);
  AssignShape(out, 0, Shape(d), p.op()->name + ": output");
  return true;
}

// MXNet's BoxNMSShape checks: width >= 5 (6 with a class id), the score, id
// and the four coordinates inside the row and apart.
void CheckNmsLayout(const Params& p, const Shape& s) {
  const std::string& op = p.op()->name;
  WEFT_CHECK(s.ndim() >= 2, kShape) << op << ": input 'data': expected at least 2 dimensions (..., num_boxes, "
                                    << "box_width), got " << s.ToString();
  const int64_t w = s[s.ndim() - 1];
  if (w == 0) return;
  const int64_t id = p.GetInt("id_index"), score = p.GetInt("score_index"), cs = p.GetInt("coord_start");
  const int64_t need = id >= 0 ? 6 : 5;
  WEFT_CHECK(w >= need, kShape) << op << ": input 'data': the last dimension must have at least " << need
                                << " elements (score, 4 coordinates" << (id >= 0 ? ", class id" : "") << "), got "
                                << s.ToString();
  WEFT_CHECK(score >= 0 && score < w, kInvalidArgument)
      << op << ": parameter 'score_index' = " << score << " is out of range [0, " << w << ")";
  WEFT_CHECK(cs >= 0 && cs + 3 < w, kInvalidArgument)
      << op << ": parameter 'coord_start' = " << cs << ": coordinates [" << cs << ", " << cs + 3
      << "] are out of range [0, " << w << ")";
  WEFT_CHECK(score < cs || score > cs + 3, kInvalidArgument)
      << op << ": parameter 'score_index' = " << score << " conflicts with the coordinates [" << cs << ", "
      << cs + 3 << "]";
  if (id >= 0) {
    WEFT_CHECK(id < w, kInvalidArgument) << op << ": parameter 'id_index' = " << id << " is out of range [0, " << w
                                         << ")";
    WEFT_CHECK(id < cs || id > cs + 3, kInvalidArgument)
        << op << ": parameter 'id_index' = " << id << " conflicts with the coordinates [" << cs << ", " << cs + 3
        << "]";
    WEFT_CHECK(id != score, kInvalidArgument)
        << op << ": parameter 'id_index' = " << id << " conflicts with 'score_index'";
  }
}

bool BoxNmsShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  Shape& d = (*in)[0];
  if (!d.known() && (*out)[0].known()) d = (*out)[0];
  if (!d.known()) return false;
  CheckNmsLayout(p, d);
  AssignShape(out, 0, d, p.op()->name + ": output 0");
  Shape rec = d;
  rec[rec.ndim() - 1] = 1;
  AssignShape(out, 1, rec, p.op()->name + ": output 1 (the record of kept rows)");
  return true;
}

}  // namespace

WEFT_REGISTER_OP("_contrib_box_iou")
    .describe("Bounding box overlap of two arrays. The overlap is defined as Intersection-over-Union, aka, IOU.\n\n"
              "  - lhs: (a_1, a_2, ..., a_n, 4) array\n  - rhs: (b_1, b_2, ..., b_n, 4) array\n"
              "  - output: (a_1, a_2, ..., a_n, b_1, b_2, ..., b_n) array\n\n"
              "format 'corner' is [xmin, ymin, xmax, ymax], 'center' is [x, y, width, height]. Zero gradients are "
              "back-propagated (as MXNet).\n\nExample::\n\n"
              "  x = [[0.5, 0.5, 1.0, 1.0], [0.0, 0.0, 0.5, 0.5]]\n  y = [[0.25, 0.25, 0.75, 0.75]]\n"
              "  box_iou(x, y, format='corner') = [[0.1428], [0.1428]]")
    .add_alias("_npx_box_iou")
    .add_input("lhs")
    .add_input("rhs")
    .add_enum_param("format", kFormats, "corner",
                    "The box encoding type. \"corner\" means boxes are encoded as [xmin, ymin, xmax, ymax], "
                    "\"center\" means boxes are encodes as [x, y, width, height].")
    .set_infer_shape(BoxIouShape)
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(BoxIouKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::BoxIouKernelGpu))
    .set_gradient(ZeroGradients);

[[maybe_unused]] const bool kBoxNmsRegistered = [] {
  WEFT_REGISTER_OP(op, "_contrib_box_nms");
  op.num_visible_outputs = 1;  // MXNet's record output is hidden
  op.describe("Apply non-maximum suppression to input.\n\n"
              "The output will be sorted in descending order according to ``score``. Boxes with overlaps larger "
              "than ``overlap_thresh``, smaller scores and background boxes will be removed and filled with -1, "
              "the corresponding position will be recorded for backward propogation. During back-propagation, "
              "the gradient will be copied to the original position according to the input index; suppressed "
              "positions get 0.\n\n"
              "Input: (..., n, k): n boxes of k elements per batch (leading dims are batches). By default a box "
              "is [id, score, xmin, ymin, xmax, ymax, ...]. Boxes with score <= valid_thresh (and, with "
              "id_index >= 0, of class background_id) are dropped first; topk keeps the highest-scoring ones.\n\n"
              "Example::\n\n"
              "  x = [[0, 0.5, 0.1, 0.1, 0.2, 0.2], [1, 0.4, 0.1, 0.1, 0.2, 0.2],\n"
              "       [0, 0.3, 0.1, 0.1, 0.14, 0.14], [2, 0.6, 0.5, 0.5, 0.7, 0.8]]\n"
              "  box_nms(x, overlap_thresh=0.1, coord_start=2, score_index=1, id_index=0,\n"
              "      force_suppress=True, in_format='corner', out_typ='corner') =\n"
              "      [[2, 0.6, 0.5, 0.5, 0.7, 0.8], [0, 0.5, 0.1, 0.1, 0.2, 0.2],\n"
              "       [-1, -1, -1, -1, -1, -1], [-1, -1, -1, -1, -1, -1]]")
    .add_alias("_contrib_box_non_maximum_suppression")
    .add_alias("_npx_box_nms")
    .add_input("data")
    .add_param("overlap_thresh", ParamType::kFloat, "0.5",
               "Overlapping(IoU) threshold to suppress object with smaller score.")
    .add_param("valid_thresh", ParamType::kFloat, "0",
               "Filter input boxes to those whose scores greater than valid_thresh.")
    .add_param("topk", ParamType::kInt, "-1", "Apply nms to topk boxes with descending scores, -1 to no restriction.")
    .add_param("coord_start", ParamType::kInt, "2", "Start index of the consecutive 4 coordinates.")
    .add_param("score_index", ParamType::kInt, "1", "Index of the scores/confidence of boxes.")
    .add_param("id_index", ParamType::kInt, "-1", "Optional, index of the class categories, -1 to disable.")
    .add_param("background_id", ParamType::kInt, "-1",
               "Optional, id of the background class which will be ignored in nms.")
    .add_param("force_suppress", ParamType::kBool, "False",
               "Optional, if set false and id_index is provided, nms will only apply to boxes belongs to the same "
               "category")
    .add_enum_param("in_format", kFormats, "corner",
                    "The input box encoding type. \"corner\" means boxes are encoded as [xmin, ymin, xmax, ymax], "
                    "\"center\" means boxes are encodes as [x, y, width, height].")
    .add_enum_param("out_format", kFormats, "corner",
                    "The output box encoding type. \"corner\" means boxes are encoded as [xmin, ymin, xmax, ymax], "
                    "\"center\" means boxes are encodes as [x, y, width, height].")
    .set_num_outputs(2)
    .set_infer_shape(BoxNmsShape)
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(BoxNmsKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::BoxNmsKernelGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
      return ViaBackwardOp(n, "_backward_contrib_box_nms", {og[0], OutputOf(n, 1)});
    });
  return true;
}();

WEFT_REGISTER_OP("_backward_contrib_box_nms")
    .describe("Gradient of _contrib_box_nms: each kept row's out_grad is copied back to the input row it came "
              "from (record); suppressed rows get 0.")
    .add_input("out_grad")
    .add_input("record")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      WEFT_CHECK((*in)[0].ndim() >= 2, kShape)
          << "_backward_contrib_box_nms: input 'out_grad': expected at least 2 dimensions, got "
          << (*in)[0].ToString();
      Shape rec = (*in)[0];
      rec[rec.ndim() - 1] = 1;
      AssignShape(in, 1, rec, p.op()->name + ": input 'record'");
      AssignShape(out, 0, (*in)[0], p.op()->name + ": output");
      return true;
    })
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(BoxNmsBackwardKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::BoxNmsBackwardKernelGpu));

}  // namespace detect
}  // namespace weft
