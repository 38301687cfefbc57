// _npi_average (np.average, MXNet 1.9.1's registered name, issue 37) and its
// gradient _backward_np_average.
//
// Note [np.average as MXNet returns it]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Inputs (a, weights), weights only when `weighted` (MXNet's frontend writes
// weighted=False for weights=None). The average is sum(a * w) / sum(w) over
// `axis` (None: all axes, a 0-d result), in a's dtype: integers divide as
// integers do in MXNet (truncated), zero weights give nan/inf rather than
// NumPy's ZeroDivisionError. The weights have a's shape, or are 1-D along the
// one reduced axis. With returned=True a second output holds the sum of
// weights, where MXNet (unlike NumPy, which broadcasts it to the average's
// shape) gives: the per-output sums for weights of a's shape, a 0-d sum for
// 1-D weights, and a 0-d count of averaged elements without weights; it is in
// a's dtype too. Only the average's gradient flows back (MXNet's backward
// reads its first output gradient only):
//   d a_i = g * w_i / sum(w),   d w_i = g * (a_i - avg) / sum(w)
// summed over the reduced positions for 1-D weights. The kernels compute in
// double and convert once; the GPU kernels run them on host copies
// (np_average.cu): a reduction with broadcast weights is memory-bound and rare.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/reduce/np_average_cpu.h"
#include "core/op/reduce/np_average_gpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace reduce_np {
// A named namespace, not an anonymous one: the unity build joins this file with
// the family's others, whose helpers could share these names.
namespace np_average {

const char kOp[] = "_npi_average";

struct AverageGeom {
  std::vector<bool> reduce;  // per axis of a
  Shape out;                 // a without the reduced axes
  int weight_axis = -1;      // the axis of 1-D weights; -1: weights of a's shape (or none)
  int64_t count = 1;         // elements averaged per output
};

AverageGeom AverageGeomOf(const Params& p, const Shape& a, const Shape* w) {
  AverageGeom g;
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
  std::vector<int64_t> out;
  for (int i = 0; i < a.ndim(); ++i) {
    if (g.reduce[static_cast<size_t>(i)]) {
      g.count *= a[i];
    } else {
      out.push_back(a[i]);
    }
  }
  g.out = Shape(out);
  if (w == nullptr || w->dims() == a.dims()) return g;
  WEFT_CHECK(!p.IsNone("axis"), kShape) << kOp << ": input 'weights' of shape " << w->ToString()
      << " differs from 'a' " << a.ToString() << ": parameter 'axis' must then be given";
  WEFT_CHECK(w->ndim() == 1, kShape) << kOp << ": input 'weights' must have the shape of 'a' " << a.ToString()
      << " or be 1-D, got " << w->ToString();
  WEFT_CHECK(p.GetTuple("axis").size() == 1, kShape)
      << kOp << ": 1-D input 'weights' needs a single axis, got 'axis' = " << tensor::TupleString(p.GetTuple("axis"));
  g.weight_axis = tensor::NormalizeAxis(p.GetTuple("axis")[0], a.ndim(), kOp, "a");
  WEFT_CHECK((*w)[0] == a[g.weight_axis], kShape) << kOp << ": length of input 'weights' (" << (*w)[0]
      << ") differs from that of 'a' along axis " << g.weight_axis << " (" << a[g.weight_axis] << ")";
  return g;
}

// Walks a's elements in order, giving each one's output offset and its
// coordinate along `axis` (-1: none).
template <typename Fn>
void ForEachElement(const Shape& a, const std::vector<bool>& reduce, int axis, Fn fn) {
  const int nd = a.ndim();
  std::vector<int64_t> out_stride(static_cast<size_t>(nd), 0);
  int64_t s = 1;
  for (int i = nd - 1; i >= 0; --i) {
    if (reduce[static_cast<size_t>(i)]) continue;
    out_stride[static_cast<size_t>(i)] = s;
    s *= a[i];
  }
  std::vector<int64_t> coord(static_cast<size_t>(nd), 0);
  int64_t o = 0;
  const int64_t n = a.Size();
  for (int64_t i = 0; i < n; ++i) {
    fn(i, o, axis >= 0 ? coord[static_cast<size_t>(axis)] : 0);
    for (int d = nd - 1; d >= 0; --d) {
      const size_t u = static_cast<size_t>(d);
      o += out_stride[u];
      if (++coord[u] < a[d]) break;
      o -= out_stride[u] * coord[u];
      coord[u] = 0;
    }
  }
}

void Store(std::vector<double> d, OpReq req, const TensorView& out) {
  TensorView dv{d.data(), DType::kFloat64, out.shape};
  tensor_cpu::ConvertCopy(dv, req, out);
}

// Per output: the weighted sums of a and of the weights.
void Sums(const AverageGeom& g, const Shape& a_shape, const std::vector<double>& a, const std::vector<double>* w,
          std::vector<double>* num, std::vector<double>* den) {
  num->assign(static_cast<size_t>(g.out.Size()), 0.0);
  den->assign(num->size(), 0.0);
  ForEachElement(a_shape, g.reduce, g.weight_axis, [&](int64_t i, int64_t o, int64_t k) {
    const double wi = w == nullptr ? 1.0 : (*w)[static_cast<size_t>(g.weight_axis >= 0 ? k : i)];
    (*num)[static_cast<size_t>(o)] += a[static_cast<size_t>(i)] * wi;
    (*den)[static_cast<size_t>(o)] += wi;
  });
}

void Forward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool weighted = p.GetBool("weighted");
  const AverageGeom g = AverageGeomOf(p, in[0].shape, weighted ? &in[1].shape : nullptr);
  const std::vector<double> a = nnx_cpu::ToDoubles(in[0]);
  std::vector<double> w;
  if (weighted) w = nnx_cpu::ToDoubles(in[1]);
  std::vector<double> num, den;
  Sums(g, in[0].shape, a, weighted ? &w : nullptr, &num, &den);
  std::vector<double> avg(num.size());
  // Note [np.average as MXNet returns it]: integers divide as integers
  const bool integral = !IsFloating(out[0].dtype);
  for (size_t o = 0; o < avg.size(); ++o) {
    avg[o] = integral && den[o] == 0 ? 0.0 : num[o] / den[o];
  }
  Store(std::move(avg), req[0], out[0]);
  if (out.size() < 2) return;
  std::vector<double> sum_w;
  if (!weighted) {
    sum_w = {static_cast<double>(g.count)};
  } else if (g.weight_axis >= 0) {
    double s = 0;
    for (double x : w) s += x;
    sum_w = {s};
  } else {
    sum_w = den;
  }
  Store(std::move(sum_w), req[1], out[1]);
}

