// cast_storage: weft's arrays are dense, so only stype='default' is a storage
// type to cast to (a copy); the sparse ones (row_sparse, csr) are refused with
// a message saying so. The gradient passes through.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/graph.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/shape/reshape_transpose_gpu.h"

namespace weft {
namespace {

void CheckDense(const Params& p) {
  const std::string& s = p.GetString("stype");
  WEFT_CHECK(s == "default", kInvalidArgument)
      << "cast_storage: stype '" << s << "' is a sparse storage type, which weft does not support (its arrays "
      << "are dense: only stype='default' is accepted)";
}

[[maybe_unused]] const bool kCastStorageRegistered = [] {
  WEFT_REGISTER_OP(op, "cast_storage").set_compute_gpu(WEFT_GPU(cuda::ReshapeGpu));
  op.describe("Casts an array to a storage type. Weft's arrays are dense: stype='default' copies the input; "
              "'row_sparse' and 'csr' are refused (sparse storage is not supported).")
    .add_input("data")
      .add_enum_param("stype", {"default", "row_sparse", "csr"}, "", "The storage type to cast to.");
  op.params.back().required = true;
  op.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      CheckDense(p);
      if (!(*in)[0].known()) AssignShape(in, 0, (*out)[0], "cast_storage: input 'data'");
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, (*in)[0], "cast_storage: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
    })
    .add_inplace(0, 0)
    .set_gradient([](const NodePtr&, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      return {og[0]};
    });
  return true;
}();

}  // namespace
}  // namespace weft
