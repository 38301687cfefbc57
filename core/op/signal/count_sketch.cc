// _contrib_count_sketch (MXNet's contrib count sketch, as used by compact
// bilinear pooling): sums in count_sketch_rules.h; GPU kernel: count_sketch.cu.
// The gradient of data is s[i] * out_grad[n, h[i]] (MXNet's backward), built
// from take and broadcast_mul; h and s get none (zeros).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/op_util.h"
#include "core/op/signal/count_sketch_rules.h"
#include "core/op/signal/signal_gpu.h"

namespace weft {
namespace {

bool CountSketchShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string op = "_contrib_count_sketch";
  const Shape& x = (*in)[0];
  if (!x.known()) return false;
  WEFT_CHECK(x.ndim() == 2 || x.ndim() == 4, kShape)
      << op << ": input 'data' must have shape (N, d) or (N1, N2, N3, d), got " << x.ToString();
  const int64_t d = x[x.ndim() - 1], out_dim = p.GetInt("out_dim");
  WEFT_CHECK(out_dim > 0, kInvalidArgument) << op << ": out_dim must be positive, got " << out_dim;
  AssignShape(in, 1, Shape{1, d}, op + ": input 'h' (one hash index per input column)");
  AssignShape(in, 2, Shape{1, d}, op + ": input 's' (one sign per input column)");
  Shape o = x;
  o[o.ndim() - 1] = out_dim;
  AssignShape(out, 0, o, op + ": output");
  return true;
}

bool CountSketchType(const Params&, std::vector<DType>* in, std::vector<DType>* out) {
  DType t = (*in)[0];
  if (t == DType::kUnknown) return false;
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << "_contrib_count_sketch: input 'data' has dtype " << DTypeName(t) << "; expected float32 or float64";
  const char* names[] = {"data", "h", "s"};
  for (size_t i = 0; i < in->size(); ++i) AssignType(in, i, t, std::string("_contrib_count_sketch: input '") + names[i] + "'");
  AssignType(out, 0, t, "_contrib_count_sketch: output");
  return true;
}

template <typename T>
void CountSketchT(const std::vector<TensorView>& in, OpReq req, const TensorView& out, int64_t out_dim) {
  const int64_t d = in[0].shape[in[0].ndim() - 1];
  const T* data = in[0].ptr<T>();
  const T* h = in[1].ptr<T>();
  const T* s = in[2].ptr<T>();
  for (int64_t k = 0; k < d; ++k)
    // Compared as doubles, not converted first: h may be NaN or 1e30, whose conversion
    // is undefined (Note [Float to int conversions]); trunc(h) < out_dim iff h < out_dim for h >= 0.
    WEFT_CHECK(static_cast<double>(h[k]) >= 0 && static_cast<double>(h[k]) < static_cast<double>(out_dim),
               kInvalidArgument)
        << "_contrib_count_sketch: input 'h' holds " << h[k] << " at column " << k << "; hash indices must lie in [0, "
        << out_dim << ") (out_dim)";
  T* o = out.ptr<T>();
  ParallelFor(out.Size(), d, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) StoreReq(req, o + i, signal::CountSketchEntry(data, h, s, d, out_dim, i));
  });
}

WEFT_REGISTER_OP("_contrib_count_sketch")
    .describe("Apply CountSketch to input: data (N, d) (or (N1, N2, N3, d)) with hash indices h (1, d), values "
              "in [0, out_dim), and signs s (1, d), values +1 or -1, gives out (N, out_dim) with "
              "out[n, h[i]] += s[i] * data[n, i]. float32 and float64.")
    .add_input("data")
    .add_input("h")
    .add_input("s")
    .add_required_param("out_dim", ParamType::kInt, "The output dimension.")
    .add_param("processing_batch_size", ParamType::kInt, "32",
               "How many sketch vectors to process at one time (accepted for MXNet compatibility; the result "
               "does not depend on it).")
    .set_infer_shape(CountSketchShape)
    .set_infer_type(CountSketchType)
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      if (req[0] == OpReq::kNull) return;
      if (out[0].dtype == DType::kFloat64) CountSketchT<double>(in, req[0], out[0], p.GetInt("out_dim"));
      else CountSketchT<float>(in, req[0], out[0], p.GetInt("out_dim"));
    })
    .set_compute_gpu(WEFT_GPU(cuda::ContribCountSketchGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      const NodeEntry g2 = b("Reshape", {og[0]}, {{"shape", "(-1, 0)"}, {"reverse", "True"}});  // (N, out_dim)
      const NodeEntry h = b("Reshape", {b.in(1)}, {{"shape", "(-1,)"}});
      const NodeEntry picked = b("take", {g2, h}, {{"axis", "1"}, {"mode", "clip"}});  // (N, d): g[n, h[i]]
      const NodeEntry d = b("_backward_reshape", {b("broadcast_mul", {picked, b.in(2)}), b.in(0)});
      return {d, b.Zeros(b.in(1)), b.Zeros(b.in(2))};
    });

}  // namespace
}  // namespace weft