void Backward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool weighted = p.GetBool("weighted");
  const Shape& a_shape = in[1].shape;
  const AverageGeom g = AverageGeomOf(p, a_shape, weighted ? &in[2].shape : nullptr);
  const std::vector<double> og = nnx_cpu::ToDoubles(in[0]);
  const std::vector<double> a = nnx_cpu::ToDoubles(in[1]);
  std::vector<double> w;
  if (weighted) w = nnx_cpu::ToDoubles(in[2]);
  std::vector<double> num, den;
  Sums(g, a_shape, a, weighted ? &w : nullptr, &num, &den);
  std::vector<double> ga(a.size()), gw(weighted ? w.size() : 0, 0.0);
  ForEachElement(a_shape, g.reduce, g.weight_axis, [&](int64_t i, int64_t o, int64_t k) {
    const size_t wi = static_cast<size_t>(g.weight_axis >= 0 ? k : i);
    const size_t uo = static_cast<size_t>(o);
    const double scale = og[uo] / den[uo];
    ga[static_cast<size_t>(i)] = scale * (weighted ? w[wi] : 1.0);
    if (weighted) gw[wi] += scale * (a[static_cast<size_t>(i)] - num[uo] / den[uo]);
  });
  Store(std::move(ga), req[0], out[0]);
  if (weighted) Store(std::move(gw), req[1], out[1]);
}

}  // namespace np_average

void AverageCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  np_average::Forward(ctx, p, in, req, out);
}

void AverageBackwardCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  np_average::Backward(ctx, p, in, req, out);
}

}  // namespace reduce_np

