// _np_dot, _npi_matmul, _npi_tensordot and _npi_tensordot_int_axes: MXNet
// 1.9.1's NumPy-mode dot, matmul and tensordot (np.dot, np.matmul, `@` and
// np.tensordot in NumPy mode write them), NumPy's shape rules, and their
// backward ops. Each is a list of GEMMs over blocks of its operands (Note
// [NumPy products as GEMM lists], np_products_rules.cc); the legacy dot
// contracts b's first axis and batch_dot neither broadcasts nor takes 1-D
// operands, so neither computes them.
//
// Float dtypes only, as MXNet's (MSHADOW_REAL_TYPE_SWITCH); the CPU kernels
// are float32/float64 (OpenBLAS, nn_cpu::Gemm) and refuse 16-bit data when
// run, the GPU kernels (np_products.cu) take float16/bfloat16 too, as the
// dense layers do.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/dense/np_products_rules.h"
#include "core/op/dense/np_products_gpu.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

using tensor::NpGemmList;
using Planner = tensor::NpProductPlanner;

template <typename T>
void RunList(const NpGemmList& g, const std::vector<TensorView>& in, OpReq req, const TensorView& c) {
  T* cp = c.ptr<T>();
  if (g.off_c.empty()) {
    if (req != OpReq::kAddTo && c.Size() > 0) std::memset(cp, 0, static_cast<size_t>(c.Size()) * sizeof(T));
    return;
  }
  const T* ap = in[static_cast<size_t>(g.input_a)].ptr<T>();
  const T* bp = in[static_cast<size_t>(g.input_b)].ptr<T>();
  for (size_t i = 0; i < g.off_c.size(); ++i) {
    const T beta = req == OpReq::kAddTo || g.accumulate[i] ? T(1) : T(0);
    nn_cpu::Gemm(g.trans_a, g.trans_b, g.m, g.n, g.k, ap + g.off_a[i], g.lda, bp + g.off_b[i], g.ldb, beta,
                 cp + g.off_c[i], g.ldc);
  }
}

void RunListCPU(const char* op, const NpGemmList& g, const std::vector<TensorView>& in, OpReq req,
                const TensorView& c) {
  if (req == OpReq::kNull) return;
  switch (c.dtype) {
    case DType::kFloat32: return RunList<float>(g, in, req, c);
    case DType::kFloat64: return RunList<double>(g, in, req, c);
    default:
      WEFT_THROW(kDType) << op << ": the CPU kernel takes float32 and float64 (got " << DTypeName(c.dtype)
                         << "; float16 and bfloat16 run on GPU)";
  }
}

bool InferFloatType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const bool done = SameTypeInfer(*p.op(), p, in, out);
  const DType t = (*out)[0];
  WEFT_CHECK(t == DType::kUnknown || t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kFloat16 ||
                 t == DType::kBFloat16,
             kDType)
      << p.op()->name << ": inputs of dtype " << DTypeName(t) << " are not supported (floating-point only, as MXNet)";
  return done;
}

// The parameters of _npi_tensordot / _npi_tensordot_int_axes (none for dot and matmul), on the
// forward and on its backward op (which plans the same products).
void AddParams(OpDef& op, int kind) {
  if (kind == 1) {
    op.add_required_param("a_axes_summed", ParamType::kShape, "a's axes summed, paired with b_axes_summed.")
        .add_required_param("b_axes_summed", ParamType::kShape, "b's axes summed, paired with a_axes_summed.");
  } else if (kind == 2) {
    op.add_required_param("axes", ParamType::kInt, "The number of a's last axes summed with b's first axes.");
  }
}

void DeclareProduct(const char* name, const char* backward, Planner plan, FCompute gpu, const std::string& doc,
                    int params = 0) {
  WEFT_REGISTER_OP(op, name).set_compute_gpu(std::move(gpu));
  AddParams(op, params);
  op.describe(doc)
      .add_input("a")
      .add_input("b")
      .set_infer_shape([plan](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known() || !(*in)[1].known()) return false;
        Shape shape;
        plan(p, (*in)[0], (*in)[1], &shape);
        AssignShape(out, 0, shape, p.op()->name + ": output");
        return true;
      })
      .set_infer_type(InferFloatType)
      .set_compute_cpu([plan](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        Shape shape;
        const NpGemmList g = plan(p, in[0].shape, in[1].shape, &shape);
        if (g.as_einsum) return tensor::RunTensordotAsEinsum(g, false, false, ctx, in, req, out);
        RunListCPU(p.op()->name.c_str(), g, in, req[0], out[0]);
      })
      .set_gradient([backward](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        const NodePtr g = b.NodeWithAttrs(backward, {og[0], b.in(0), b.in(1)});
        return {OutputOf(g, 0), OutputOf(g, 1)};
      });
}

