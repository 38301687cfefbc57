// _np_reshape: MXNet 1.9.1's NumPy-mode reshape (np.reshape, `newshape` with
// NumPy's meaning). Unlike the legacy Reshape it gives 0-d arrays (newshape
// ()) and zero-size axes (a 0 is a size, not "copy this axis"); -1 is
// inferred once.
//
// Note [0-d results in a traced graph]
//  The legacy reductions give shape (1,) for a full reduction (axis=None),
//  where MXNet's NumPy mode (_np_sum, _npi_mean, ...) gives a 0-d array. Weft
//  reduces with the legacy operators in a graph, so weft.sym.np follows a full
//  reduction with _np_reshape(newshape=()): the graph's result is 0-d as in
//  MXNet, and the node is one MXNet 1.9.1 registers, so an export loads there
//  (its reduction of (1,) or () reshaped to () gives () either way). The op
//  is a real operator, so a graph MXNet writes with _np_reshape loads as it is
//  (with zero-size axes), no longer as a legacy Reshape.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// NumPy's reshape rule: every entry a size >= 0 or one -1, inferred from the
// input's size (a -1 among zero-size entries is ambiguous: refused as NumPy does).
Shape NumpyReshape(const std::vector<int64_t>& newshape, const Shape& in) {
  const std::string text = tensor::TupleString(newshape);
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < newshape.size(); ++i) {
    const int64_t d = newshape[i];
    if (d == -1) {
      WEFT_CHECK(infer < 0, kShape) << "_np_reshape: can only specify one unknown dimension (-1) in newshape "
                                    << text;
      infer = static_cast<int>(i);
      continue;
    }
    WEFT_CHECK(d >= 0, kShape) << "_np_reshape: invalid entry " << d << " in newshape " << text
                               << " (sizes are >= 0, or -1 once)";
    WEFT_CHECK(!__builtin_mul_overflow(known, d, &known), kShape)
        << "_np_reshape: newshape " << text << " is too large";
  }
  Shape out(newshape);
  const int64_t size = in.Size();
  if (infer >= 0) {
    WEFT_CHECK(known != 0 && size % known == 0, kShape)
        << "_np_reshape: cannot reshape array of shape " << in.ToString() << " into shape " << text;
    out[infer] = size / known;
  }
  WEFT_CHECK(out.Size() == size, kShape) << "_np_reshape: cannot reshape array of shape " << in.ToString()
                                         << " into shape " << text;
  return out;
}

void NpReshapeCopy(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
}

WEFT_REGISTER_OP("_np_reshape").set_compute_gpu(WEFT_GPU(cuda::CopyGpu("_np_reshape")))
    .describe("NumPy's reshape (MXNet's `_np_reshape`): the data in a new shape of the same size.\n\n"
              "`newshape` holds sizes (0 included: a zero-size axis) and at most one -1, inferred from the "
              "remaining size; () gives a 0-d array from an array of one element.")
    .add_input("a")
    .add_required_param("newshape", ParamType::kShape, "The new shape: sizes >= 0 and at most one -1.")
    .add_param("order", ParamType::kString, "C", "Only 'C' (row-major) is supported, as in MXNet.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const std::string& order = p.GetString("order");
      WEFT_CHECK(order == "C", kInvalidArgument)
          << "_np_reshape: parameter 'order' must be 'C' (the only order MXNet supports), got '" << order << "'";
      if (!(*in)[0].known()) return false;
      const std::vector<int64_t>& newshape = p.GetTuple("newshape");
      tensor::CheckNoNone(newshape, "_np_reshape", "newshape");
      AssignShape(out, 0, NumpyReshape(newshape, (*in)[0]), "_np_reshape: output");
      return true;
    })
    .set_compute_cpu(NpReshapeCopy)
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_backward_reshape", {og[0], b.in(0)})};
    });

}  // namespace
}  // namespace weft
