// Random sampling ops: _random_uniform, _random_normal, _random_randint. They
// need the device generator (set_needs_rng): Invoke passes OpContext::rng and
// writes its engine var, so draws follow push order and weft.random.seed(n)
// makes every result reproducible. Kernels: core/op/random/random_cpu.cc.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/random/random_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/random/random_dropout_gpu.h"
#include "core/op/op_util.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

bool ShapeFromParam(const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  const std::vector<int64_t>& s = p.GetTuple("shape");
  tensor::CheckNoNone(s, op, "shape");
  for (int64_t d : s)
    WEFT_CHECK(d >= 0, kInvalidArgument) << op << ": parameter 'shape' " << tensor::TupleString(s)
                                         << " has a negative dimension";
  AssignShape(out, 0, Shape(s), op + ": output (shape)");
  return true;
}

// The output dtype: the dtype param, or `dflt` when it is None; must pass `ok`.
DType OutDType(const Params& p, DType dflt, bool want_float) {
  DType t = p.IsNone("dtype") ? dflt : p.GetDType("dtype");
  if (want_float) {
    WEFT_CHECK(IsFloating(t), kDType) << p.op()->name << ": parameter 'dtype' must be a floating-point type, got "
                                      << DTypeName(t);
  } else {
    WEFT_CHECK(t == DType::kInt32 || t == DType::kInt64, kDType)
        << p.op()->name << ": parameter 'dtype' must be int32 or int64, got " << DTypeName(t);
  }
  return t;
}

using Validate = void (*)(const Params&);

// Declares the op: distribution params (added by `params`, first, in MXNet's
// order), then shape, ctx and dtype. `validate` runs during shape inference so
// bad parameters fail on the caller's thread, before anything is pushed.
OpDef& RandomOp(const char* name, const std::string& doc, bool want_float, void (*params)(OpDef&),
                Validate validate, FCompute compute) {
  WEFT_REGISTER_OP(op, name);
  op.describe(doc);
  params(op);
  op.add_param("shape", ParamType::kShape, "()", "Shape of the output.")
      .add_param("ctx", ParamType::kString, "", "Device of the output, e.g. 'cpu(0)'; empty: cpu(0).")
      .add_optional_param("dtype", ParamType::kDType,
                          want_float ? "The output dtype (a floating type); None: float32."
                                     : "The output dtype, int32 or int64; None: int32.")
      .set_infer_shape([validate](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        validate(p);
        return ShapeFromParam(p, in, out);
      })
      .set_infer_type([want_float](const Params& p, std::vector<DType>*, std::vector<DType>* out) {
        const DType t = OutDType(p, want_float ? DType::kFloat32 : DType::kInt32, want_float);
        AssignType(out, 0, t, p.op()->name + ": output (dtype)");
        return true;
      })
      .set_compute_cpu(std::move(compute))
      .set_needs_rng();
  return op;
}

std::mt19937_64& Generator(const OpContext& ctx, const char* op) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << op << ": called without a random generator";
  return ctx.rng->engine();
}

[[maybe_unused]] OpDef& reg_uniform =
    RandomOp(
        "_random_uniform", "Draws samples from a uniform distribution on [low, high).", true,
        [](OpDef& op) {
          op.add_param("low", ParamType::kFloat, "0", "Lower bound of the distribution (inclusive).")
              .add_param("high", ParamType::kFloat, "1", "Upper bound of the distribution (exclusive).");
        },
        [](const Params& p) {
          const double low = p.GetFloat("low"), high = p.GetFloat("high");
          WEFT_CHECK(low <= high, kInvalidArgument)
              << "_random_uniform: parameter 'low' (" << low << ") must be <= 'high' (" << high << ")";
        },
        [](const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
          tensor_cpu::UniformCPU(Generator(ctx, "_random_uniform"), p.GetFloat("low"), p.GetFloat("high"), req[0],
                                 out[0]);
        })
        .add_alias("uniform")
        .add_alias("random_uniform")
        .set_compute_gpu(WEFT_GPU(cuda::RandomUniformGpu));

[[maybe_unused]] OpDef& reg_normal =
    RandomOp(
        "_random_normal",
        "Draws samples from a normal (Gaussian) distribution with mean `loc` and standard deviation `scale`.",
        true,
        [](OpDef& op) {
          op.add_param("loc", ParamType::kFloat, "0", "Mean of the distribution.")
              .add_param("scale", ParamType::kFloat, "1", "Standard deviation of the distribution (>= 0).");
        },
        [](const Params& p) {
          const double scale = p.GetFloat("scale");
          WEFT_CHECK(scale >= 0, kInvalidArgument) << "_random_normal: parameter 'scale' must be >= 0, got " << scale;
        },
        [](const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
          tensor_cpu::NormalCPU(Generator(ctx, "_random_normal"), p.GetFloat("loc"), p.GetFloat("scale"), req[0],
                                out[0]);
        })
        .add_alias("normal")
        .add_alias("random_normal")
        .set_compute_gpu(WEFT_GPU(cuda::RandomNormalGpu));

[[maybe_unused]] OpDef& reg_randint =
    RandomOp(
        "_random_randint", "Draws integers uniformly from [low, high).", false,
        [](OpDef& op) {
          op.add_required_param("low", ParamType::kInt, "Lower bound (inclusive).")
              .add_required_param("high", ParamType::kInt, "Upper bound (exclusive).");
        },
        [](const Params& p) {
          const int64_t low = p.GetInt("low"), high = p.GetInt("high");
          WEFT_CHECK(low < high, kInvalidArgument)
              << "_random_randint: parameter 'low' (" << low << ") must be < 'high' (" << high << ")";
        },
        [](const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
          tensor_cpu::RandIntCPU(Generator(ctx, "_random_randint"), p.GetInt("low"), p.GetInt("high"), req[0],
                                 out[0]);
        })
        .add_alias("random_randint")
        .set_compute_gpu(WEFT_GPU(cuda::RandomRandintGpu));

}  // namespace
}  // namespace weft
