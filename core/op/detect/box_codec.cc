// _contrib_box_encode and _contrib_box_decode (MXNet 1.9.1 bounding_box.cc):
// SSD/Faster-RCNN style normalized center offsets of boxes against anchors.
// Zero gradients (MXNet's MakeZeroGradNodes). Drivers: box_drivers.h.
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

void CheckDims(const Params& p, const std::vector<Shape>& in, size_t i, int ndim, bool last4) {
  const Shape& s = in[i];
  if (!s.known()) return;
  WEFT_CHECK(s.ndim() == ndim && (!last4 || s[ndim - 1] == 4), kShape)
      << p.op()->name << ": input '" << nnx::InputName(p, i) << "': expected " << ndim << " dimensions"
      << (last4 ? " ending in 4 (boxes)" : "") << ", got " << s.ToString();
}

bool EncodeShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  CheckDims(p, *in, 0, 2, false);
  CheckDims(p, *in, 1, 2, false);
  CheckDims(p, *in, 2, 3, true);
  CheckDims(p, *in, 3, 3, true);
  AssignShape(in, 4, Shape{4}, p.op()->name + ": input 'means'");
  AssignShape(in, 5, Shape{4}, p.op()->name + ": input 'stds'");
  const Shape& a = (*in)[2];
  if (!a.known()) return false;
  AssignShape(in, 0, Shape{a[0], a[1]}, p.op()->name + ": input 'samples'");
  AssignShape(in, 1, Shape{a[0], a[1]}, p.op()->name + ": input 'matches'");
  if ((*in)[3].known()) {
    WEFT_CHECK((*in)[3][0] == a[0], kShape) << p.op()->name << ": input 'refs': expected batch " << a[0]
                                            << " (that of anchors), got shape " << (*in)[3].ToString();
  }
  AssignShape(out, 0, a, p.op()->name + ": output 0");
  AssignShape(out, 1, a, p.op()->name + ": output 1");
  return (*in)[3].known();
}

bool DecodeShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  CheckDims(p, *in, 0, 3, true);
  CheckDims(p, *in, 1, 3, true);
  const Shape& d = (*in)[0];
  if (!d.known()) return false;
  AssignShape(in, 1, Shape{1, d[1], 4}, p.op()->name + ": input 'anchors'");
  AssignShape(out, 0, d, p.op()->name + ": output");
  return true;
}

}  // namespace

WEFT_REGISTER_OP("_contrib_box_encode")
    .describe("Encode bounding boxes training target with normalized center offsets. Input bounding boxes are "
              "using corner type: x_{min}, y_{min}, x_{max}, y_{max}.\n\n"
              "For anchor i with samples[i] > 0.5 and matched reference r = refs[b, matches[i]]:\n"
              "  targets = ((r_x - a_x) / a_w - means[0]) / stds[0], ((r_y - a_y) / a_h - means[1]) / stds[1],\n"
              "            (log(r_w / a_w) - means[2]) / stds[2], (log(r_h / a_h) - means[3]) / stds[3]\n"
              "and masks = 1; both 0 for the other anchors.")
    .add_alias("_npx_box_encode")
    .add_input("samples")
    .add_input("matches")
    .add_input("anchors")
    .add_input("refs")
    .add_input("means")
    .add_input("stds")
    .set_num_outputs(2)
    .set_infer_shape(EncodeShape)
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(BoxEncodeKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::BoxEncodeKernelGpu))
    .set_gradient(ZeroGradients);

WEFT_REGISTER_OP("_contrib_box_decode")
    .describe("Decode bounding boxes training target with normalized center offsets. Input bounding boxes are "
              "using corner type: x_{min}, y_{min}, x_{max}, y_{max} or center type: x, y, width, height.\n\n"
              "  x = data[0] * std0 * a_w + a_x,  y = data[1] * std1 * a_h + a_y\n"
              "  w = exp(min(data[2] * std2, clip)) * a_w,  h = exp(min(data[3] * std3, clip)) * a_h\n"
              "(clip only when > 0); the output is in corner format.")
    .add_alias("_npx_box_decode")
    .add_input("data")
    .add_input("anchors")
    .add_param("std0", ParamType::kFloat, "1", "value to be divided from the 1st encoded values")
    .add_param("std1", ParamType::kFloat, "1", "value to be divided from the 2nd encoded values")
    .add_param("std2", ParamType::kFloat, "1", "value to be divided from the 3rd encoded values")
    .add_param("std3", ParamType::kFloat, "1", "value to be divided from the 4th encoded values")
    .add_param("clip", ParamType::kFloat, "-1", "If larger than 0, bounding box target will be clipped to this value.")
    .add_enum_param("format", {"corner", "center"}, "center",
                    "The box encoding type. \"corner\" means boxes are encoded as [xmin, ymin, xmax, ymax], "
                    "\"center\" means boxes are encodes as [x, y, width, height].")
    .set_infer_shape(DecodeShape)
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(BoxDecodeKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::BoxDecodeKernelGpu))
    .set_gradient(ZeroGradients);

WEFT_REGISTER_OP("_contrib_bipartite_matching")
    .describe("Compute bipartite matching. The matching is performed on score matrix with shape [B, N, M]\n"
              "  - B: batch_size\n  - N: number of rows to match\n"
              "  - M: number of columns as reference to be matched against.\n\n"
              "Returns:\n  x : matched column indices. -1 indicating non-matched elements in rows.\n"
              "  y : matched row indices.\n\n"
              "Pairs are taken greedily by score (descending, ascending with is_ascend) while both are unmatched, "
              "until a score is not beyond threshold; with topk > 0 the matching stops once it has more than topk "
              "pairs (as MXNet). Zero gradients are back-propagated (as MXNet).\n\nExample::\n\n"
              "  s = [[0.5, 0.6], [0.1, 0.2], [0.3, 0.4]]\n"
              "  x, y = bipartite_matching(x, threshold=1e-12, is_ascend=False)\n  x = [1, -1, 0]\n  y = [2, 0]")
    .add_alias("_npx_bipartite_matching")
    .add_input("data")
    .add_param("is_ascend", ParamType::kBool, "False", "Use ascend order for scores instead of descending. Please "
                                                       "set threshold accordingly.")
    .add_required_param("threshold", ParamType::kFloat, "Ignore matching when score < thresh, if is_ascend=false, "
                                                        "or ignore score > thresh, if is_ascend=true.")
    .add_param("topk", ParamType::kInt, "-1", "Limit the number of matches to topk, set -1 for no limit")
    .set_num_outputs(2)
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& d = (*in)[0];
      if (!d.known()) return false;
      WEFT_CHECK(d.ndim() >= 2, kShape) << p.op()->name << ": input 'data': expected a score matrix of at least 2 "
                                        << "dimensions (..., rows, columns), got " << d.ToString();
      std::vector<int64_t> x(d.dims().begin(), d.dims().end() - 1);
      AssignShape(out, 0, Shape(x), p.op()->name + ": output 0");
      x.back() = d[d.ndim() - 1];
      AssignShape(out, 1, Shape(x), p.op()->name + ": output 1");
      return true;
    })
    .set_infer_type(nnx::FloatSameTypeInfer)
    .set_compute_cpu(BipartiteMatchingKernelCpu)
    .set_compute_gpu(WEFT_GPU(cuda::BipartiteMatchingKernelGpu))
    .set_gradient(ZeroGradients);

}  // namespace detect
}  // namespace weft
