// MXNet 1.9.1's _npi_around(x, decimals) and _npi_nan_to_num(data, copy, nan,
// posinf, neginf) under its registered names (Note [Around as MXNet rounds],
// np_unary_math_rules.h). around's gradient is zeros (MXNet's
// MakeZeroGradNodes); nan_to_num's passes the output gradient where x is
// finite (MXNet's _backward_npi_nan_to_num), built as where(isfinite(x), g, 0).
// GPU kernels: np_unary_math.cu.
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/np_unary_math_gpu.h"
#include "core/op/elemwise/np_unary_math_rules.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

// MXNet's around refuses float16 ("Do not support `float16` as input") and
// has no bool kernel.
bool AroundType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  if (!SameTypeInfer(op, p, in, out)) return false;
  const DType t = (*out)[0];
  WEFT_CHECK(t != DType::kBool && t != DType::kFloat16, kDType)
      << op.name << ": not supported for the input type " << DTypeName(t) << " (as MXNet)";
  return true;
}

void AroundCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t decimals = p.GetInt("decimals");
  const OpReq r = req[0];
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    const T* a = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    if constexpr (std::is_same<T, bool>::value) {
      WEFT_THROW(kDType) << "_npi_around: not supported for the input type bool";
    } else if constexpr (std::is_integral<T>::value) {
      nnm::ForEachIndex(out[0].Size(), 4, [&](int64_t i) {
        nnm::Put(o, i, r, decimals >= 0 ? a[i] : tensor::AroundInt<T>(a[i], decimals));
      });
    } else {
      nnm::ForEachIndex(out[0].Size(), 8, [&](int64_t i) { nnm::Put(o, i, r, tensor::AroundFloat<T>(a[i], decimals)); });
    }
  });
}

}  // namespace

namespace tensor {

double NanToNumLimit(DType t, bool lowest) {
  double m = std::numeric_limits<double>::max();
  if (t == DType::kFloat32) m = std::numeric_limits<float>::max();
  if (t == DType::kFloat16) m = 65504.0;
  if (t == DType::kBFloat16) m = 3.3895313892515355e38;
  return lowest ? -m : m;
}

}  // namespace tensor

namespace {

void NanToNumCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const DType dt = in[0].dtype;
  const double nan = p.GetFloat("nan");
  const double posinf = p.IsNone("posinf") ? tensor::NanToNumLimit(dt, false) : p.GetFloat("posinf");
  const double neginf = p.IsNone("neginf") ? tensor::NanToNumLimit(dt, true) : p.GetFloat("neginf");
  const OpReq r = req[0];
  WEFT_DTYPE_SWITCH(dt, T, {
    const T* a = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    if constexpr (std::is_integral<T>::value) {
      nnm::ForEachIndex(out[0].Size(), 1, [&](int64_t i) { nnm::Put(o, i, r, a[i]); });
    } else {
      const T vn = static_cast<T>(nan), vp = static_cast<T>(posinf), vm = static_cast<T>(neginf);
      nnm::ForEachIndex(out[0].Size(), 2, [&](int64_t i) { nnm::Put(o, i, r, tensor::NanToNum<T>(a[i], vn, vp, vm)); });
    }
  });
}

bool RegisterNumpyUnaryMathOps() {
  WEFT_REGISTER_OP(around, "_npi_around")
      .describe("NumPy's around(x, decimals): x rounded half to even at `decimals` decimal places, as MXNet "
                "computes it (Note [Around as MXNet rounds]); an integer array with decimals >= 0 is copied; float16 "
                "and bool are refused, as MXNet does.\n\n"
                "Example::\n\n   around([0.5, 1.5, 2.5, 2.567], decimals=0) = [0., 2., 2., 3.]")
      .add_input("x")
      .add_param("decimals", ParamType::kInt, "0", "Number of decimal places to round to.")
      .add_inplace(0, 0)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return SameShapeInfer(*p.op(), p, in, out);
      })
      .set_infer_type(AroundType)
      .set_compute_cpu(AroundCpu)
      .set_compute_gpu(WEFT_GPU(cuda::NpAroundGpu))
      .set_gradient(ZeroGradients);
  WEFT_REGISTER_OP(nan_to_num, "_npi_nan_to_num")
      .describe("NumPy's nan_to_num: NaN as `nan`, +inf as `posinf` (default the dtype's largest value), -inf "
                "as `neginf` (default its lowest); integer and bool arrays are copied. `copy` is accepted for "
                "MXNet's signature: the operator always writes its output (copy=False is the frontend passing "
                "out=x).")
      .add_input("data")
      .add_param("copy", ParamType::kBool, "True", "Whether to create a copy of `x` (True) or to replace values "
                                                   "in-place (False).")
      .add_param("nan", ParamType::kFloat, "0", "Value to be used to fill NaN values.")
      .add_optional_param("posinf", ParamType::kFloat, "Value to be used to fill positive infinity values.")
      .add_optional_param("neginf", ParamType::kFloat, "Value to be used to fill negative infinity values.")
      .add_inplace(0, 0)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return SameShapeInfer(*p.op(), p, in, out);
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return SameTypeInfer(*p.op(), p, in, out);
      })
      .set_compute_cpu(NanToNumCpu)
      .set_compute_gpu(WEFT_GPU(cuda::NpNanToNumGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        GradBuilder b(n);
        const NodeEntry finite = b("_npi_isfinite", {b.in(0)});
        return std::vector<NodeEntry>{b("_npi_where_rscalar", {finite, og[0]}, {{"scalar", "0"}})};
      });
  return true;
}

[[maybe_unused]] const bool kNumpyUnaryMathRegistered = RegisterNumpyUnaryMathOps();

}  // namespace
}  // namespace weft
