// _contrib_DeformableConvolution and _contrib_ModulatedDeformableConvolution
// (MXNet 1.x contrib: deformable convolution v1 and v2) and their backward
// ops. Each image is unfolded by the deformable im2col (Note [Deformable
// im2col], deformable_conv_rules.h) and multiplied by the weight per group with
// a GEMM; gradients flow to data, offset, mask, weight and bias.
#include <string>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/spatial/deformable_conv_rules.h"
#include "core/op/spatial/spatial_cpu.h"
#include "core/op/spatial/spatial_gpu.h"

namespace weft {
namespace spatial {

DeformGeom DeformGeometry(const Params& p, const std::string& op, const Shape& d, bool modulated) {
  WEFT_CHECK(p.IsNone("layout") || p.GetString("layout") == "NCHW", kInvalidArgument)
      << op << ": parameter 'layout' must be NCHW (the only layout of the deformable convolution), got '"
      << p.GetString("layout") << "'";
  const std::vector<int64_t>& k = p.GetTuple("kernel");
  WEFT_CHECK(k.size() == 2 && k[0] > 0 && k[1] > 0, kInvalidArgument)
      << op << ": parameter 'kernel' must be a positive (h, w), got " << Shape(k).ToString();
  auto pair = [&](const char* name, int64_t def, int64_t lo) {
    std::vector<int64_t> v = p.GetTuple(name);
    if (v.empty()) v = {def, def};
    WEFT_CHECK(v.size() == 2 && v[0] >= lo && v[1] >= lo, kInvalidArgument)
        << op << ": parameter '" << name << "' must be (h, w) of values >= " << lo << ", got " << Shape(v).ToString();
    return v;
  };
  const std::vector<int64_t> s = pair("stride", 1, 1), dl = pair("dilate", 1, 1), pd = pair("pad", 0, 0);
  WEFT_CHECK(d.ndim() == 4, kShape) << op << ": input 'data' must be 4-D (batch, channel, height, width), got "
                                    << d.ToString();
  DeformGeom g;
  g.batch = d[0];
  g.c = d[1];
  g.h = d[2];
  g.w = d[3];
  g.f = p.GetInt("num_filter");
  g.kh = k[0];
  g.kw = k[1];
  g.sh = s[0];
  g.sw = s[1];
  g.dh = dl[0];
  g.dw = dl[1];
  g.ph = pd[0];
  g.pw = pd[1];
  g.groups = p.GetInt("num_group");
  g.dgroups = p.GetInt("num_deformable_group");
  g.modulated = modulated;
  WEFT_CHECK(g.f > 0, kInvalidArgument) << op << ": parameter 'num_filter' must be positive, got " << g.f;
  WEFT_CHECK(g.groups > 0 && g.c % g.groups == 0 && g.f % g.groups == 0, kInvalidArgument)
      << op << ": parameter 'num_group' (" << g.groups << ") must divide the input channels (" << g.c
      << ") and num_filter (" << g.f << ")";
  WEFT_CHECK(g.dgroups > 0 && g.c % g.dgroups == 0, kInvalidArgument)
      << op << ": parameter 'num_deformable_group' (" << g.dgroups << ") must divide the input channels (" << g.c
      << ")";
  const int64_t eh = g.dh * (g.kh - 1) + 1, ew = g.dw * (g.kw - 1) + 1;
  WEFT_CHECK(g.h + 2 * g.ph >= eh && g.w + 2 * g.pw >= ew, kShape)
      << op << ": the dilated kernel (" << eh << ", " << ew << ") is larger than the padded input of data "
      << d.ToString();
  g.oh = (g.h + 2 * g.ph - eh) / g.sh + 1;
  g.ow = (g.w + 2 * g.pw - ew) / g.sw + 1;
  return g;
}

}  // namespace spatial

namespace {

void AddDeformParams(OpDef& op, bool modulated) {
  op.add_required_param("kernel", ParamType::kShape, "Convolution kernel size: (h, w) or (d, h, w)")
      .add_param("stride", ParamType::kShape, "()", "Convolution stride: (h, w) or (d, h, w). Defaults to 1 for each dimension.")
      .add_param("dilate", ParamType::kShape, "()", "Convolution dilate: (h, w) or (d, h, w). Defaults to 1 for each dimension.")
      .add_param("pad", ParamType::kShape, "()", "Zero pad for convolution: (h, w) or (d, h, w). Defaults to no padding.")
      .add_required_param("num_filter", ParamType::kInt, "Convolution filter(channel) number")
      .add_param("num_group", ParamType::kInt, "1", "Number of group partitions.")
      .add_param("num_deformable_group", ParamType::kInt, "1", "Number of deformable group partitions.")
      .add_param("workspace", ParamType::kInt, "1024", "Maximum temperal workspace allowed for convolution (MB) (accepted; the kernels size their own).");
  if (modulated) op.add_param("im2col_step", ParamType::kInt, "64", "Maximum number of images per im2col computation; The total batch size should be divisable by this value. (accepted; one image at a time)");
  op.add_param("no_bias", ParamType::kBool, "False", "Whether to disable bias parameter.")
      .add_optional_param("layout", ParamType::kString,
                          "Set layout for input, output and weight. Empty for default layout: NCW for 1d, NCHW for "
                          "2d and NCDHW for 3d. Only NCHW is supported.");
}

std::vector<std::string> FwdNames(const Params& p, bool modulated) {
  std::vector<std::string> r = {"data", "offset"};
  if (modulated) r.push_back("mask");
  r.push_back("weight");
  if (!p.GetBool("no_bias")) r.push_back("bias");
  return r;
}

bool CheckedTypes(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  const bool done = SameTypeInfer(op, p, in, out);
  for (size_t i = 0; i < in->size(); ++i) {
    const DType t = (*in)[i];
    WEFT_CHECK(t == DType::kUnknown || t == DType::kFloat32 || t == DType::kFloat64, kDType)
        << op.name << ": input '" << op.InputNames(p)[i] << "' must be float32 or float64, got " << DTypeName(t);
  }
  return done;
}

void Register(bool modulated) {
  const std::string name = modulated ? "_contrib_ModulatedDeformableConvolution" : "_contrib_DeformableConvolution";
  const std::string bname =
      modulated ? "_backward_ModulatedDeformableConvolution" : "_backward_DeformableConvolution";
  WEFT_REGISTER_OP(fwd, name);
  fwd.describe(modulated
                   ? "Compute 2-D modulated deformable convolution on 4-D input (deformable convolution v2, Zhu et "
                     "al., 2018).\n\nAs DeformableConvolution, with each sampled value of kernel tap k multiplied "
                     "by mask[:, g * kh * kw + k] of its deformable group g. data (batch, channel, height, width), "
                     "offset (batch, 2 * num_deformable_group * kh * kw, out_height, out_width), mask (batch, "
                     "num_deformable_group * kh * kw, out_height, out_width), weight (num_filter, channel / "
                     "num_group, kh, kw), bias (num_filter,)."
                   : "Compute 2-D deformable convolution on 4-D input (Dai et al., Deformable Convolutional "
                     "Networks, 2017).\n\nEach kernel tap (i, j) at output point (y, x) reads the input at "
                     "(y * stride - pad + i * dilate + offset_y, x * stride - pad + j * dilate + offset_x) by "
                     "bilinear interpolation, with the offsets of its deformable group: offset (batch, 2 * "
                     "num_deformable_group * kh * kw, out_height, out_width), channels 2 (i kw + j) (y) and "
                     "2 (i kw + j) + 1 (x) per group. weight (num_filter, channel / num_group, kh, kw), bias "
                     "(num_filter,); the output size is Convolution's.");
  for (const std::string& n : {"data", "offset"}) fwd.add_input(n);
  if (modulated) fwd.add_input("mask");
  fwd.add_input("weight").add_input("bias");
  AddDeformParams(fwd, modulated);
  fwd.list_input_names = [modulated](const Params& p) { return FwdNames(p, modulated); };
  fwd.set_infer_shape([name, modulated](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const spatial::DeformGeom g = spatial::DeformGeometry(p, name, (*in)[0], modulated);
        const spatial::DeformSlots s = spatial::DeformSlotsOf(modulated);
        AssignShape(in, 1, Shape{g.batch, 2 * g.dgroups * g.kh * g.kw, g.oh, g.ow}, name + ": input 'offset'");
        if (modulated) AssignShape(in, 2, Shape{g.batch, g.dgroups * g.kh * g.kw, g.oh, g.ow}, name + ": input 'mask'");
        AssignShape(in, s.weight, Shape{g.f, g.c / g.groups, g.kh, g.kw}, name + ": input 'weight'");
        if (!p.GetBool("no_bias")) AssignShape(in, s.bias, Shape{g.f}, name + ": input 'bias'");
        AssignShape(out, 0, Shape{g.batch, g.f, g.oh, g.ow}, name + ": output");
        return true;
      })
      .set_infer_type(CheckedTypes)
      .set_compute_cpu(spatial_cpu::DeformableConv)
      .set_compute_gpu(WEFT_GPU(cuda::DeformableConvGpu))
      .set_gradient([bname, modulated](const NodePtr& n, const std::vector<NodeEntry>& og) {
        const spatial::DeformSlots s = spatial::DeformSlotsOf(modulated);
        std::vector<NodeEntry> ins = {og[0]};
        for (int i = 0; i <= s.weight; ++i) ins.push_back(n->inputs[static_cast<size_t>(i)]);
        return ViaBackwardOp(n, bname, ins);
      });

  WEFT_REGISTER_OP(bwd, bname);
  bwd.describe("Gradient of " + name + ": inputs (out_grad, data, offset" + (modulated ? ", mask" : "") +
               ", weight); outputs the gradients of data, offset" + (modulated ? ", mask" : "") +
               ", weight and (unless no_bias) bias.");
  for (const std::string& n : {"out_grad", "data", "offset"}) bwd.add_input(n);
  if (modulated) bwd.add_input("mask");
  bwd.add_input("weight");
  AddDeformParams(bwd, modulated);
  bwd.set_num_outputs([modulated](const Params& p) {
    return static_cast<int>(FwdNames(p, modulated).size());
  });
  bwd.list_output_names = [modulated](const Params& p) {
    std::vector<std::string> r;
    for (const std::string& n : FwdNames(p, modulated)) r.push_back(n + "_grad");
    return r;
  };
  bwd.set_infer_shape([bname, modulated](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        const spatial::DeformGeom g = spatial::DeformGeometry(p, bname, (*in)[1], modulated);
        WEFT_CHECK((*in)[0] == Shape({g.batch, g.f, g.oh, g.ow}), kShape)
            << bname << ": input 'out_grad' has shape " << (*in)[0].ToString() << ", expected ("
            << g.batch << ", " << g.f << ", " << g.oh << ", " << g.ow << ")";
        const spatial::DeformSlots s = spatial::DeformSlotsOf(modulated);
        // The kernel indexes offset, mask and weight by the geometry of data: they must be the forward's shapes.
        std::vector<std::pair<size_t, Shape>> want = {
            {2, Shape{g.batch, 2 * g.dgroups * g.kh * g.kw, g.oh, g.ow}},
            {static_cast<size_t>(s.weight) + 1, Shape{g.f, g.c / g.groups, g.kh, g.kw}}};
        if (modulated) want.push_back({3, Shape{g.batch, g.dgroups * g.kh * g.kw, g.oh, g.ow}});
        for (const auto& w : want)
          WEFT_CHECK((*in)[w.first] == w.second, kShape)
              << bname << ": input " << w.first << " has shape " << (*in)[w.first].ToString() << ", expected "
              << w.second.ToString() << " for data " << (*in)[1].ToString();
        for (int i = 0; i <= s.weight; ++i) AssignShape(out, static_cast<size_t>(i), (*in)[static_cast<size_t>(i) + 1], bname + ": output");
        if (!p.GetBool("no_bias")) AssignShape(out, static_cast<size_t>(s.bias), Shape{g.f}, bname + ": output 'bias_grad'");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const bool done = CheckedTypes(p, in, out);
        return done;
      })
      .set_compute_cpu(spatial_cpu::DeformableConvBackward)
      .set_compute_gpu(WEFT_GPU(cuda::DeformableConvBackwardGpu));
}

[[maybe_unused]] const bool kDeformRegistered = [] {
  Register(false);
  Register(true);
  return true;
}();

}  // namespace
}  // namespace weft
