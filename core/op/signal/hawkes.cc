// _contrib_hawkesll and _contrib_backward_hawkesll: the log-likelihood of a
// marked Hawkes process and its gradient (Note [Hawkes log-likelihood] in
// hawkes_rules.h). GPU kernels: hawkes.cu.
#include <algorithm>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/op_util.h"
#include "core/op/signal/hawkes_rules.h"
#include "core/op/signal/signal_gpu.h"

namespace weft {
namespace {

const char* kNames[] = {"lda", "alpha", "beta", "state", "lags", "marks", "valid_length", "max_time"};

bool HawkesShape(const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string op = "_contrib_hawkesll";
  const int want[] = {2, 1, 1, 2, 2, 2, 1, 1};
  for (int i = 0; i < 8; ++i) {
    if (!(*in)[i].known()) return false;
    WEFT_CHECK((*in)[i].ndim() == want[i], kShape) << op << ": input '" << kNames[i] << "' must have " << want[i]
                                                   << " dimension(s), got shape " << (*in)[i].ToString();
  }
  const int64_t N = (*in)[4][0], T = (*in)[4][1], K = (*in)[0][1];
  const Shape expect[] = {Shape{N, K}, Shape{K}, Shape{K}, Shape{N, K}, Shape{N, T}, Shape{N, T}, Shape{N}, Shape{N}};
  for (int i = 0; i < 8; ++i)
    WEFT_CHECK((*in)[i] == expect[i], kShape)
        << op << ": input '" << kNames[i] << "' has shape " << (*in)[i].ToString() << ", expected "
        << expect[i].ToString() << " (N = " << N << " samples, T = " << T << " events, K = " << K << " marks)";
  AssignShape(out, 0, Shape{N}, op + ": output 'loglike'");
  AssignShape(out, 1, Shape{N, K}, op + ": output 'state'");
  return true;
}

bool HawkesType(const Params&, std::vector<DType>* in, std::vector<DType>* out) {
  const DType t = (*in)[0];
  if (t == DType::kUnknown) return false;
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << "_contrib_hawkesll: input 'lda' has dtype " << DTypeName(t) << "; expected float32 or float64";
  for (int i = 0; i < 8; ++i)
    AssignType(in, i, i == 5 ? DType::kInt32 : t, std::string("_contrib_hawkesll: input '") + kNames[i] + "'");
  AssignType(out, 0, t, "_contrib_hawkesll: output");
  AssignType(out, 1, t, "_contrib_hawkesll: output");
  return true;
}

// The inputs, checked as only the CPU can (a GPU kernel cannot raise): each
// valid_length within [0, T] and each valid mark within [0, K).
template <typename T>
signal::HawkesInputs<T> Inputs(const std::vector<TensorView>& in, size_t first) {
  const signal::HawkesInputs<T> h = signal::HawkesInputsOf<T>(in, first);
  const int64_t N = in[first + 4].shape[0];
  for (int64_t i = 0; i < N; ++i) {
    const T v = h.valid_length[i];
    WEFT_CHECK(v >= 0 && v <= static_cast<T>(h.T_len), kInvalidArgument)
        << "_contrib_hawkesll: input 'valid_length' holds " << v << " for sample " << i << "; expected 0 to "
        << h.T_len;
    for (int64_t j = 0; j < static_cast<int64_t>(v); ++j)
      WEFT_CHECK(h.marks[i * h.T_len + j] >= 0 && h.marks[i * h.T_len + j] < h.K, kInvalidArgument)
          << "_contrib_hawkesll: input 'marks' holds " << h.marks[i * h.T_len + j] << " at (" << i << ", " << j
          << "); marks must lie in [0, " << h.K << ")";
  }
  return h;
}

template <typename T>
void ForwardT(const std::vector<TensorView>& in, const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const signal::HawkesInputs<T> h = Inputs<T>(in, 0);
  const int64_t N = in[4].shape[0], K = h.K;
  T* ll = out[0].ptr<T>();
  T* st = out[1].ptr<T>();
  ParallelFor(N, 8 * h.T_len, [&](int64_t begin, int64_t end) {
    std::vector<double> phi(static_cast<size_t>(K)), last(static_cast<size_t>(K));
    for (int64_t i = begin; i < end; ++i) {
      const double v = signal::HawkesLogLike(h, i, phi.data(), last.data());
      StoreReq(req[0], ll + i, static_cast<T>(v));
      for (int64_t k = 0; k < K; ++k) StoreReq(req[1], st + i * K + k, static_cast<T>(phi[static_cast<size_t>(k)]));
    }
  });
}

template <typename T>
void BackwardT(const std::vector<TensorView>& in, const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const signal::HawkesInputs<T> h = Inputs<T>(in, 2);
  const int64_t N = in[6].shape[0], K = h.K;
  const T* g = in[0].ptr<T>();
  std::vector<double> ga(static_cast<size_t>(N * K)), gb(static_cast<size_t>(N * K)), gm(static_cast<size_t>(N * K));
  ParallelFor(N, 8 * h.T_len, [&](int64_t begin, int64_t end) {
    std::vector<double> phi(static_cast<size_t>(K)), dphi(static_cast<size_t>(K)), last(static_cast<size_t>(K));
    for (int64_t i = begin; i < end; ++i)
      signal::HawkesGrad(h, i, static_cast<double>(g[i]), phi.data(), dphi.data(), last.data(), &gm[i * K],
                         &ga[i * K], &gb[i * K]);
  });
  T* dmu = out[0].ptr<T>();
  for (int64_t i = 0; i < N * K; ++i) StoreReq(req[0], dmu + i, static_cast<T>(gm[static_cast<size_t>(i)]));
  for (int64_t k = 0; k < K; ++k) {
    double sa = 0, sb = 0;
    for (int64_t i = 0; i < N; ++i) {
      sa += ga[static_cast<size_t>(i * K + k)];
      sb += gb[static_cast<size_t>(i * K + k)];
    }
    StoreReq(req[1], out[1].ptr<T>() + k, static_cast<T>(sa));
    StoreReq(req[2], out[2].ptr<T>() + k, static_cast<T>(sb));
  }
  // state, lags, marks, valid_length, max_time: no gradient (MXNet's rule).
  for (int o = 3; o < 8; ++o) {
    if (req[static_cast<size_t>(o)] != OpReq::kWriteTo && req[static_cast<size_t>(o)] != OpReq::kWriteInplace) continue;
    const TensorView& v = out[static_cast<size_t>(o)];
    if (v.dtype == DType::kInt32) std::fill(v.ptr<int32_t>(), v.ptr<int32_t>() + v.Size(), 0);
    else std::fill(v.ptr<T>(), v.ptr<T>() + v.Size(), T(0));
  }
}

WEFT_REGISTER_OP("_contrib_hawkesll")
    .describe("Computes the log likelihood of a univariate (marked) Hawkes process with exponential kernels "
              "(Note [Hawkes log-likelihood]): lda (N, K) background intensities, alpha (K,) branching ratios, "
              "beta (K,) decays, state (N, K) initial states, lags (N, T) inter-arrival times, marks (N, T) "
              "int32 marks in [0, K), valid_length (N,) events per sample, max_time (N,) observation ends. "
              "Outputs loglike (N,) and the states at max_time (N, K). float32 and float64.")
    .add_input("lda").add_input("alpha").add_input("beta").add_input("state")
    .add_input("lags").add_input("marks").add_input("valid_length").add_input("max_time")
    .set_num_outputs(2)
    .set_infer_shape(HawkesShape)
    .set_infer_type(HawkesType)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      if (in[0].dtype == DType::kFloat64) ForwardT<double>(in, req, out);
      else ForwardT<float>(in, req, out);
    })
    .set_compute_gpu(WEFT_GPU(cuda::ContribHawkesllGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      std::vector<NodeEntry> in = {og[0], og[1]};
      in.insert(in.end(), n->inputs.begin(), n->inputs.end());
      const NodePtr g = b.Node("_contrib_backward_hawkesll", in);
      std::vector<NodeEntry> r;
      for (uint32_t i = 0; i < 8; ++i) r.push_back(OutputOf(g, i));
      return r;
    });

