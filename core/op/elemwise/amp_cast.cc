// amp_cast and amp_multicast (MXNet 1.x, the casts automatic mixed precision
// inserts): floating-point inputs are converted (to `dtype`; to the widest, or
// with cast_narrow the narrowest, floating dtype among amp_multicast's
// inputs), every other dtype passes through unchanged. Their gradients are
// the output gradients converted back to the inputs' dtypes (_backward_Cast).
// Kernels: the converting copy (common/copy_cpu.h, cuda::CopyGpu).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

bool IsFloat(DType t) {
  return t == DType::kFloat16 || t == DType::kBFloat16 || t == DType::kFloat32 || t == DType::kFloat64;
}

int FloatWidth(DType t) { return t == DType::kFloat64 ? 8 : (t == DType::kFloat32 ? 4 : 2); }

void ConvertEach(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  for (size_t i = 0; i < out.size(); ++i) tensor_cpu::ConvertCopy(in[i], req[i], out[i]);
}

#if !defined(WEFT_PORTABLE)
// The GPU converting copy of every (input, output) pair.
FCompute ConvertEachGpu(const char* name) {
  FCompute one = cuda::CopyGpu(name);
  return [one](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    for (size_t i = 0; i < out.size(); ++i) one(ctx, p, {in[i]}, {req[i]}, {out[i]});
  };
}
#endif

std::vector<NodeEntry> CastBackEach(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  std::vector<NodeEntry> g;
  for (size_t i = 0; i < n->inputs.size(); ++i) g.push_back(b("_backward_Cast", {og[i], b.in(i)}));
  return g;
}

[[maybe_unused]] const bool kAmpRegistered = [] {
  WEFT_REGISTER_OP(cast, "amp_cast");
  cast.set_compute_gpu(WEFT_GPU(cuda::CopyGpu("amp_cast")));
  cast.describe("Cast function between low precision float/FP32 used by AMP.\n\n"
                "It casts only between low precision float/FP32 and does not do anything for other types.")
      .add_input("data")
      .add_required_param("dtype", ParamType::kDType, "Output data type.")
      .set_infer_shape([&cast](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return SameShapeInfer(cast, p, in, out);
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const DType t = (*in)[0];
        if (t == DType::kUnknown) return false;
        const DType to = p.GetDType("dtype");
        WEFT_CHECK(!IsFloat(t) || IsFloat(to), kDType)
            << "amp_cast: parameter 'dtype' must be a floating-point dtype (float16, bfloat16, float32, float64) "
               "for a floating-point input, got "
            << DTypeName(to);
        AssignType(out, 0, IsFloat(t) ? to : t, "amp_cast: output");
        return true;
      })
      .set_compute_cpu(ConvertEach)
      .set_gradient(CastBackEach);

  WEFT_REGISTER_OP(multi, "amp_multicast");
  multi.set_compute_gpu(WEFT_GPU(ConvertEachGpu("amp_multicast")));
  multi
      .describe("Cast function used by AMP, that casts its inputs to the common widest type.\n\n"
                "It casts only between low precision float/FP32 and does not do anything for other types.")
      .set_variadic("num_outputs")
      .add_required_param("num_outputs", ParamType::kInt, "Number of input/output pairs to be casted to the widest "
                                                          "type.")
      .add_param("cast_narrow", ParamType::kBool, "False", "Whether to cast to the narrowest type")
      .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_outputs")); })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        WEFT_CHECK(p.GetInt("num_outputs") >= 1, kInvalidArgument)
            << "amp_multicast: parameter 'num_outputs' must be at least 1, got " << p.GetInt("num_outputs");
        bool done = true;
        for (size_t i = 0; i < in->size(); ++i) {
          if ((*in)[i].known()) AssignShape(out, i, (*in)[i], "amp_multicast: output " + std::to_string(i));
          else if ((*out)[i].known()) AssignShape(in, i, (*out)[i], "amp_multicast: input " + std::to_string(i));
          else done = false;
        }
        return done;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const bool narrow = p.GetBool("cast_narrow");
        DType common = DType::kUnknown;
        for (DType t : *in) {
          if (t == DType::kUnknown) return false;
          if (!IsFloat(t)) continue;
          if (common == DType::kUnknown || (narrow ? FloatWidth(t) < FloatWidth(common)
                                                   : FloatWidth(t) > FloatWidth(common)))
            common = t;
        }
        for (size_t i = 0; i < in->size(); ++i)
          AssignType(out, i, IsFloat((*in)[i]) ? common : (*in)[i], "amp_multicast: output " + std::to_string(i));
        return true;
      })
      .set_compute_cpu(ConvertEach)
      .set_gradient(CastBackEach);
  return true;
}();

}  // namespace
}  // namespace weft
