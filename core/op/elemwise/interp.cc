// _npi_interp (np.interp, MXNet 1.9.1's registered name): the one-dimensional
// piecewise linear interpolant of the points (xp, fp) at every element of x,
// NumPy's rules (Note [Interp as NumPy's arr_interp], interp_rules.h): left
// and right (default fp[0], fp[-1]) outside xp's range, `period` for
// periodic x-coordinates. xp, fp and x share one floating dtype, the output's
// (weft.np.interp casts them to float64, NumPy's result); with x_is_scalar
// (MXNet's form for a Python number x) the inputs are xp and fp, x is
// x_scalar and the output is 0-d. No gradient, as in MXNet 1.9.1. GPU kernel:
// interp.cu.
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/interp_gpu.h"
#include "core/op/elemwise/interp_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

constexpr const char* kInterpOp = "_npi_interp";

void CheckInterpPoints(const Shape& xp, const Shape& fp) {
  WEFT_CHECK(xp.ndim() == 1, kShape) << kInterpOp << ": input 'xp' must be 1-D, got shape " << xp.ToString();
  WEFT_CHECK(xp[0] > 0, kShape) << kInterpOp << ": input 'xp' (the sample points) must not be empty";
  WEFT_CHECK(fp == xp, kShape) << kInterpOp << ": inputs 'fp' and 'xp' must have the same shape, got "
                               << fp.ToString() << " and " << xp.ToString();
}

void CheckPeriod(const Params& p) {
  if (!p.IsNone("period")) {
    WEFT_CHECK(p.GetFloat("period") != 0.0, kInvalidArgument) << kInterpOp << ": 'period' must be a non-zero value";
  }
}

void InterpCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  CheckPeriod(p);
  const int64_t n = in[0].Size();
  const bool periodic = !p.IsNone("period");
  const int64_t tn = periodic ? n + 2 : n;
  std::vector<double> dx(static_cast<size_t>(tn)), dy(static_cast<size_t>(tn));
  const double period = periodic ? std::fabs(p.GetFloat("period")) : 0.0;
  WEFT_DTYPE_SWITCH(out[0].dtype, T, {
    const T* xp = in[0].ptr<T>();
    const T* fp = in[1].ptr<T>();
    if (periodic) {
      std::vector<int64_t> order(static_cast<size_t>(n)), tmp(static_cast<size_t>(n));
      tensor::InterpPeriodicTable(xp, fp, n, period, dx.data(), dy.data(), order.data(), tmp.data());
    } else {
      tensor::InterpPlainTable(xp, fp, n, dx.data(), dy.data());
    }
    const double left = periodic || p.IsNone("left") ? dy[0] : p.GetFloat("left");
    const double right = periodic || p.IsNone("right") ? dy[static_cast<size_t>(tn - 1)] : p.GetFloat("right");
    const T* x = p.GetBool("x_is_scalar") ? nullptr : in[2].ptr<T>();
    const double x_scalar = p.GetFloat("x_scalar");
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    const double* tx = dx.data();
    const double* ty = dy.data();
    nnm::ForEachIndex(out[0].Size(), 64, [&](int64_t i) {
      double v = x ? static_cast<double>(x[i]) : x_scalar;
      if (periodic) v = tensor::InterpMod(v, period);
      nnm::Put(y, i, r, tensor::InterpAt(tx, ty, tn, v, left, right));
    });
  });
}

std::vector<std::string> InterpInputs(const Params& p) {
  if (p.GetBool("x_is_scalar")) return {"xp", "fp"};
  return {"xp", "fp", "x"};
}

// Declared through OpRegistry::Add, not WEFT_REGISTER_OP: the builder has no
// setter for list_input_names (MXNet's inputs: no x when x_is_scalar).
[[maybe_unused]] const bool kInterpRegistered = [] {
  WEFT_REGISTER_OP(op, kInterpOp);
  op.describe("One-dimensional linear interpolation for monotonically increasing sample points: the piecewise "
              "linear interpolant of (xp, fp) at x (left/right outside xp's range, default fp[0]/fp[-1]; "
              "`period` for periodic x-coordinates).\n\n"
              "Example::\n\n   interp([2.5], xp=[1, 2, 3], fp=[3, 2, 0]) = [1.0]")
      .add_input("xp")
      .add_input("fp")
      .add_input("x")
      .add_optional_param("left", ParamType::kFloat, "Value to return for x < xp[0], default is fp[0].")
      .add_optional_param("right", ParamType::kFloat, "Value to return for x > xp[-1], default is fp[-1].")
      .add_optional_param("period", ParamType::kFloat, "A period for the x-coordinates; left and right are "
                                                       "ignored when it is given.")
      .add_param("x_scalar", ParamType::kFloat, "0", "x, when x_is_scalar.")
      .add_param("x_is_scalar", ParamType::kBool, "False", "Whether x is the scalar x_scalar (no input x).")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        CheckPeriod(p);
        if ((*in)[0].known() && (*in)[1].known()) CheckInterpPoints((*in)[0], (*in)[1]);
        const bool scalar = p.GetBool("x_is_scalar");
        if (!scalar && !(*in)[2].known()) return false;
        AssignShape(out, 0, scalar ? Shape(std::vector<int64_t>{}) : (*in)[2], p.op()->name + ": output");
        return (*in)[0].known() && (*in)[1].known();
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        for (DType t : *in) {
          if (t == DType::kUnknown) return false;
        }
        const char* names[] = {"xp", "fp", "x"};
        for (size_t i = 0; i < in->size(); ++i) {
          WEFT_CHECK(IsFloating((*in)[i]) && (*in)[i] == (*in)[0], kDType)
              << kInterpOp << ": inputs 'xp', 'fp' and 'x' must share one floating dtype, got "
              << DTypeName((*in)[0]) << " for 'xp' and " << DTypeName((*in)[i]) << " for '" << names[i] << "'";
        }
        AssignType(out, 0, (*in)[0], p.op()->name + ": output");
        return true;
      })
      .set_compute_cpu(InterpCpu)
      .set_compute_gpu(WEFT_GPU(cuda::InterpGpu));
  op.list_input_names = InterpInputs;
  return true;
}();

}  // namespace
}  // namespace weft
