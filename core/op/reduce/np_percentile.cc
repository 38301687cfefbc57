// _npi_percentile: np.percentile under MXNet 1.9.1's registered name (issue 37).
//
// Note [np.percentile as MXNet computes it]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Inputs (a[, q]): q is the number q_scalar or an input of 0 or 1 dimensions
// (MXNet refuses more), every value in [0, 100] (else an error naming q).
// Over the `axis` positions (None: all) the sorted values v[0..n-1] give, at
// the virtual index x = q / 100 * (n - 1): linear v[i] + (x - i)(v[i+1] - v[i]),
// lower v[floor x], higher v[ceil x], midpoint their mean and nearest
// v[round x] with halves away from zero (MXNet's rounding: NumPy rounds them to
// even, so 75% of 15 values is v[11] here, v[10] in NumPy). A NaN among the
// values gives NaN. The output is q's shape followed by the kept axes (the
// reduced ones as 1s with keepdims), float64 for a float64 `a` and float32
// for every other dtype (MXNet's rule; bool is refused, which MXNet's kernel
// cannot run either). The gradient is zero, as MXNet's (MakeZeroGradNodes),
// for a and q. The kernel sorts
// each reduced row in double; the GPU kernel runs it on host copies
// (np_percentile.cu).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/reduce/np_percentile_cpu.h"
#include "core/op/reduce/np_percentile_gpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace reduce_np {
// Named, not anonymous: the unity build joins this file with the family's others.
namespace np_percentile {

const char kOp[] = "_npi_percentile";

struct PercentileGeom {
  std::vector<bool> reduce;
  Shape kept;  // a's kept axes (1s for the reduced ones with keepdims)
  int64_t rows = 1, len = 1;
};

PercentileGeom GeomOf(const Params& p, const Shape& a) {
  PercentileGeom g;
  g.reduce.assign(static_cast<size_t>(a.ndim()), p.IsNone("axis"));
  if (!p.IsNone("axis")) {
    const std::vector<int64_t>& axes = p.GetTuple("axis");
    tensor::CheckNoNone(axes, kOp, "axis");
    for (int64_t ax : axes) {
      const int k = tensor::NormalizeAxis(ax, a.ndim(), kOp, "a");
      WEFT_CHECK(!g.reduce[static_cast<size_t>(k)], kInvalidArgument)
          << kOp << ": parameter 'axis' = " << tensor::TupleString(axes) << " repeats axis " << k;
      g.reduce[static_cast<size_t>(k)] = true;
    }
  }
  std::vector<int64_t> kept;
  for (int i = 0; i < a.ndim(); ++i) {
    if (g.reduce[static_cast<size_t>(i)]) {
      g.len *= a[i];
      if (p.GetBool("keepdims")) kept.push_back(1);
    } else {
      g.rows *= a[i];
      kept.push_back(a[i]);
    }
  }
  g.kept = Shape(kept);
  return g;
}

Shape OutShape(const Params& p, const Shape& a, const Shape* q) {
  WEFT_CHECK(q == nullptr || q->ndim() <= 1, kShape)
      << kOp << ": input 'q' must be 0-d or 1-D, got shape " << q->ToString();
  std::vector<int64_t> out = q == nullptr ? std::vector<int64_t>{} : q->dims();
  const Shape kept = GeomOf(p, a).kept;
  out.insert(out.end(), kept.dims().begin(), kept.dims().end());
  return Shape(out);
}

// Note [np.percentile as MXNet computes it]: one sorted row at the virtual index
double At(const std::vector<double>& v, double q, const std::string& mode) {
  const double x = q / 100.0 * static_cast<double>(v.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(x)), above = std::min(below + 1, v.size() - 1);
  if (mode == "lower") return v[below];
  if (mode == "higher") return v[static_cast<size_t>(std::ceil(x))];
  if (mode == "midpoint") return (v[below] + v[static_cast<size_t>(std::ceil(x))]) / 2;
  if (mode == "nearest") return v[static_cast<size_t>(std::round(x))];
  const double w = x - static_cast<double>(below);
  return v[below] + w * (v[above] - v[below]);
}

void Forward(const Params& p, const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const PercentileGeom g = GeomOf(p, in[0].shape);
  const std::vector<double> q = in.size() > 1 ? nnx_cpu::ToDoubles(in[1]) : std::vector<double>{p.GetFloat("q_scalar")};
  for (double v : q)
    WEFT_CHECK(v >= 0 && v <= 100, kInvalidArgument) << kOp << ": input 'q' = " << v
        << " exceeds the valid range [0, 100] of a percentile";
  const std::vector<double> a = nnx_cpu::ToDoubles(in[0]);
  // each kept position's values, in a's order
  std::vector<std::vector<double>> rows(static_cast<size_t>(g.rows));
  const Shape& s = in[0].shape;
  std::vector<int64_t> coord(static_cast<size_t>(s.ndim()), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t r = 0;
    for (int d = 0; d < s.ndim(); ++d)
      if (!g.reduce[static_cast<size_t>(d)]) r = r * s[d] + coord[static_cast<size_t>(d)];
    rows[static_cast<size_t>(r)].push_back(a[i]);
    for (int d = s.ndim() - 1; d >= 0; --d) {
      if (++coord[static_cast<size_t>(d)] < s[d]) break;
      coord[static_cast<size_t>(d)] = 0;
    }
  }
  const std::string& mode = p.GetString("interpolation");
  std::vector<double> y(q.size() * rows.size(), std::numeric_limits<double>::quiet_NaN());
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<double>& v = rows[r];
    if (v.empty() || std::any_of(v.begin(), v.end(), [](double x) { return std::isnan(x); })) continue;
    std::sort(v.begin(), v.end());
    for (size_t k = 0; k < q.size(); ++k) y[k * rows.size() + r] = At(v, q[k], mode);
  }
  tensor_cpu::ConvertCopy(TensorView{y.data(), DType::kFloat64, out.shape}, req, out);
}

}  // namespace np_percentile

void PercentileCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] != OpReq::kNull) np_percentile::Forward(p, in, req[0], out[0]);
}

}  // namespace reduce_np

namespace np_percentile_op {

[[maybe_unused]] const bool kPercentileRegistered = [] {
  WEFT_REGISTER_OP(op, "_npi_percentile").set_compute_gpu(WEFT_GPU(cuda::NpPercentileGpu));
  op.describe("The q-th percentiles of `a` along `axis` (np.percentile; Note [np.percentile as MXNet computes "
              "it]): q's shape followed by the kept axes; float64 for float64 input, float32 otherwise.")
      .add_input("a")
      .add_input("q");
  op.add_optional_param("axis", ParamType::kShape,
                        "Axis or axes along which a sum is performed. The default, axis=None, will sum all of the "
                        "elements of the input array. If axis is negative it counts from the last to the first "
                        "axis.");
  op.add_enum_param("interpolation", {"higher", "linear", "lower", "midpoint", "nearest"}, "linear",
                    "his optional parameter specifies the interpolation method to use when thedesired percentile "
                    "lies between two data points i < j");
  op.add_param("keepdims", ParamType::kBool, "False",
               "If this is set to `True`, the reduced axes are left in the result as dimension with size one.");
  op.add_optional_param("q_scalar", ParamType::kFloat, "inqut q is a scalar");
  op.list_input_names = [](const Params& p) {
    return p.IsNone("q_scalar") ? std::vector<std::string>{"a", "q"} : std::vector<std::string>{"a"};
  };
  op.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        AssignShape(out, 0, reduce_np::np_percentile::OutShape(p, (*in)[0], in->size() > 1 ? &(*in)[1] : nullptr),
                    "_npi_percentile: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const DType a = (*in)[0];
        if (a == DType::kUnknown) return false;
        WEFT_CHECK(a != DType::kBool, kDType) << "_npi_percentile: input 'a' must hold numbers, got bool";
        AssignType(out, 0, a == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32, "_npi_percentile: output");
        return in->size() < 2 || (*in)[1] != DType::kUnknown;
      })
      .set_compute_cpu(reduce_np::PercentileCompute)
      .set_gradient(ZeroGradients);
  return true;
}();

}  // namespace np_percentile_op
}  // namespace weft
