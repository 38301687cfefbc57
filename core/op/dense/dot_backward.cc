// _backward_dot and _backward_batch_dot: the two GEMMs of Note [Dot backward].
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/dense/dot_cpu.h"

#include "core/op/dense/dot_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/dense/dot_gpu.h"

#include "core/op/op_util.h"

namespace weft {

// ---- _backward_dot / _backward_batch_dot ----

namespace tensor {
namespace {

// Note [Dot backward]
// dot sees lhs as a matrix A2 = (prod(L[:-1]), L[-1]), or (L[0], prod(L[1:]))
// with transpose_a, and rhs as B2 = (R[0], prod(R[1:])), or (prod(R[:-1]),
// R[-1]) with transpose_b (1-D inputs fit the same formulas), and computes
// C = op(A2) op(B2), shape (M, N). With G = dC:
//   dA2 = G op(B2)^T          (A2 = op(A2))     dB2 = op(A2)^T G        (B2 = op(B2))
//   dA2 = op(B2) G^T          (transpose_a)     dB2 = G^T op(A2)        (transpose_b)
// batch_dot does the same per batch on the last two axes.
struct Mat {
  int64_t rows, cols;
};

Mat AsMatrix(const Shape& s, bool leading_axis_alone, bool batched) {
  const int nd = s.ndim();
  if (batched) return Mat{s[nd - 2], s[nd - 1]};
  if (leading_axis_alone) return Mat{s[0], s.ProdRange(1, nd)};
  return Mat{s.ProdRange(0, nd - 1), s[nd - 1]};
}

}  // namespace

DotBackwardPlan DotBackwardGeometry(const Params& p, const Shape& lhs, const Shape& rhs, bool batched) {
  const bool ta = p.GetBool("transpose_a"), tb = p.GetBool("transpose_b");
  const Mat a = AsMatrix(lhs, ta, batched), b = AsMatrix(rhs, !tb, batched);
  const int64_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols, n = tb ? b.rows : b.cols;
  const int64_t batch = batched ? lhs.ProdRange(0, lhs.ndim() - 2) : 1;
  const int64_t size_a = a.rows * a.cols, size_b = b.rows * b.cols, size_g = m * n;
  // GEMM(trans_a, trans_b, m, n, k) of inputs (x, y), each product of the
  // batch sa / sb elements after the last.
  auto gemm = [&](bool trans_a, bool trans_b, int64_t gm, int64_t gn, int64_t gk, int64_t sa, int64_t sb, int x,
                  int y) {
    DotGradGemm g;
    g.desc.trans_a = trans_a;
    g.desc.trans_b = trans_b;
    g.desc.m = gm;
    g.desc.n = gn;
    g.desc.k = gk;
    g.desc.batch = batch;
    g.desc.stride_a = sa;
    g.desc.stride_b = sb;
    g.desc.stride_c = gm * gn;
    g.a = x;
    g.b = y;
    return g;
  };
  DotBackwardPlan plan;
  plan.grad[0] = !ta ? gemm(false, !tb, m, k, n, size_g, size_b, 0, 2) : gemm(tb, true, k, m, n, size_b, size_g, 2, 0);
  plan.grad[1] = !tb ? gemm(!ta, false, k, n, m, size_a, size_g, 1, 0) : gemm(true, ta, n, k, m, size_g, size_a, 0, 1);
  return plan;
}

}  // namespace tensor

namespace {

void DotBackward(const Params& p, bool batched, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  const tensor::DotBackwardPlan plan = tensor::DotBackwardGeometry(p, in[1].shape, in[2].shape, batched);
  for (size_t i = 0; i < 2; ++i) {
    const tensor::DotGradGemm& g = plan.grad[i];
    if (req[i] != OpReq::kNull) tensor_cpu::GemmCPU(g.desc, in[g.a], in[g.b], req[i], out[i]);
  }
}

void RegisterDotBackward(const char* name, bool batched, FCompute gpu) {
  WEFT_REGISTER_OP(op, name).set_compute_gpu(std::move(gpu));
  op.describe(std::string("Gradients of ") + (batched ? "batch_dot" : "dot") +
              ": inputs (out_grad, lhs, rhs), outputs (lhs_grad, rhs_grad) of lhs's and rhs's shapes. Takes "
              "the forward's transpose_a and transpose_b. See Note [Dot backward] in core/op/dense/dot_backward.cc.")
      .add_input("out_grad")
      .add_input("lhs")
      .add_input("rhs")
      .add_param("transpose_a", ParamType::kBool, "False", "If True, the forward used the transpose of lhs.")
      .add_param("transpose_b", ParamType::kBool, "False", "If True, the forward used the transpose of rhs.")
      .set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known() || !(*in)[2].known()) return false;
        AssignShape(out, 0, (*in)[1], p.op()->name + ": output 'lhs_grad'");
        AssignShape(out, 1, (*in)[2], p.op()->name + ": output 'rhs_grad'");
        if (!(*in)[0].known()) return false;
        // The GEMMs read out_grad as the forward's output: it must have exactly that shape.
        tensor_cpu::GemmDesc d;
        const bool batched = p.op()->name == "_backward_batch_dot";
        const Shape want = batched ? tensor::BatchDotGeometry(p, (*in)[1], (*in)[2], &d)
                                   : tensor::DotGeometry(p, (*in)[1], (*in)[2], &d);
        WEFT_CHECK((*in)[0] == want, kShape) << p.op()->name << ": out_grad has shape " << (*in)[0].ToString()
                                             << ", the forward's output of lhs " << (*in)[1].ToString()
                                             << " and rhs " << (*in)[2].ToString() << " has " << want.ToString();
        return true;
      })
      .set_compute_cpu([batched](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        DotBackward(p, batched, in, req, out);
      });
  op.list_output_names = [](const Params&) { return std::vector<std::string>{"lhs_grad", "rhs_grad"}; };
}

[[maybe_unused]] const bool kDotBackwardRegistered = [] {
  RegisterDotBackward("_backward_dot", false, WEFT_GPU(cuda::BackwardDotGpu));
  RegisterDotBackward("_backward_batch_dot", true, WEFT_GPU(cuda::BackwardBatchDotGpu));
  return true;
}();

}  // namespace

}  // namespace weft
