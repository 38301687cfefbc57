#include "core/op/common/layer_util.h"

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/op_util.h"

namespace weft {
namespace nn {

std::vector<int64_t> KernelParam(const Params& p) {
  const std::string& op = p.op()->name;
  const std::vector<int64_t>& k = p.GetTuple("kernel");
  WEFT_CHECK(k.size() >= 1 && k.size() <= 3, kInvalidArgument)
      << op << ": parameter 'kernel' must have 1, 2 or 3 entries (1-D, 2-D or 3-D), got "
      << tensor::TupleString(k);
  for (int64_t v : k)
    WEFT_CHECK(v > 0, kInvalidArgument) << op << ": parameter 'kernel' must be positive, got " << tensor::TupleString(k);
  return k;
}

std::vector<int64_t> AxisParam(const Params& p, const char* name, int nd, int64_t def, int64_t min) {
  const std::string& op = p.op()->name;
  std::vector<int64_t> v = p.IsNone(name) ? std::vector<int64_t>() : p.GetTuple(name);
  if (v.empty()) return std::vector<int64_t>(static_cast<size_t>(nd), def);
  WEFT_CHECK(static_cast<int>(v.size()) == nd, kInvalidArgument)
      << op << ": parameter '" << name << "' must have " << nd << " entries like 'kernel', got "
      << tensor::TupleString(v);
  for (int64_t x : v)
    WEFT_CHECK(x >= min, kInvalidArgument)
        << op << ": parameter '" << name << "' entries must be >= " << min << ", got " << tensor::TupleString(v);
  return v;
}

void CheckLayout(const Params& p, int nd) {
  if (p.IsNone("layout")) return;
  const std::string& l = p.GetString("layout");
  static const char* kFirst[] = {"NCW", "NCHW", "NCDHW"};
  WEFT_CHECK(l == kFirst[nd - 1], kInvalidArgument)
      << p.op()->name << ": layout '" << l << "' is not supported; only channel-first " << kFirst[nd - 1]
      << " (or None) for a " << nd << "-D kernel";
}

void CheckDataRank(const std::string& op, const Shape& data, int nd) {
  static const char* kDims[] = {"(batch, channel, width)", "(batch, channel, height, width)",
                                "(batch, channel, depth, height, width)"};
  WEFT_CHECK(data.ndim() == nd + 2, kShape)
      << op << ": input 'data' must be " << nd + 2 << "-D " << kDims[nd - 1] << " for a " << nd
      << "-D kernel, got shape " << data.ToString();
}

void Place3(const std::vector<int64_t>& v, int64_t* slots) {
  const size_t off = 3 - v.size();
  for (size_t i = 0; i < v.size(); ++i) slots[off + i] = v[i];
}

bool FloatTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  bool done = SameTypeInfer(*p.op(), p, in, out);
  for (auto* v : {in, out})
    for (DType t : *v)
      WEFT_CHECK(t == DType::kUnknown || t == DType::kFloat32 || t == DType::kFloat64, kDType)
          << p.op()->name << ": only float32 and float64 are supported, got " << DTypeName(t);
  return done;
}

bool FloatOr16BitTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  bool done = SameTypeInfer(*p.op(), p, in, out);
  for (auto* v : {in, out})
    for (DType t : *v)
      WEFT_CHECK(t == DType::kUnknown || IsFloating(t), kDType)
          << p.op()->name << ": only float32, float64, float16 and bfloat16 are supported, got " << DTypeName(t);
  return done;
}

std::vector<std::string> WeightInputNames(const Params& p) {
  if (p.GetBool("no_bias")) return {"data", "weight"};
  return {"data", "weight", "bias"};
}

std::vector<std::string> WeightGradNames(const Params& p) {
  if (p.GetBool("no_bias")) return {"data_grad", "weight_grad"};
  return {"data_grad", "weight_grad", "bias_grad"};
}

void AddCudnnParams(OpDef& op, int64_t workspace_default) {
  op.add_param("workspace", ParamType::kInt, std::to_string(workspace_default),
               "Maximum temporary workspace in MB (cuDNN); accepted and ignored on CPU.")
      .add_enum_param("cudnn_tune", {"fastest", "limited_workspace", "off"}, "None",
                      "cuDNN algorithm selection; accepted and ignored on CPU.")
      .add_param("cudnn_off", ParamType::kBool, "False", "Turn off cuDNN; accepted and ignored on CPU.");
}

void AddLayoutParam(OpDef& op) {
  op.add_enum_param("layout", {"NCDHW", "NCHW", "NCW", "NDHWC", "NHWC", "NWC"}, "None",
                    "Data layout. None means channel-first (NCW, NCHW, NCDHW by the kernel's rank); "
                    "channel-last layouts are not supported on CPU.");
}

void AddConvolutionParams(OpDef& op) {
  op.add_required_param("kernel", ParamType::kShape, "Convolution kernel size: (w,), (h, w) or (d, h, w).")
      .add_param("stride", ParamType::kShape, "()", "Convolution stride per axis. Defaults to 1 for each axis.")
      .add_param("dilate", ParamType::kShape, "()", "Convolution dilation per axis. Defaults to 1 for each axis.")
      .add_param("pad", ParamType::kShape, "()", "Zero padding on both sides of each axis. Defaults to no padding.")
      .add_required_param("num_filter", ParamType::kInt, "Convolution filter (channel) number.")
      .add_param("num_group", ParamType::kInt, "1",
                 "Number of group partitions: the input channels and the filters are split into this many "
                 "groups, each convolved separately.")
      .add_param("no_bias", ParamType::kBool, "False", "Whether to disable the bias parameter.");
  AddCudnnParams(op, 1024);
  AddLayoutParam(op);
}

}  // namespace nn
}  // namespace weft