WEFT_REGISTER_OP("_contrib_backward_hawkesll")
    .describe("Gradient of _contrib_hawkesll: from the gradient of loglike (out_grad_ll; out_grad_state is "
              "not used, as in MXNet) and the forward inputs, the gradients of lda, alpha and beta; the other "
              "inputs get zeros.")
    .add_input("out_grad_ll").add_input("out_grad_state")
    .add_input("lda").add_input("alpha").add_input("beta").add_input("state")
    .add_input("lags").add_input("marks").add_input("valid_length").add_input("max_time")
    .set_num_outputs(8)
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      bool known = true;
      for (size_t i = 0; i < 8; ++i) {
        if (!(*in)[i + 2].known()) { known = false; continue; }
        AssignShape(out, i, (*in)[i + 2], std::string("_contrib_backward_hawkesll: gradient of '") + kNames[i] + "'");
      }
      if (!known || !(*in)[0].known()) return false;
      // The kernel trusts the forward's shapes (it read past mismatched inputs): the forward's
      // own check, then the out_grads against the forward's outputs.
      std::vector<Shape> fwd_in(in->begin() + 2, in->end()), fwd_out(2, Shape::Unknown());
      HawkesShape(p, &fwd_in, &fwd_out);
      for (int k = 0; k < 2; ++k)
        WEFT_CHECK(!(*in)[k].known() || (*in)[k] == fwd_out[k], kShape)
            << "_contrib_backward_hawkesll: input '" << (k == 0 ? "out_grad_ll" : "out_grad_state") << "' has shape "
            << (*in)[k].ToString() << ", expected " << fwd_out[k].ToString() << " (the forward output's)";
      return true;
    })
    .set_infer_type([](const Params&, std::vector<DType>* in, std::vector<DType>* out) {
      const DType t = (*in)[2];
      if (t == DType::kUnknown) return false;
      // the forward's check: the CPU kernel reads float32 or float64 only
      WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
          << "_contrib_backward_hawkesll: input 'lda' has dtype " << DTypeName(t) << "; expected float32 or float64";
      for (size_t i = 0; i < 8; ++i) AssignType(out, i, i == 5 ? DType::kInt32 : t, "_contrib_backward_hawkesll");
      for (size_t i = 0; i < in->size(); ++i)
        AssignType(in, i, i == 7 ? DType::kInt32 : t, "_contrib_backward_hawkesll");  // known ones must agree
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      if (in[2].dtype == DType::kFloat64) BackwardT<double>(in, req, out);
      else BackwardT<float>(in, req, out);
    })
    .set_compute_gpu(WEFT_GPU(cuda::ContribBackwardHawkesllGpu));

}  // namespace
}  // namespace weft
