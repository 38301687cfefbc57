// _contrib_SparseEmbedding (MXNet 1.x): Embedding with a row_sparse weight
// gradient in MXNet. Weft has no sparse storage, so this op behaves exactly as
// Embedding with dense arrays -- same parameters (input_dim, output_dim, dtype,
// sparse_grad), same inference, the same CPU and GPU kernels (Embedding's,
// core/op/index/embedding.cc and embedding.cu) and the same gradient rule (a
// dense weight gradient from _backward_Embedding). Errors from Embedding's
// inference are re-raised naming this op.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/graph.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

const OpDef& Embedding() { return OpRegistry::Get()->FindOrThrow("Embedding"); }

// Runs f, prefixing any error's message with this op's name.
template <typename F>
auto Named(F f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    throw Error(e.status(), std::string("_contrib_SparseEmbedding: ") + e.what());
  }
}

#if !defined(WEFT_PORTABLE)
void SparseEmbeddingGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Embedding().compute_gpu(ctx, p, in, req, out);
}
#endif

[[maybe_unused]] const bool kSparseEmbeddingRegistered = [] {
  WEFT_REGISTER_OP(op, "_contrib_SparseEmbedding").set_compute_gpu(WEFT_GPU(SparseEmbeddingGpu));
  op.describe("Maps integer indices to vector representations (embeddings).\n\n"
              "In MXNet this operator computes a row_sparse gradient of the weight; weft has no sparse storage, "
              "so it is Embedding with dense arrays (same parameters, outputs and a dense gradient).\n\n"
              "For an input array of shape (d1, ..., dK), the shape of an output array is (d1, ..., dK, "
              "output_dim). The weight has shape (input_dim, output_dim).")
      .add_input("data")
      .add_input("weight")
      .add_required_param("input_dim", ParamType::kInt, "Vocabulary size of the input indices.")
      .add_required_param("output_dim", ParamType::kInt, "Dimension of the embedding vectors.")
      .add_param("dtype", ParamType::kDType, "float32", "Data type of weight.")
      .add_param("sparse_grad", ParamType::kBool, "False",
                 "Compute row sparse gradient in the backward calculation (accepted; the gradient is dense).")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return Named([&] { return Embedding().infer_shape(p, in, out); });
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return Named([&] { return Embedding().infer_type(p, in, out); });
      })
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        Embedding().compute_cpu(ctx, p, in, req, out);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) { return Embedding().gradient(n, og); });
  return true;
}();

}  // namespace
}  // namespace weft
