// _contrib_fft and _contrib_ifft (MXNet's contrib FFT; the transforms and the
// layout: fft_rules.h). Each is the other's gradient: d/dx of fft is ifft of the
// output gradient and d/dz of ifft is fft of it (both unnormalised), as in
// MXNet's backward. GPU kernels: fft.cu.
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/op_util.h"
#include "core/op/signal/fft_rules.h"
#include "core/op/signal/signal_gpu.h"

namespace weft {
namespace {

bool FftShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, bool inverse) {
  const std::string& op = p.op()->name;
  const Shape& x = (*in)[0];
  if (!x.known()) return false;
  WEFT_CHECK(x.ndim() == 2 || x.ndim() == 4, kShape)
      << op << ": input 'data' must have shape (N, d) or (N1, N2, N3, d), got " << x.ToString();
  const int64_t last = x[x.ndim() - 1];
  WEFT_CHECK(last > 0 && (!inverse || last % 2 == 0), kShape)
      << op << ": the last axis of input 'data' " << x.ToString() << " must be "
      << (inverse ? "an even number of interleaved (re, im) values" : "non-empty");
  Shape o = x;
  o[o.ndim() - 1] = inverse ? last / 2 : CheckedMul(2, last, (op + ": output's last axis (2 * d)").c_str());
  AssignShape(out, 0, o, op + ": output");
  return true;
}

bool FftType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const DType t = (*in)[0] != DType::kUnknown ? (*in)[0] : (*out)[0];
  if (t == DType::kUnknown) return false;
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << p.op()->name << ": input 'data' has dtype " << DTypeName(t) << "; expected float32 or float64";
  AssignType(in, 0, t, p.op()->name + ": input 'data'");
  AssignType(out, 0, t, p.op()->name + ": output");
  return true;
}

template <typename T, bool kInverse>
void FftT(const TensorView& x, OpReq req, const TensorView& out) {
  const int64_t d = kInverse ? x.shape[x.ndim() - 1] / 2 : x.shape[x.ndim() - 1];
  const T* a = x.ptr<T>();
  T* o = out.ptr<T>();
  ParallelFor(out.Size(), d, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      StoreReq(req, o + i, kInverse ? signal::IfftEntry(a, d, i) : signal::FftEntry(a, d, i));
  });
}

template <bool kInverse>
void FftCompute(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  if (out[0].dtype == DType::kFloat64) FftT<double, kInverse>(in[0], req[0], out[0]);
  else FftT<float, kInverse>(in[0], req[0], out[0]);
}

OpDef& FftOp(const char* name, bool inverse, FCompute gpu, const char* grad_op, const std::string& doc) {
  WEFT_REGISTER_OP(op, name);
  const std::string g = grad_op;
  op.describe(doc)
      .add_input("data")
      .add_param("compute_size", ParamType::kInt, "128",
                 "Maximum size of sub-batch to be forwarded at one time (accepted for MXNet compatibility; "
                 "the result does not depend on it).")
      .set_infer_shape([inverse](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return FftShape(p, in, out, inverse);
      })
      .set_infer_type(FftType)
      .set_compute_cpu(inverse ? FCompute(FftCompute<true>) : FCompute(FftCompute<false>))
      .set_compute_gpu(std::move(gpu))
      .set_gradient([g](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {b(g, {og[0]}, b.Attrs(g))};
      });
  return op;
}

[[maybe_unused]] OpDef& reg_fft = FftOp(
    "_contrib_fft", false, WEFT_GPU(cuda::ContribFftGpu), "_contrib_ifft",
    "Apply 1D FFT to input: real data (N, d) or (N1, N2, N3, d) gives complex output (N, 2d) or "
    "(N1, N2, N3, 2d), each complex number stored as (real, imaginary) pairs along the last axis: "
    "out[..., 2k] + i out[..., 2k+1] = sum_j x[..., j] exp(-2 pi i j k / d). float32 and float64.");
[[maybe_unused]] OpDef& reg_ifft = FftOp(
    "_contrib_ifft", true, WEFT_GPU(cuda::ContribIfftGpu), "_contrib_fft",
    "Apply 1D inverse FFT to input: complex data (N, 2d) or (N1, N2, N3, 2d), (real, imaginary) pairs along "
    "the last axis, gives the real part (N, d) or (N1, N2, N3, d) of sum_k z_k exp(2 pi i j k / d). Not "
    "normalised (as MXNet): ifft(fft(x)) = d * x. float32 and float64.");

}  // namespace
}  // namespace weft