namespace np_average_op {

std::vector<std::string> AverageInputs(const Params& p) {
  if (p.GetBool("weighted")) return {"a", "weights"};
  return {"a"};
}

void AverageParams(OpDef& op) {
  op.add_optional_param("axis", ParamType::kShape,
                        "Axis or axes along which a average is performed. The default, axis=None, will average "
                        "all of the elements of the input array. If axis is negative it counts from the last to "
                        "the first axis.");
  op.add_param("returned", ParamType::kBool, "False",
               "If True, the tuple (average, sum_of_weights) is returned, otherwise only the average is returned. "
               "If weights=None, sum_of_weights is equivalent to the number of elements over which the average "
               "is taken.");
  op.add_param("weighted", ParamType::kBool, "True", "Auxiliary flag to deal with none weights.");
}

bool SameDTypes(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t n_out) {
  const std::string& op = p.op()->name;
  const DType a = (*in)[op == reduce_np::np_average::kOp ? 0 : 1];
  if (a == DType::kUnknown) return false;
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] == DType::kUnknown) (*in)[i] = a;
    WEFT_CHECK((*in)[i] == a, kDType) << op << ": inputs must share one dtype, got " << DTypeName(a) << " and "
                                      << DTypeName((*in)[i]) << " (input " << i << ")";
  }
  for (size_t i = 0; i < n_out; ++i) AssignType(out, i, a, op + ": output");
  return true;
}

[[maybe_unused]] const bool kAverageRegistered = [] {
  WEFT_REGISTER_OP(op, "_npi_average").set_compute_gpu(WEFT_GPU(cuda::NpAverageGpu));
  op.describe("The weighted average of `a` along `axis` (np.average, Note [np.average as MXNet returns it]): "
              "sum(a * weights) / sum(weights), in a's dtype; with returned=True also the sum of weights.")
      .add_input("a")
      .add_input("weights");
  AverageParams(op);
  op.list_input_names = AverageInputs;
  op.set_num_outputs([](const Params& p) { return p.GetBool("returned") ? 2 : 1; })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const bool weighted = p.GetBool("weighted");
        if (!(*in)[0].known() || (weighted && !(*in)[1].known())) return false;
        const reduce_np::np_average::AverageGeom g =
            reduce_np::np_average::AverageGeomOf(p, (*in)[0], weighted ? &(*in)[1] : nullptr);
        AssignShape(out, 0, g.out, "_npi_average: output");
        if (out->size() > 1) {
          const bool per_output = weighted && g.weight_axis < 0;
          AssignShape(out, 1, per_output ? g.out : Shape(std::vector<int64_t>{}), "_npi_average: sum_of_weights");
        }
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return SameDTypes(p, in, out, out->size());
      })
      .set_compute_cpu(reduce_np::AverageCompute)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        std::vector<NodeEntry> in = {og[0]};
        for (const NodeEntry& e : n->inputs) in.push_back(e);
        return ViaBackwardOp(n, "_backward_np_average", in);
      });
  return true;
}();

[[maybe_unused]] const bool kAverageBackwardRegistered = [] {
  WEFT_REGISTER_OP(op, "_backward_np_average").set_compute_gpu(WEFT_GPU(cuda::NpAverageBackwardGpu));
  op.describe("Gradient of np.average from (out_grad, a[, weights]): the gradients of a and of the weights.")
      .add_input("out_grad")
      .add_input("a")
      .add_input("weights");
  AverageParams(op);
  op.list_input_names = [](const Params& p) {
    std::vector<std::string> n = AverageInputs(p);
    n.insert(n.begin(), "out_grad");
    return n;
  };
  op.set_num_outputs([](const Params& p) { return p.GetBool("weighted") ? 2 : 1; })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const bool weighted = p.GetBool("weighted");
        if (!(*in)[1].known() || (weighted && !(*in)[2].known())) return false;
        const reduce_np::np_average::AverageGeom g =
            reduce_np::np_average::AverageGeomOf(p, (*in)[1], weighted ? &(*in)[2] : nullptr);
        AssignShape(in, 0, g.out, "_backward_np_average: input 'out_grad'");
        for (size_t i = 0; i < out->size(); ++i) AssignShape(out, i, (*in)[i + 1], "_backward_np_average: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return SameDTypes(p, in, out, out->size());
      })
      .set_compute_cpu(reduce_np::AverageBackwardCompute);
  return true;
}();

}  // namespace np_average_op
}  // namespace weft
