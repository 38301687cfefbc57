// Embedding (MXNet 1.x) and _backward_Embedding. Shape inference fills the
// weight as (input_dim, output_dim) from the parameters. Indices are clipped
// to [0, input_dim). Kernels: core/op/random/dropout_embedding_cpu.cc.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/index/embedding_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/index/embedding_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

void AddEmbeddingParams(OpDef& op) {
  op.add_required_param("input_dim", ParamType::kInt,
                        "Vocabulary size of the input indices.")
      .add_required_param("output_dim", ParamType::kInt, "Dimension of the embedding vectors.")
      .add_param("dtype", ParamType::kDType, "float32", "Data type of weight.")
      .add_param("sparse_grad", ParamType::kBool, "False",
                 "Compute row sparse gradient in the backward calculation (accepted; the gradient is dense).");
}

Shape WeightShape(const Params& p) {
  const std::string& op = p.op()->name;
  const int64_t in = p.GetInt("input_dim"), outd = p.GetInt("output_dim");
  WEFT_CHECK(in >= 1, kInvalidArgument) << op << ": parameter 'input_dim' must be >= 1, got " << in;
  WEFT_CHECK(outd >= 1, kInvalidArgument) << op << ": parameter 'output_dim' must be >= 1, got " << outd;
  return Shape{in, outd};
}

DType WeightType(const Params& p) {
  DType t = p.GetDType("dtype");
  nnx::CheckFloating(t, p.op()->name, "parameter 'dtype'");
  return t;
}

[[maybe_unused]] const bool kEmbeddingRegistered = [] {
  WEFT_REGISTER_OP(fwd, "Embedding").set_compute_gpu(WEFT_GPU(cuda::EmbeddingGpu));
  fwd.describe("Maps integer indices to vector representations (embeddings).\n\n"
               "This operator maps words to real-valued vectors in a high-dimensional space, called word "
               "embeddings. These embeddings can capture semantic and syntactic properties of the words.\n\n"
               "For an input array of shape (d1, ..., dK), the shape of an output array is "
               "(d1, ..., dK, output_dim). All the input values should be integers in the range "
               "[0, input_dim); others are clipped to it.\n\n"
               "The weight has shape (input_dim, output_dim).")
      .add_input("data")
      .add_input("weight");
  AddEmbeddingParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape w = WeightShape(p);
        AssignShape(in, 1, w, "Embedding: input 'weight'");
        if (!(*in)[0].known()) return false;
        Shape o = (*in)[0];
        o.push_back(w[1]);
        AssignShape(out, 0, o, "Embedding: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const DType t = WeightType(p);
        AssignType(in, 1, t, "Embedding: input 'weight' (dtype)");
        if ((*in)[0] == DType::kUnknown) (*in)[0] = t;
        AssignType(out, 0, t, "Embedding: output");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::EmbeddingForward(in[0], in[1], req[0], out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_Embedding", {og[0], n->inputs[0]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_Embedding").set_compute_gpu(WEFT_GPU(cuda::BackwardEmbeddingGpu));
  bwd.describe("Gradient of Embedding from (out_grad, data): data gets zeros, weight gets the scatter-add of "
               "out_grad's rows at the (clipped) indices.")
      .add_input("out_grad")
      .add_input("data");
  AddEmbeddingParams(bwd);
  bwd.set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape w = WeightShape(p);
        if (!(*in)[1].known()) return false;
        Shape o = (*in)[1];
        o.push_back(w[1]);
        AssignShape(in, 0, o, "_backward_Embedding: input 'out_grad'");
        AssignShape(out, 0, (*in)[1], "_backward_Embedding: output 0");
        AssignShape(out, 1, w, "_backward_Embedding: output 1");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const DType t = WeightType(p);
        AssignType(in, 0, t, "_backward_Embedding: input 'out_grad'");
        if ((*in)[1] == DType::kUnknown) return false;
        AssignType(out, 0, (*in)[1], "_backward_Embedding: output 0");
        AssignType(out, 1, t, "_backward_Embedding: output 1");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        if (req[0] != OpReq::kAddTo && req[0] != OpReq::kNull)
          out[0].ZeroFill();
        nnx_cpu::EmbeddingBackward(in[0], in[1], req[1], out[1]);
      });
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "weight_grad"}; };
  return true;
}();

}  // namespace
}  // namespace weft
