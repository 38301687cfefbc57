// Init ops: arrays made from parameters alone (_zeros, _ones, _full, _arange,
// _eye) and the *_like fills. The "ctx" parameter is read by Invoke to place
// the output (ops without inputs); here it is only declared. Kernels:
// FillCPU (core/op/common/copy_cpu.cc) and core/op/init/init_cpu.cc.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/init/init_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/init/init_misc_gpu.h"
#include "core/op/init/init_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

const char* kCtxDoc = "Device of the output, e.g. 'cpu(0)' or 'gpu(1)'; empty: cpu(0).";
const char* kDTypeDoc = "The output dtype.";

OpDef& AddPlacement(OpDef& op) {
  return op.add_param("ctx", ParamType::kString, "", kCtxDoc)
      .add_param("dtype", ParamType::kDType, "float32", kDTypeDoc)
      .set_infer_type([](const Params& p, std::vector<DType>*, std::vector<DType>* out) {
        AssignType(out, 0, p.GetDType("dtype"), p.op()->name + ": output (dtype)");
        return true;
      });
}

bool ShapeFromParam(const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  const std::vector<int64_t>& s = p.GetTuple("shape");
  tensor::CheckNoNone(s, op, "shape");
  for (int64_t d : s)
    WEFT_CHECK(d >= 0, kInvalidArgument) << op << ": parameter 'shape' " << tensor::TupleString(s)
                                         << " has a negative dimension";
  // A 0 dim is unknown in a graph (MXNet 1.x legacy shapes; core/graph/infer.cc
  // leaves it to the consumer): an output shape already inferred that agrees on
  // every other dim is kept.
  const Shape& cur = (*out)[0];
  if (cur.known() && cur.ndim() == static_cast<int>(s.size())) {
    bool agrees = true;
    for (size_t i = 0; i < s.size(); ++i) agrees &= s[i] == 0 || s[i] == cur[static_cast<int>(i)];
    if (agrees) return true;
  }
  AssignShape(out, 0, Shape(s), op + ": output (shape)");
  return true;
}

OpDef& FillOp(const char* name, const std::string& doc, double value) {
  WEFT_REGISTER_OP(op, name);
  op.describe(doc)
      .add_param("shape", ParamType::kShape, "()", "Shape of the output.")
      .set_infer_shape(ShapeFromParam)
      .set_compute_cpu([value](const OpContext&, const Params&, const std::vector<TensorView>&,
                               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::FillCPU(out[0], req[0], value);
      });
  return AddPlacement(op);
}

[[maybe_unused]] OpDef& reg_zeros = FillOp("_zeros", "Returns a new array of the given shape filled with zeros.", 0.0).set_compute_gpu(WEFT_GPU(cuda::ZerosGpu));
[[maybe_unused]] OpDef& reg_ones = FillOp("_ones", "Returns a new array of the given shape filled with ones.", 1.0).set_compute_gpu(WEFT_GPU(cuda::OnesGpu));

WEFT_REGISTER_OP(full_decl, "_full");
[[maybe_unused]] OpDef& reg_full =
    AddPlacement(full_decl.set_compute_gpu(WEFT_GPU(cuda::FullGpu))
                     .describe("Returns a new array of the given shape filled with `value`.")
                     .add_param("shape", ParamType::kShape, "()", "Shape of the output.")
                     .add_required_param("value", ParamType::kFloat, "The fill value (converted to dtype).")
                     .set_infer_shape(ShapeFromParam)
                     .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>&,
                                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
                       tensor_cpu::FillCPU(out[0], req[0], p.GetFloat("value"));
                     }));

// ---- _arange ----

struct Range {
  double start = 0, step = 1;
  int64_t repeat = 1;
  int64_t size = -1;  // -1: inferred from the output (infer_range)
};

// ceil(n) values, each `repeat` times. n comes from float attributes, so it is
// checked before it is converted (Note [Float to int conversions]) and the
// product is checked (Note [Checked shape arithmetic]): stop=1e30 or
// repeat=2**62 once wrapped to a negative or an empty size.
int64_t RangeSize(double n, int64_t repeat) {
  WEFT_CHECK(std::isfinite(n), kInvalidArgument) << "_arange: start, stop and step must be finite";
  WEFT_CHECK(n < 9.2e18, kShape) << "_arange: the range has " << n << " values, more than an array can hold";
  return CheckedMul(static_cast<int64_t>(std::max(0.0, n)), repeat, "_arange: the number of values times repeat");
}