void DeclareBackward(const char* name, const char* forward, Planner plan, FCompute gpu, int params = 0) {
  WEFT_REGISTER_OP(op, name).set_compute_gpu(std::move(gpu));
  AddParams(op, params);
  op.describe(std::string("Gradients of ") + forward + ": inputs (out_grad, a, b), outputs (a_grad, b_grad) of a's "
              "and b's shapes: a_grad = out_grad b^T and b_grad = a^T out_grad over the forward's blocks, summed "
              "where a block was broadcast (Note [NumPy products as GEMM lists]).")
      .add_input("out_grad")
      .add_input("a")
      .add_input("b")
      .set_num_outputs(2)
      .set_infer_shape([plan](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known() || !(*in)[2].known()) return false;
        AssignShape(out, 0, (*in)[1], p.op()->name + ": output 'a_grad'");
        AssignShape(out, 1, (*in)[2], p.op()->name + ": output 'b_grad'");
        if (!(*in)[0].known()) return false;
        Shape want;
        plan(p, (*in)[1], (*in)[2], &want);
        WEFT_CHECK((*in)[0] == want, kShape) << p.op()->name << ": out_grad has shape " << (*in)[0].ToString()
                                             << ", the forward's output of a " << (*in)[1].ToString() << " and b "
                                             << (*in)[2].ToString() << " has " << want.ToString();
        return true;
      })
      .set_infer_type(InferFloatType)
      .set_compute_cpu([plan](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        Shape shape;
        NpGemmList grads[2];
        tensor::NpProductBackward(plan(p, in[1].shape, in[2].shape, &shape), grads);
        if (grads[0].as_einsum) return tensor::RunTensordotAsEinsum(grads[0], true, false, ctx, in, req, out);
        for (size_t i = 0; i < 2; ++i) RunListCPU(p.op()->name.c_str(), grads[i], in, req[i], out[i]);
      });
  op.list_output_names = [](const Params&) { return std::vector<std::string>{"a_grad", "b_grad"}; };
}

[[maybe_unused]] const bool kNpProductsRegistered = [] {
  DeclareProduct("_np_dot", "_backward_np_dot", tensor::NpDotPlan, WEFT_GPU(cuda::NpDotGpu),
                 "NumPy's dot (MXNet's `_np_dot`).\n\n"
                 "A 0-d operand multiplies elementwise; 1-D x 1-D is the inner product (a 0-d array); otherwise "
                 "a's last axis is summed with b's second-to-last (its only axis when 1-D): a (I..., k) and b "
                 "(J..., k, n) give (I..., J..., n).");
  DeclareBackward("_backward_np_dot", "_np_dot", tensor::NpDotPlan, WEFT_GPU(cuda::BackwardNpDotGpu));
  DeclareProduct("_npi_matmul", "_backward_npi_matmul", tensor::NpMatmulPlan, WEFT_GPU(cuda::NpMatmulGpu),
                 "NumPy's matmul (MXNet's `_npi_matmul`, the `@` operator in NumPy mode).\n\n"
                 "Matrix products over the last two axes, the other (batch) axes broadcast; a 1-D a is read as "
                 "(1, k) and a 1-D b as (k, 1), those axes left out of the result. 0-d operands are refused.");
  DeclareBackward("_backward_npi_matmul", "_npi_matmul", tensor::NpMatmulPlan,
                  WEFT_GPU(cuda::BackwardNpMatmulGpu));
  DeclareProduct("_npi_tensordot", "_backward_npi_tensordot", tensor::NpTensordotPlan, WEFT_GPU(cuda::NpTensordotGpu),
                 "NumPy's tensordot with axis pairs (MXNet's `_npi_tensordot`).\n\n"
                 "Sums a's axes a_axes_summed with b's b_axes_summed, pair by pair; the result has a's other axes, "
                 "then b's. Pairs forming one run of consecutive axes at the start or end of each operand, in the "
                 "same order, are one matrix product (transposed as needed); other pairings run as an einsum "
                 "(Note [Tensordot pairings as einsum]).",
                 1);
  DeclareBackward("_backward_npi_tensordot", "_npi_tensordot", tensor::NpTensordotPlan,
                  WEFT_GPU(cuda::BackwardNpTensordotGpu), 1);
  DeclareProduct("_npi_tensordot_int_axes", "_backward_npi_tensordot_int_axes", tensor::NpTensordotIntPlan,
                 WEFT_GPU(cuda::NpTensordotIntAxesGpu),
                 "NumPy's tensordot with an integer `axes` (MXNet's `_npi_tensordot_int_axes`).\n\n"
                 "Sums a's last `axes` axes with b's first `axes` axes: a (I..., K...) and b (K..., J...) give "
                 "(I..., J...); axes=0 is the outer product.",
                 2);
  DeclareBackward("_backward_npi_tensordot_int_axes", "_npi_tensordot_int_axes", tensor::NpTensordotIntPlan,
                  WEFT_GPU(cuda::BackwardNpTensordotIntAxesGpu), 2);
  return true;
}();

}  // namespace
}  // namespace weft
