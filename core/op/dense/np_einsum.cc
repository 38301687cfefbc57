// _npi_einsum: MXNet 1.9.1's NumPy-mode einsum (np.einsum writes it in a
// graph), and its backward op. Each output element -- and, for the backward,
// each element of each operand's gradient -- is one gather over the labels it
// does not fix (Note [Einsum as one gather per output element],
// np_einsum_rules.h), the same body on CPU and GPU (np_einsum.cu).
//
// As MXNet's (checked with MXNet 1.9.1): every operand has one dtype, which
// the output takes (integers and bool included; bool sums are ORs); a label of
// length 1 broadcasts against a longer one, `...` too; the output of
// 'i,i' is 0-d; `optimize` (MXNet's contraction-order switch) does not change
// the values and is accepted as 0 or 1.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/dense/np_einsum_plan.h"
#include "core/op/dense/np_einsum_gpu.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
// A named namespace: the unity build compiles this folder's files as one
// translation unit, where other files' file-local helpers may share these names.
namespace np_einsum_op {
namespace {

using tensor::EinsumGather;

std::vector<Shape> ShapesOf(const std::vector<TensorView>& v, size_t from) {
  std::vector<Shape> r;
  for (size_t i = from; i < v.size(); ++i) r.push_back(v[i].shape);
  return r;
}

tensor::EinsumSpec SpecOf(const Params& p, const std::vector<Shape>& ins) {
  const int64_t optimize = p.GetInt("optimize");
  WEFT_CHECK(optimize == 0 || optimize == 1, kInvalidArgument)
      << p.op()->name << ": parameter 'optimize' must be 0 or 1, got " << optimize;
  return tensor::ParseEinsum(p.op()->name, p.GetString("subscripts"), ins);
}

template <typename T>
void GatherCPU(const EinsumGather& g, const std::vector<const TensorView*>& ins, OpReq req, const TensorView& out) {
  using Acc = AccT<T>;
  tensor::EinsumInputs<T> in;
  for (int k = 0; k < g.nin; ++k) in.p[k] = ins[static_cast<size_t>(k)]->ptr<T>();
  T* o = out.ptr<T>();
  int64_t per = g.nin;
  for (int s = 0; s < g.nsum; ++s) per = g.sum_len[s] > 0 && per < (int64_t(1) << 40) ? per * g.sum_len[s] : per;
  ParallelFor(out.Size(), per, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const Acc v = tensor::EinsumGatherAt<T>(g, in, i);
      o[i] = req == OpReq::kAddTo ? static_cast<T>(static_cast<Acc>(static_cast<Acc>(o[i]) + v)) : static_cast<T>(v);
    }
  });
}

void RunGatherCPU(const char* op, const EinsumGather& g, const std::vector<const TensorView*>& ins, OpReq req,
                  const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  WEFT_DTYPE_SWITCH(out.dtype, T, GatherCPU<T>(g, ins, req, out);)
  (void)op;
}

void EinsumCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  const std::vector<Shape> shapes = ShapesOf(in, 0);
  const EinsumGather g = tensor::EinsumForwardGather(SpecOf(p, shapes), shapes);
  std::vector<const TensorView*> ins;
  for (const TensorView& t : in) ins.push_back(&t);
  RunGatherCPU(p.op()->name.c_str(), g, ins, req[0], out[0]);
}

void EinsumBackwardCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const std::vector<Shape> shapes = ShapesOf(in, 1);
  const tensor::EinsumSpec spec = SpecOf(p, shapes);
  for (size_t i = 0; i < out.size(); ++i) {
    std::vector<const TensorView*> ins = {&in[0]};
    for (size_t j = 0; j < shapes.size(); ++j)
      if (j != i) ins.push_back(&in[j + 1]);
    RunGatherCPU(p.op()->name.c_str(), tensor::EinsumGradGather(spec, shapes, i), ins, req[i], out[i]);
  }
}

OpDef& EinsumParams(OpDef& op, const char* num_args_doc) {
  return op.set_variadic("num_args")
      .add_required_param("num_args", ParamType::kInt, num_args_doc)
      .add_param("subscripts", ParamType::kString, "",
                 "NumPy's einsum subscripts: comma-separated letter terms, one per operand, at most one '...' "
                 "each, optionally '->' and the output's letters.")
      .add_param("optimize", ParamType::kInt, "0",
                 "MXNet's contraction-order switch (0 or 1); the values do not depend on it.");
}

[[maybe_unused]] const bool kNpEinsumRegistered = [] {
  WEFT_REGISTER_OP(op, "_npi_einsum");
  EinsumParams(op, "The number of operands.")
      .describe("NumPy's einsum (MXNet's `_npi_einsum`): the Einstein summation of the operands over "
                "`subscripts`.\n\n"
                "'ij,jk->ik' is a matrix product, 'ii->i' a diagonal, 'ij->' a sum, 'i,j->ij' an outer product; "
                "without '->' the output holds the '...' dimensions and then the letters used once, in character "
                "order. Labels of length 1 broadcast. All operands have one dtype, which the output takes.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        AssignShape(out, 0, SpecOf(p, *in).out, "_npi_einsum: output");
        return true;
      })
      .set_compute_cpu(EinsumCPU)
      .set_compute_gpu(WEFT_GPU(cuda::NpEinsumGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        std::vector<NodeEntry> in = {og[0]};
        in.insert(in.end(), n->inputs.begin(), n->inputs.end());
        const NodePtr g = b.NodeWithAttrs("_backward_npi_einsum", in);
        std::vector<NodeEntry> r;
        for (uint32_t i = 0; i < n->inputs.size(); ++i) r.push_back(OutputOf(g, i));
        return r;
      });

  WEFT_REGISTER_OP(bop, "_backward_npi_einsum");
  EinsumParams(bop, "The number of the forward's operands.")
      .describe("Gradients of _npi_einsum: inputs (out_grad, arg0, ..., arg{num_args-1}), output i the gradient "
                "of operand i (out_grad times the other operands, summed over the labels operand i does not "
                "hold; 0 off a repeated label's diagonal).")
      .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_args")); })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!ShapesOfArgs(p, in, out)) return false;
        const std::vector<Shape> args(in->begin() + 1, in->end());
        const Shape want = SpecOf(p, args).out;
        WEFT_CHECK((*in)[0] == want, kShape) << "_backward_npi_einsum: out_grad has shape " << (*in)[0].ToString()
                                             << ", the forward's output has " << want.ToString();
        return true;
      })
      .set_compute_cpu(EinsumBackwardCPU)
      .set_compute_gpu(WEFT_GPU(cuda::BackwardNpEinsumGpu));
  bop.list_input_names = GradAndArgs;
  bop.list_output_names = ArgGrads;
  return true;
}();

}  // namespace
}  // namespace np_einsum_op
}  // namespace weft
