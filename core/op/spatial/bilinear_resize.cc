// _contrib_BilinearResize2D (MXNet 1.x contrib) and its backward op.
// data (N, C, H, W) resized to (N, C, OH, OW) by bilinear interpolation; the
// size comes from height/width or scale_height/scale_width ('size'), from a
// second input `like` ('like'), or from H, W rounded to even/odd sizes. The
// value rule: bilinear_resize_rules.h. The gradient flows to data only (like's
// gradient is zero, as in MXNet).
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/saturating_cast.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/spatial/spatial_cpu.h"
#include "core/op/spatial/spatial_gpu.h"

namespace weft {
namespace {

constexpr const char* kFwd = "_contrib_BilinearResize2D";
constexpr const char* kBwd = "_backward_contrib_BilinearResize2D";

void AddResizeParams(OpDef& op) {
  op.add_param("height", ParamType::kInt, "1",
               "output height (required, but ignored if scale_height is defined or mode is not \"size\")")
      .add_param("width", ParamType::kInt, "1",
                 "output width (required, but ignored if scale_width is defined or mode is not \"size\")")
      .add_optional_param("scale_height", ParamType::kFloat,
                          "sampling scale of the height (optional, used in modes \"scale\" and \"odd_scale\")")
      .add_optional_param("scale_width", ParamType::kFloat,
                          "sampling scale of the width (optional, used in modes \"scale\" and \"odd_scale\")")
      .add_enum_param("mode", {"size", "odd_scale", "like", "to_even_down", "to_even_up", "to_odd_down", "to_odd_up"},
                      "size",
                      "resizing mode. \"size\": output height is `height`, or H * scale_height when scale_height "
                      "is given (same for width); \"odd_scale\": an odd size s becomes (s - 1) * scale + 1, an even "
                      "one s * scale; \"like\": the height and width of the second input; \"to_even_down\", "
                      "\"to_even_up\", \"to_odd_down\", \"to_odd_up\": the nearest even/odd size below/above "
                      "(unchanged when it already is)")
      .add_param("align_corners", ParamType::kBool, "True",
                 "With align_corners = True, the interpolating doesn't proportionally align the output and input "
                 "pixels, and thus the output values can depend on the input size.");
}

bool LikeMode(const Params& p) { return p.GetString("mode") == "like"; }

int64_t EvenOdd(int64_t s, bool even, bool up) {
  const bool ok = even ? s % 2 == 0 : s % 2 == 1;
  return ok ? s : (up ? s + 1 : s - 1);
}

// The output (OH, OW) of data d (and like l in 'like' mode).
std::pair<int64_t, int64_t> ResizeTarget(const Params& p, const std::string& op, const Shape& d, const Shape* l) {
  const std::string& mode = p.GetString("mode");
  int64_t oh = 0, ow = 0;
  if (mode == "size") {
    oh = p.IsNone("scale_height") ? p.GetInt("height")
                                  : SaturatingToInt64(p.GetFloat("scale_height") * static_cast<double>(d[2]));
    ow = p.IsNone("scale_width") ? p.GetInt("width")
                                 : SaturatingToInt64(p.GetFloat("scale_width") * static_cast<double>(d[3]));
  } else if (mode == "odd_scale") {
    WEFT_CHECK(!p.IsNone("scale_height") && !p.IsNone("scale_width"), kInvalidArgument)
        << op << ": mode 'odd_scale' needs parameters 'scale_height' and 'scale_width'";
    auto odd = [](int64_t s, double k) {
      // Scales are float attributes (NaN, Inf): saturated, then refused as an extent below.
      if (s % 2 == 0) return SaturatingToInt64(static_cast<double>(s) * k);
      const int64_t v = SaturatingToInt64(static_cast<double>(s - 1) * k);
      return v == INT64_MAX ? v : v + 1;
    };
    oh = odd(d[2], p.GetFloat("scale_height"));
    ow = odd(d[3], p.GetFloat("scale_width"));
  } else if (mode == "like") {
    WEFT_CHECK(l->ndim() == 4, kShape) << op << ": input 'like' must be 4-D (N, C, H, W), got " << l->ToString();
    oh = (*l)[2];
    ow = (*l)[3];
  } else {
    const bool even = mode.find("even") != std::string::npos, up = mode.find("_up") != std::string::npos;
    oh = EvenOdd(d[2], even, up);
    ow = EvenOdd(d[3], even, up);
  }
  WEFT_CHECK(oh >= 1 && ow >= 1, kShape) << op << ": the output size (" << oh << ", " << ow
                                         << ") of data " << d.ToString() << " in mode '" << mode
                                         << "' must be positive";
  return {oh, ow};
}

void CheckData(const std::string& op, const Shape& d) {
  WEFT_CHECK(d.ndim() == 4, kShape) << op << ": input 'data' must be 4-D (N, C, H, W), got " << d.ToString();
  WEFT_CHECK(d[2] >= 1 && d[3] >= 1, kShape) << op << ": input 'data' of shape " << d.ToString()
                                             << " must have a positive height and width";
}

std::vector<std::string> FwdInputs(const Params& p) {
  return LikeMode(p) ? std::vector<std::string>{"data", "like"} : std::vector<std::string>{"data"};
}

[[maybe_unused]] const bool kResizeRegistered = [] {
  WEFT_REGISTER_OP(fwd, kFwd);
  fwd.describe("Performs 2D resizing (upsampling or downsampling) of a 4-D input (N, C, H, W) by bilinear "
               "interpolation.\n\n"
               "Each output pixel (y, x) reads the source position y * (H - 1) / (OH - 1) (align_corners=True) "
               "or max((y + 0.5) * H / OH - 0.5, 0) (align_corners=False), and mixes its two neighbouring rows "
               "and columns linearly. The output size follows `mode` (see the parameter).\n\n"
               "Example::\n\n  x has shape (1, 1, 2, 2)\n  BilinearResize2D(x, height=4, width=4) has shape "
               "(1, 1, 4, 4)")
      .add_input("data")
      .add_input("like");
  AddResizeParams(fwd);
  fwd.list_input_names = FwdInputs;
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        CheckData(kFwd, d);
        if (LikeMode(p) && !(*in)[1].known()) return false;
        const auto t = ResizeTarget(p, kFwd, d, LikeMode(p) ? &(*in)[1] : nullptr);
        AssignShape(out, 0, Shape{d[0], d[1], t.first, t.second}, std::string(kFwd) + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::BilinearResize)
      .set_compute_gpu(WEFT_GPU(cuda::BilinearResizeGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        std::vector<NodeEntry> ins = {og[0]};
        ins.insert(ins.end(), n->inputs.begin(), n->inputs.end());
        return ViaBackwardOp(n, kBwd, ins);
      });

  WEFT_REGISTER_OP(bwd, kBwd);
  bwd.describe("Gradient of _contrib_BilinearResize2D: inputs (out_grad, data[, like]); data's gradient is "
               "out_grad scattered back through the bilinear weights, like's gradient is zero.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("like");
  AddResizeParams(bwd);
  bwd.list_input_names = [](const Params& p) {
    std::vector<std::string> r = {"out_grad"};
    for (const std::string& s : FwdInputs(p)) r.push_back(s);
    return r;
  };
  bwd.list_output_names = [](const Params& p) {
    return LikeMode(p) ? std::vector<std::string>{"data_grad", "like_grad"} : std::vector<std::string>{"data_grad"};
  };
  bwd.set_num_outputs([](const Params& p) { return LikeMode(p) ? 2 : 1; })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        const Shape& g = (*in)[0];
        const Shape& d = (*in)[1];
        CheckData(kBwd, d);
        const auto t = ResizeTarget(p, kBwd, d, LikeMode(p) ? &(*in)[2] : nullptr);
        WEFT_CHECK(g == Shape({d[0], d[1], t.first, t.second}), kShape)
            << kBwd << ": input 'out_grad' has shape " << g.ToString() << ", expected ("
            << d[0] << ", " << d[1] << ", " << t.first << ", " << t.second << ")";
        AssignShape(out, 0, d, std::string(kBwd) + ": output 'data_grad'");
        if (LikeMode(p)) AssignShape(out, 1, (*in)[2], std::string(kBwd) + ": output 'like_grad'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::BilinearResizeBackward)
      .set_compute_gpu(WEFT_GPU(cuda::BilinearResizeBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
