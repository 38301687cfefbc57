// GridGenerator, BilinearSampler and SpatialTransformer (MXNet 1.x: the
// spatial transformer network's grid, sampler, and both in one) and their
// backward ops; the value rules are sampler_rules.h. Each keeps MXNet's hidden
// outputs (GridGenerator's grid_dst, BilinearSampler's tmp,
// SpatialTransformer's grid_dst and grid_src), filled with what MXNet keeps
// there; only `output` is visible.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/spatial/spatial_cpu.h"
#include "core/op/spatial/spatial_gpu.h"
#include "core/base/checked_math.h"

namespace weft {
namespace {

bool AllKnown(const std::vector<Shape>& v) {
  for (const Shape& s : v)
    if (!s.known()) return false;
  return true;
}

// target_shape (h, w), both positive.
std::pair<int64_t, int64_t> Target(const Params& p, const std::string& op) {
  const std::vector<int64_t>& t = p.GetTuple("target_shape");
  WEFT_CHECK(t.size() == 2 && t[0] > 0 && t[1] > 0, kInvalidArgument)
      << op << ": parameter 'target_shape' must be a positive (h, w), got " << Shape(t).ToString();
  return {t[0], t[1]};
}

void Check4D(const std::string& op, const char* arg, const Shape& s, const char* layout) {
  WEFT_CHECK(s.ndim() == 4, kShape) << op << ": input '" << arg << "' must be 4-D " << layout << ", got "
                                    << s.ToString();
}

// ---- GridGenerator ----

void AddGridParams(OpDef& op) {
  nnx::AddRequiredEnum(op, "transform_type", {"affine", "warp"},
                       "The type of transformation. For `affine`, input data should be an affine matrix of size "
                       "(batch, 6). For `warp`, input data should be an optical flow of size (batch, 2, h, w).");
  op.add_param("target_shape", ParamType::kShape, "(0, 0)",
               "Specifies the output shape (H, W). This is required if transformation type is `affine`. If "
               "transformation type is `warp`, this parameter is ignored.");
}

// The grid (N, 2, H, W) of GridGenerator's data.
Shape GridShape(const Params& p, const std::string& op, const Shape& d) {
  if (p.GetString("transform_type") == "affine") {
    WEFT_CHECK(d.ndim() == 2 && d[1] == 6, kShape)
        << op << ": with transform_type 'affine', input 'data' must be (batch, 6), got " << d.ToString();
    const auto t = Target(p, op);
    return Shape{d[0], 2, t.first, t.second};
  }
  WEFT_CHECK(d.ndim() == 4 && d[1] == 2, kShape)
      << op << ": with transform_type 'warp', input 'data' must be an optical flow (batch, 2, h, w), got "
      << d.ToString();
  return d;
}

// ---- SpatialTransformer ----

void AddTransformerParams(OpDef& op) {
  op.add_param("target_shape", ParamType::kShape, "(0, 0)", "output shape(h, w) of spatial transformer: (y, x)");
  nnx::AddRequiredEnum(op, "transform_type", {"affine"}, "transformation type");
  nnx::AddRequiredEnum(op, "sampler_type", {"bilinear"}, "sampling type");
  op.add_optional_param("cudnn_off", ParamType::kBool, "whether to turn cudnn off (accepted; no cuDNN path)");
}

Shape TransformerShape(const Params& p, const std::string& op, const Shape& d, const Shape& loc) {
  Check4D(op, "data", d, "(batch, channel, y, x)");
  WEFT_CHECK(loc.ndim() == 2 && loc[1] == 6 && loc[0] == d[0], kShape)
      << op << ": input 'loc' must be (batch, 6) with data's batch " << d[0] << ", got " << loc.ToString();
  const auto t = Target(p, op);
  return Shape{d[0], d[1], t.first, t.second};
}

Shape SamplerShape(const std::string& op, const Shape& d, const Shape& grid) {
  Check4D(op, "data", d, "(batch, channel, y, x)");
  Check4D(op, "grid", grid, "(batch, 2, y, x)");
  WEFT_CHECK(grid[0] == d[0] && grid[1] == 2, kShape)
      << op << ": input 'grid' must be (" << d[0] << ", 2, h, w) for data " << d.ToString() << ", got "
      << grid.ToString();
  return Shape{d[0], d[1], grid[2], grid[3]};
}

[[maybe_unused]] const bool kSamplerRegistered = [] {
  WEFT_REGISTER_OP(gen, "GridGenerator");
  gen.describe("Generates 2D sampling grid for bilinear sampling.\n\n"
               "'affine': data (batch, 6) holds a 2 x 3 matrix per batch row; output (batch, 2, H, W) with "
               "H, W = target_shape maps each target point (x, y, 1), x = -1 + 2 w / (W - 1), "
               "y = -1 + 2 h / (H - 1), through it. 'warp': data (batch, 2, h, w) is an optical flow in pixels; "
               "output[:, 0] = (w + flow_x) / ((W - 1) / 2) - 1 and output[:, 1] likewise.")
      .add_input("data")
      .set_num_outputs(2);
  gen.num_visible_outputs = 1;
  gen.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "grid_dst"}; };
  AddGridParams(gen);
  gen.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const Shape o = GridShape(p, "GridGenerator", (*in)[0]);
        AssignShape(out, 0, o, "GridGenerator: output");
        const bool affine = p.GetString("transform_type") == "affine";
        const int64_t hw = CheckedMul(o[2], o[3], "GridGenerator: target height x width");
        AssignShape(out, 1, affine ? Shape{3, hw} : Shape{2, o[2], o[3]}, "GridGenerator: output 'grid_dst'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::GridGenerator)
      .set_compute_gpu(WEFT_GPU(cuda::GridGeneratorGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_GridGenerator", {og[0], n->inputs[0]});
      });

  WEFT_REGISTER_OP(gen_b, "_backward_GridGenerator");
  gen_b.describe("Gradient of GridGenerator: inputs (out_grad, data); 'affine' sums out_grad times the target "
                 "coordinates, 'warp' divides out_grad by (W - 1) / 2 and (H - 1) / 2.")
      .add_input("out_grad")
      .add_input("data");
  AddGridParams(gen_b);
  gen_b.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!AllKnown(*in)) return false;
        const Shape o = GridShape(p, "_backward_GridGenerator", (*in)[1]);
        WEFT_CHECK((*in)[0] == o, kShape) << "_backward_GridGenerator: input 'out_grad' has shape "
                                          << (*in)[0].ToString() << ", expected " << o.ToString();
        AssignShape(out, 0, (*in)[1], "_backward_GridGenerator: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::GridGeneratorBackward)
      .set_compute_gpu(WEFT_GPU(cuda::GridGeneratorBackwardGpu));

  WEFT_REGISTER_OP(smp, "BilinearSampler");
  smp.describe("Applies bilinear sampling to input feature map.\n\n"
               "Bilinear Sampling is the key of [NIPS2015] \\\"Spatial Transformer Networks\\\". output[n, c, h, w] "
               "samples data[n, c] at x_src = (grid[n, 0, h, w] + 1) * (W - 1) / 2, y_src = (grid[n, 1, h, w] + 1) "
               "* (H - 1) / 2 by bilinear interpolation; pixels outside the map count as 0.\n\n"
               "data (batch, channel, H, W), grid (batch, 2, h, w) -> output (batch, channel, h, w).")
      .add_input("data")
      .add_input("grid")
      .set_num_outputs(2)
      .add_optional_param("cudnn_off", ParamType::kBool, "whether to turn cudnn off (accepted; no cuDNN path)");
  smp.num_visible_outputs = 1;
  smp.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "tmp"}; };
  smp.set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!AllKnown(*in)) return false;
        const Shape o = SamplerShape("BilinearSampler", (*in)[0], (*in)[1]);
        AssignShape(out, 0, o, "BilinearSampler: output");
        AssignShape(out, 1, Shape{o[0], o[2], o[3], 2}, "BilinearSampler: output 'tmp'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::BilinearSampler)
      .set_compute_gpu(WEFT_GPU(cuda::BilinearSamplerGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_BilinearSampler", {og[0], n->inputs[0], n->inputs[1]});
      });

  WEFT_REGISTER_OP(smp_b, "_backward_BilinearSampler");
  smp_b.describe("Gradient of BilinearSampler: inputs (out_grad, data, grid); outputs the gradients of data "
                 "(out_grad scattered through the bilinear weights) and of grid.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("grid")
      .set_num_outputs(2)
      .add_optional_param("cudnn_off", ParamType::kBool, "whether to turn cudnn off (accepted; no cuDNN path)");
  smp_b.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "grid_grad"}; };
  smp_b.set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!AllKnown(*in)) return false;
        const Shape o = SamplerShape("_backward_BilinearSampler", (*in)[1], (*in)[2]);
        WEFT_CHECK((*in)[0] == o, kShape) << "_backward_BilinearSampler: input 'out_grad' has shape "
                                          << (*in)[0].ToString() << ", expected " << o.ToString();
        AssignShape(out, 0, (*in)[1], "_backward_BilinearSampler: output 'data_grad'");
        AssignShape(out, 1, (*in)[2], "_backward_BilinearSampler: output 'grid_grad'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::BilinearSamplerBackward)
      .set_compute_gpu(WEFT_GPU(cuda::BilinearSamplerBackwardGpu));

  WEFT_REGISTER_OP(st, "SpatialTransformer");
  st.describe("Applies a spatial transformer to input feature map.\n\n"
              "The affine grid of `loc` (batch, 6) over target_shape (as GridGenerator 'affine') sampled from data "
              "by bilinear interpolation (as BilinearSampler): output (batch, channel, target_shape[0], "
              "target_shape[1]).")
      .add_input("data")
      .add_input("loc")
      .set_num_outputs(3);
  st.num_visible_outputs = 1;
  st.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "grid_dst", "grid_src"}; };
  AddTransformerParams(st);
  st.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!AllKnown(*in)) return false;
        const Shape o = TransformerShape(p, "SpatialTransformer", (*in)[0], (*in)[1]);
        AssignShape(out, 0, o, "SpatialTransformer: output");
        const int64_t hw = CheckedMul(o[2], o[3], "SpatialTransformer: target height x width");
        AssignShape(out, 1, Shape{3, hw}, "SpatialTransformer: output 'grid_dst'");
        AssignShape(out, 2, Shape{o[0], 2, hw}, "SpatialTransformer: output 'grid_src'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::SpatialTransformer)
      .set_compute_gpu(WEFT_GPU(cuda::SpatialTransformerGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_SpatialTransformer", {og[0], n->inputs[0], n->inputs[1]});
      });

  WEFT_REGISTER_OP(st_b, "_backward_SpatialTransformer");
  st_b.describe("Gradient of SpatialTransformer: inputs (out_grad, data, loc); outputs the gradients of data and "
                "of loc (the grid's gradient times the target coordinates).")
      .add_input("out_grad")
      .add_input("data")
      .add_input("loc")
      .set_num_outputs(2);
  st_b.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "loc_grad"}; };
  AddTransformerParams(st_b);
  st_b.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!AllKnown(*in)) return false;
        const Shape o = TransformerShape(p, "_backward_SpatialTransformer", (*in)[1], (*in)[2]);
        WEFT_CHECK((*in)[0] == o, kShape) << "_backward_SpatialTransformer: input 'out_grad' has shape "
                                          << (*in)[0].ToString() << ", expected " << o.ToString();
        AssignShape(out, 0, (*in)[1], "_backward_SpatialTransformer: output 'data_grad'");
        AssignShape(out, 1, (*in)[2], "_backward_SpatialTransformer: output 'loc_grad'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::SpatialTransformerBackward)
      .set_compute_gpu(WEFT_GPU(cuda::SpatialTransformerBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
