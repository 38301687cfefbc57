// _npi_polyval (np.polyval, MXNet 1.9.1's registered name) and
// _backward_npi_polyval: the polynomial with 1-D coefficients p (highest
// power first) at every element of x, in their common dtype (p and x must
// have the same dtype; weft.np.polyval casts them), evaluated as NumPy does
// (Note [Polyval as NumPy evaluates it], polyval_rules.h). The gradient gives
// both p's and x's (floating dtypes). GPU kernels: polyval.cu.
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/polyval_gpu.h"
#include "core/op/elemwise/polyval_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

constexpr const char* kPolyvalOp = "_npi_polyval";

void CheckCoefficients(const std::string& op, const Shape& p) {
  WEFT_CHECK(p.ndim() == 1, kShape) << op << ": input 'p' (the coefficients) must be 1-D, got shape "
                                    << p.ToString();
}

// p's and x's dtype, equal (kDType naming op otherwise); kUnknown while either is.
DType PolyvalType(const std::string& op, DType p, DType x) {
  if (p == DType::kUnknown || x == DType::kUnknown) return DType::kUnknown;
  WEFT_CHECK(p == x, kDType) << op << ": inputs 'p' and 'x' must have the same dtype, got " << DTypeName(p)
                             << " and " << DTypeName(x);
  WEFT_CHECK(p != DType::kBool, kDType) << op << ": bool inputs are not supported (cast them first)";
  return p;
}

void PolyvalCpu(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t n = in[0].Size();
  WEFT_DTYPE_SWITCH(out[0].dtype, T, {
    if constexpr (std::is_same<T, bool>::value) {
      WEFT_THROW(kDType) << kPolyvalOp << ": bool inputs are not supported (cast them first)";
    } else {
      using A = typename tensor::PolyArithOf<T>::type;
      const T* p = in[0].ptr<T>();
      const T* x = in[1].ptr<T>();
      T* y = out[0].ptr<T>();
      const OpReq r = req[0];
      nnm::ForEachIndex(out[0].Size(), 2 * n + 1, [&](int64_t i) {
        nnm::Put(y, i, r, static_cast<A>(tensor::PolyvalAt(p, n, x[i])));
      });
    }
  });
}

void PolyvalBackwardCpu(const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const TensorView &og = in[0], &p = in[1], &x = in[2];
  const int64_t n = p.Size(), m = x.Size();
  WEFT_CHECK(IsFloating(x.dtype), kDType) << "_backward_npi_polyval: the gradient needs a floating dtype, got "
                                          << DTypeName(x.dtype);
  WEFT_DTYPE_SWITCH(x.dtype, T, {
    const T* g = og.ptr<T>();
    const T* pv = p.ptr<T>();
    const T* xv = x.ptr<T>();
    if (req[0] != OpReq::kNull) {
      T* gp = out[0].ptr<T>();
      const OpReq r = req[0];
      nnm::ForEachIndex(n, 4 * m + 1, [&](int64_t k) { tensor::PolyvalCoefGrad<T, double>(k, n, g, xv, m, r, gp); });
    }
    if (req[1] != OpReq::kNull) {
      T* gx = out[1].ptr<T>();
      const OpReq r = req[1];
      nnm::ForEachIndex(m, 4 * n + 1, [&](int64_t i) {
        nnm::Put(gx, i, r, static_cast<double>(g[i]) * tensor::PolyvalSlope(pv, n, static_cast<double>(xv[i])));
      });
    }
  });
}

WEFT_REGISTER_OP(kPolyvalOp)
    .describe("Evaluate a polynomial at specific values: p[0] * x**(N-1) + p[1] * x**(N-2) + ... + p[N-1], "
              "elementwise over x (p: the 1-D coefficients, highest power first; p and x of one dtype).\n\n"
              "Example::\n\n   polyval([3, 0, 1], [5, 1]) = [76, 4]")
    .add_input("p")
    .add_input("x")
    .set_infer_shape([](const Params& pr, std::vector<Shape>* in, std::vector<Shape>* out) {
      if ((*in)[0].known()) CheckCoefficients(pr.op()->name, (*in)[0]);
      if (!(*in)[1].known()) return false;
      AssignShape(out, 0, (*in)[1], pr.op()->name + ": output");
      return (*in)[0].known();
    })
    .set_infer_type([](const Params& pr, std::vector<DType>* in, std::vector<DType>* out) {
      const DType t = PolyvalType(pr.op()->name, (*in)[0], (*in)[1]);
      if (t == DType::kUnknown) return false;
      AssignType(out, 0, t, pr.op()->name + ": output");
      return true;
    })
    .set_compute_cpu(PolyvalCpu)
    .set_compute_gpu(WEFT_GPU(cuda::PolyvalGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      NodePtr bw = b.NodeWithAttrs("_backward_npi_polyval", {og[0], b.in(0), b.in(1)});
      return {OutputOf(bw, 0), OutputOf(bw, 1)};
    });

WEFT_REGISTER_OP("_backward_npi_polyval")
    .describe("Gradient of np.polyval from (out_grad, p, x): (sum_i out_grad_i * x_i**(N-1-k) for each k, "
              "out_grad * p'(x)), in p's and x's shapes (floating dtypes).")
    .add_input("out_grad")
    .add_input("p")
    .add_input("x")
    .set_num_outputs(2)
    .set_infer_shape([](const Params& pr, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape &g = (*in)[0], &p = (*in)[1], &x = (*in)[2];
      if (!p.known() || !x.known()) return false;
      CheckCoefficients(pr.op()->name, p);
      WEFT_CHECK(!g.known() || g == x, kShape) << pr.op()->name << ": input 'out_grad' has shape " << g.ToString()
                                               << " but 'x' has " << x.ToString() << "; they must be equal";
      AssignShape(out, 0, p, pr.op()->name + ": output 0");
      AssignShape(out, 1, x, pr.op()->name + ": output 1");
      return true;
    })
    .set_infer_type([](const Params& pr, std::vector<DType>* in, std::vector<DType>* out) {
      const DType t = PolyvalType(pr.op()->name, (*in)[1], (*in)[2]);
      if (t == DType::kUnknown) return false;
      AssignType(out, 0, t, pr.op()->name + ": output 0");
      AssignType(out, 1, t, pr.op()->name + ": output 1");
      return true;
    })
    .set_compute_cpu(PolyvalBackwardCpu)
    .set_compute_gpu(WEFT_GPU(cuda::BackwardPolyvalGpu));

}  // namespace
}  // namespace weft
