// _np_trace: MXNet 1.9.1's np.trace (NumPy mode writes it): the sum of the
// diagonal (offset above the main one when > 0) over axis1 and axis2, in the
// input's dtype (MXNet's: int32 sums to int32), and _backward_np_trace.
// Kernels: np_trace_rules.h (Note [Trace over a five-axis view]), run by
// ParallelFor here and by the GPU (np_trace.cu). The legacy diag + sum compute
// it in two nodes, but a node of its own is what MXNet's graphs hold.
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/op_util.h"
#include "core/op/reduce/np_trace_gpu.h"
#include "core/op/reduce/np_trace_rules.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace tensor {

TraceGeom TraceGeomOf(const char* op, const Params& p, const Shape& data, Shape* out) {
  const int nd = data.ndim();
  WEFT_CHECK(nd >= 2, kShape) << op << ": diag requires an array of at least two dimensions, got shape "
                              << data.ToString();
  int64_t ax[2] = {p.GetInt("axis1"), p.GetInt("axis2")};
  for (int k = 0; k < 2; ++k) {
    WEFT_CHECK(ax[k] >= -nd && ax[k] < nd, kInvalidArgument)
        << op << ": " << (k ? "axis2" : "axis1") << " = " << ax[k] << " is out of range for an array of " << nd
        << " dimensions";
    if (ax[k] < 0) ax[k] += nd;
  }
  WEFT_CHECK(ax[0] != ax[1], kInvalidArgument) << op << ": axis1 and axis2 cannot be the same";
  const int a1 = static_cast<int>(ax[0]), a2 = static_cast<int>(ax[1]);
  const int lo = a1 < a2 ? a1 : a2, hi = a1 < a2 ? a2 : a1;
  TraceGeom g;
  g.A = data.ProdRange(0, lo);
  g.dp = data[lo];
  g.B = data.ProdRange(lo + 1, hi);
  g.dq = data[hi];
  g.C = data.ProdRange(hi + 1, nd);
  g.axis1_first = a1 < a2;
  const int64_t offset = p.GetInt("offset");
  const int64_t d1 = data[a1], d2 = data[a2];
  g.r0 = offset < 0 ? -offset : 0;
  g.c0 = offset > 0 ? offset : 0;
  const int64_t rows = g.r0 < d1 ? d1 - g.r0 : 0, cols = g.c0 < d2 ? d2 - g.c0 : 0;
  g.len = rows < cols ? rows : cols;
  std::vector<int64_t> dims;
  for (int i = 0; i < nd; ++i)
    if (i != a1 && i != a2) dims.push_back(data[i]);
  *out = Shape(dims);
  return g;
}

}  // namespace tensor

namespace {

bool InferTraceType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const bool done = SameTypeInfer(*p.op(), p, in, out);
  WEFT_CHECK((*out)[0] != DType::kBool, kDType) << p.op()->name << ": bool inputs are not supported";
  return done;
}

void TraceCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  Shape shape;
  const tensor::TraceGeom g = tensor::TraceGeomOf("_np_trace", p, in[0].shape, &shape);
  const OpReq r = req[0];
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    if constexpr (std::is_same<T, bool>::value) {
      WEFT_THROW(kDType) << "_np_trace: bool inputs are not supported";
    } else {
      const T* x = in[0].ptr<T>();
      T* y = out[0].ptr<T>();
      nnm::ForEachIndex(out[0].Size(), g.len + 1, [&](int64_t o) { tensor::TraceOut<T>(g, o, x, r, y); });
    }
  });
}

void TraceBackwardCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  Shape shape;
  const tensor::TraceGeom g = tensor::TraceGeomOf("_backward_np_trace", p, in[1].shape, &shape);
  const OpReq r = req[0];
  WEFT_DTYPE_SWITCH(out[0].dtype, T, {
    if constexpr (std::is_same<T, bool>::value) {
      WEFT_THROW(kDType) << "_backward_np_trace: bool inputs are not supported";
    } else {
      const T* gy = in[0].ptr<T>();
      T* gx = out[0].ptr<T>();
      nnm::ForEachIndex(out[0].Size(), 4, [&](int64_t i) { tensor::TraceGradIn<T>(g, i, gy, r, gx); });
    }
  });
}

OpDef& TraceParams(OpDef& op) {
  return op.add_param("offset", ParamType::kInt, "0", "The diagonal: > 0 above the main one, < 0 below it.")
      .add_param("axis1", ParamType::kInt, "0", "The first axis of the 2-D sub-arrays (the rows).")
      .add_param("axis2", ParamType::kInt, "1", "The second axis of the 2-D sub-arrays (the columns).");
}

WEFT_REGISTER_OP(trace_decl, "_np_trace");
[[maybe_unused]] OpDef& reg_trace =
    TraceParams(trace_decl.set_compute_gpu(WEFT_GPU(cuda::NpTraceGpu)))
        .describe("NumPy's trace (MXNet's `_np_trace`): the sum along the diagonal `offset` of the 2-D "
                  "sub-arrays over axis1 and axis2; the result has the other axes (a 0-d array for 2-D data) "
                  "and the input's dtype.")
        .add_input("data")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          if (!(*in)[0].known()) return false;
          Shape shape;
          tensor::TraceGeomOf("_np_trace", p, (*in)[0], &shape);
          AssignShape(out, 0, shape, "_np_trace: output");
          return true;
        })
        .set_infer_type(InferTraceType)
        .set_compute_cpu(TraceCPU)
        .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
          GradBuilder b(n);
          return {OutputOf(b.NodeWithAttrs("_backward_np_trace", {og[0], b.in(0)}), 0)};
        });

WEFT_REGISTER_OP(trace_bwd_decl, "_backward_np_trace");
[[maybe_unused]] OpDef& reg_trace_bwd =
    TraceParams(trace_bwd_decl.set_compute_gpu(WEFT_GPU(cuda::BackwardNpTraceGpu)))
        .describe("Gradient of _np_trace: inputs (out_grad, data), output data's gradient: out_grad on the "
                  "diagonal, zeros elsewhere (Note [Trace over a five-axis view]).")
        .add_input("out_grad")
        .add_input("data")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return ShapeOfInput(p, in, out, 1);
        })
        .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
          return TypeOfInput(p, in, out, 1);
        })
        .set_compute_cpu(TraceBackwardCPU);

}  // namespace
}  // namespace weft