Range PlanRange(const Params& p) {
  Range r;
  r.start = p.GetFloat("start");
  r.step = p.GetFloat("step");
  r.repeat = p.GetInt("repeat");
  WEFT_CHECK(r.step != 0, kInvalidArgument) << "_arange: parameter 'step' cannot be 0";
  WEFT_CHECK(r.repeat >= 1, kInvalidArgument) << "_arange: parameter 'repeat' must be >= 1, got " << r.repeat;
  if (p.IsNone("stop")) {
    if (p.GetBool("infer_range")) return r;
    double stop = r.start;
    r.start = 0;
    r.size = RangeSize(std::ceil((stop - r.start) / r.step), r.repeat);
    return r;
  }
  r.size = RangeSize(std::ceil((p.GetFloat("stop") - r.start) / r.step), r.repeat);
  return r;
}

WEFT_REGISTER_OP(arange_decl, "_arange");
[[maybe_unused]] OpDef& reg_arange = AddPlacement(
    arange_decl.set_compute_gpu(WEFT_GPU(cuda::ArangeGpu))
        .describe("Returns evenly spaced values in [start, stop) with the given step; each value is "
                  "repeated `repeat` times. With stop=None the range is [0, start). With "
                  "infer_range=True and stop=None the length comes from the output's shape.")
        .add_required_param("start", ParamType::kFloat, "Start of the interval (its end when stop is None).")
        .add_optional_param("stop", ParamType::kFloat, "End of the interval (exclusive).")
        .add_param("step", ParamType::kFloat, "1", "Spacing between values.")
        .add_param("repeat", ParamType::kInt, "1", "How many times each value is repeated.")
        .add_param("infer_range", ParamType::kBool, "False",
                   "If True and stop is None, infer the length from the output shape.")
        .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
          Range r = PlanRange(p);
          if (r.size < 0) return (*out)[0].known();
          AssignShape(out, 0, Shape{r.size}, "_arange: output");
          return true;
        })
        .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>&,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          Range r = PlanRange(p);
          tensor_cpu::ArangeCPU(r.start, r.step, r.repeat, req[0], out[0]);
        }));

// ---- _eye ----

WEFT_REGISTER_OP(eye_decl, "_eye");
[[maybe_unused]] OpDef& reg_eye = AddPlacement(
    eye_decl.set_compute_gpu(WEFT_GPU(cuda::EyeGpu))
        .describe("Returns a 2-D array of shape (N, M) with ones on the k-th diagonal and zeros elsewhere.")
        .add_required_param("N", ParamType::kInt, "Number of rows.")
        .add_param("M", ParamType::kInt, "0", "Number of columns; 0 means N.")
        .add_param("k", ParamType::kInt, "0",
                   "Index of the diagonal: 0 the main one, > 0 above it, < 0 below it.")
        .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
          const int64_t n = p.GetInt("N"), m = p.GetInt("M");
          WEFT_CHECK(n >= 0 && m >= 0, kInvalidArgument)
              << "_eye: parameters 'N' and 'M' must be >= 0, got N=" << n << ", M=" << m;
          AssignShape(out, 0, Shape{n, m == 0 ? n : m}, "_eye: output");
          return true;
        })
        .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>&,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          tensor_cpu::EyeCPU(p.GetInt("k"), req[0], out[0]);
        }));

// ---- zeros_like / ones_like ----

OpDef& LikeOp(const char* name, const char* what, double value) {
  WEFT_REGISTER_OP(op, name);
  op.describe(std::string("Returns an array of ") + what + " with the shape and dtype of the input.")
      .add_input("data")
      .set_compute_cpu([value](const OpContext&, const Params&, const std::vector<TensorView>&,
                               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::FillCPU(out[0], req[0], value);
      })
      .set_gradient(ZeroGradients);  // the values do not depend on the input (MXNet: zeros)
  return op;
}

[[maybe_unused]] OpDef& reg_zeros_like = LikeOp("zeros_like", "zeros", 0.0).set_compute_gpu(WEFT_GPU(cuda::ZerosLikeGpu)).add_method("zeros_like");
[[maybe_unused]] OpDef& reg_ones_like = LikeOp("ones_like", "ones", 1.0).set_compute_gpu(WEFT_GPU(cuda::OnesLikeGpu)).add_method("ones_like");

}  // namespace
}  // namespace weft
