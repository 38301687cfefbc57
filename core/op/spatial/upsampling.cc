// UpSampling (MXNet 1.x), nearest-neighbour only, and _backward_UpSampling.
// Inputs arg0..arg{num_args-1} are 4-D (N, C, H, W); the output is
// (N, C or sum of C, H0 * scale, W0 * scale) and input k is repeated by
// (H0 * scale) / Hk in both directions. sample_type='bilinear' (a deconvolution
// with a weight input in MXNet) is rejected.
//
// _backward_UpSampling takes out_grad only, as in MXNet; its output shapes
// follow from out_grad and scale when num_args is 1, and must be given (graph
// shape inference from the forward node) otherwise. Kernels:
// core/op/seq/upsampling_sequence_cpu.cc.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/spatial/upsampling_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/spatial/upsampling_gpu.h"
#include "core/op/op_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace {

void AddUpParams(OpDef& op) {
  op.add_required_param("scale", ParamType::kInt, "Up sampling scale")
      .add_param("num_filter", ParamType::kInt, "0",
                 "Input filter. Only used by bilinear sample_type.Since bilinear upsampling uses deconvolution, "
                 "num_filters is set to the number of channels.");
  nnx::AddRequiredEnum(op, "sample_type", {"bilinear", "nearest"}, "upsampling method");
  op.add_enum_param("multi_input_mode", {"concat", "sum"}, "concat",
                    "How to handle multiple input. concat means concatenate upsampled images along the channel "
                    "dimension. sum means add all images together, only available for nearest neighbor "
                    "upsampling.")
      .add_required_param("num_args", ParamType::kInt,
                          "Number of inputs to be upsampled. For nearest neighbor upsampling, this can be 1-N; "
                          "the size of output will be(scale*h_0,scale*w_0) and all other inputs will be upsampled "
                          "to thesame size. For bilinear upsampling this must be 2; 1 input and 1 weight.")
      .add_param("workspace", ParamType::kInt, "512",
                 "Tmp workspace for deconvolution (MB) (accepted and ignored).");
}

void CheckParams(const Params& p) {
  const std::string& op = p.op()->name;
  WEFT_CHECK(p.GetString("sample_type") == "nearest", kInvalidArgument)
      << op << ": sample_type='bilinear' is not supported; only 'nearest'";
  WEFT_CHECK(p.GetInt("scale") >= 1, kInvalidArgument) << op << ": parameter 'scale' must be >= 1, got "
                                                       << p.GetInt("scale");
  WEFT_CHECK(p.GetInt("num_args") >= 1, kInvalidArgument) << op << ": parameter 'num_args' must be >= 1, got "
                                                          << p.GetInt("num_args");
}

// Checks the inputs against the output's (oh, ow); returns the output channels.
int64_t CheckInputs(const Params& p, const std::vector<Shape>& ins, int64_t oh, int64_t ow) {
  const std::string& op = p.op()->name;
  const bool sum = p.GetString("multi_input_mode") == "sum";
  int64_t channels = 0;
  for (size_t k = 0; k < ins.size(); ++k) {
    const Shape& s = ins[k];
    const std::string arg = "arg" + std::to_string(k);
    WEFT_CHECK(s.ndim() == 4, kShape) << op << ": input '" << arg << "' must be 4-D (N, C, H, W), got "
                                      << s.ToString();
    WEFT_CHECK(s[0] == ins[0][0], kShape) << op << ": input '" << arg << "' has batch size " << s[0]
                                          << ", input 'arg0' has " << ins[0][0];
    WEFT_CHECK(s[2] > 0 && s[3] > 0 && oh % s[2] == 0 && ow % s[3] == 0 && oh / s[2] == ow / s[3], kShape)
        << op << ": input '" << arg << "' of shape " << s.ToString() << " does not scale to the output size ("
        << oh << ", " << ow << ") by one integer factor";
    if (sum) {
      WEFT_CHECK(k == 0 || s[1] == channels, kShape)
          << op << ": Number of channels must be the same when multi_input_mode==sum (input '" << arg
          << "' has " << s[1] << ", 'arg0' has " << channels << ")";
      channels = s[1];
    } else {
      channels += s[1];
    }
  }
  return channels;
}

[[maybe_unused]] const bool kUpSamplingRegistered = [] {
  WEFT_REGISTER_OP(fwd, "UpSampling").set_compute_gpu(WEFT_GPU(cuda::UpSamplingGpu));
  fwd.describe("Upsamples the given input data.\n\n"
               "Nearest neighbour: each input (N, C, H, W) is repeated so that its spatial size becomes "
               "(scale * H_0, scale * W_0) of the first input; the results are concatenated along the channels "
               "(multi_input_mode='concat') or summed ('sum').\n\n"
               "Example::\n\n  x = [[[[1. 1. 1.]\n         [1. 1. 1.]\n         [1. 1. 1.]]]]\n\n"
               "  UpSampling(x, scale=2, sample_type='nearest') has shape (1, 1, 6, 6)")
      .set_variadic("num_args");
  AddUpParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        CheckParams(p);
        for (const Shape& s : *in)
          if (!s.known()) return false;
        WEFT_CHECK((*in)[0].ndim() == 4, kShape) << "UpSampling: input 'arg0' must be 4-D (N, C, H, W), got "
                                                 << (*in)[0].ToString();
        const int64_t scale = p.GetInt("scale");
        const int64_t oh = CheckedMul((*in)[0][2], scale, "UpSampling: output height"),
                      ow = CheckedMul((*in)[0][3], scale, "UpSampling: output width");
        const int64_t c = CheckInputs(p, *in, oh, ow);
        AssignShape(out, 0, Shape{(*in)[0][0], c, oh, ow}, "UpSampling: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::UpSamplingNearestForward(in, p.GetString("multi_input_mode") == "sum", req[0], out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        if (n->inputs.size() == 1) return ViaBackwardOp(n, "_backward_UpSampling", {og[0]});
        // More inputs: their shapes cannot follow from out_grad, so they are inputs too.
        std::vector<NodeEntry> in = {og[0]};
        in.insert(in.end(), n->inputs.begin(), n->inputs.end());
        return ViaBackwardOp(n, "_backward_UpSampling_multi", in);
      });

  WEFT_REGISTER_OP(bwd, "_backward_UpSampling").set_compute_gpu(WEFT_GPU(cuda::BackwardUpSamplingGpu));
  bwd.describe("Gradient of UpSampling (nearest) from out_grad: each input gets the sums of its scale x scale "
               "blocks. With num_args > 1 the input shapes must be known from the graph.")
      .add_input("out_grad");
  AddUpParams(bwd);
  bwd.set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_args")); })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        CheckParams(p);
        const Shape& g = (*in)[0];
        if (!g.known()) return false;
        WEFT_CHECK(g.ndim() == 4, kShape) << "_backward_UpSampling: input 'out_grad' must be 4-D, got "
                                          << g.ToString();
        const int64_t scale = p.GetInt("scale");
        if (out->size() == 1 && !(*out)[0].known()) {
          WEFT_CHECK(g[2] % scale == 0 && g[3] % scale == 0, kShape)
              << "_backward_UpSampling: out_grad of shape " << g.ToString() << " is not divisible by scale "
              << scale;
          (*out)[0] = Shape{g[0], g[1], g[2] / scale, g[3] / scale};
        }
        for (const Shape& s : *out)
          if (!s.known()) return false;
        WEFT_CHECK((*out)[0].ndim() == 4 && (*out)[0][2] * scale == g[2] && (*out)[0][3] * scale == g[3], kShape)
            << "_backward_UpSampling: output 0 of shape " << (*out)[0].ToString() << " does not upsample by "
            << scale << " to out_grad " << g.ToString();
        const int64_t c = CheckInputs(p, *out, g[2], g[3]);
        WEFT_CHECK(c == g[1] && (*out)[0][0] == g[0], kShape)
            << "_backward_UpSampling: outputs do not match out_grad of shape " << g.ToString();
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::UpSamplingNearestBackward(in[0], p.GetString("multi_input_mode") == "sum", req, out);
      });
  return true;
}();

}  // namespace
}  // namespace weft
