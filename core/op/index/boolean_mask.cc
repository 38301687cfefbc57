// _contrib_boolean_mask (contrib.boolean_mask, MXNet 1.9.1; alias
// _npi_boolean_mask): the slices of `data` along `axis` whose entry in the 1-D
// `index` is nonzero, in order. Its output shape depends on index's values:
// Note [Data-dependent output shapes] (core/opdef/dynamic_shape.h) -- imperative
// and hybridized calls size it after the index is ready; bind refuses it, as
// MXNet does. MXNet accepts only axis=0; weft takes any axis (negative counts
// from the end). The gradient scatters the output gradient back to the kept
// slices (zeros elsewhere): _backward_contrib_boolean_mask(out_grad, data,
// index); index gets zeros. GPU kernels: boolean_mask.cu.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/index/boolean_mask_rules.h"
#include "core/op/index/boolean_mask_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

constexpr const char* kOp = "_contrib_boolean_mask";

int MaskAxis(const Params& p, const Shape& data) {
  WEFT_CHECK(data.ndim() >= 1, kShape) << kOp << ": input 'data' must have at least 1 dimension, got shape "
                                       << data.ToString();
  return tensor::NormalizeAxis(p.GetInt("axis"), data.ndim(), kOp, "data");
}

void CheckIndex(const Params& p, const Shape& data, const Shape& index) {
  const int axis = MaskAxis(p, data);
  WEFT_CHECK(index.ndim() == 1, kShape) << kOp << ": input 'index' must be 1-D, got shape " << index.ToString();
  WEFT_CHECK(index[0] == data[axis], kShape)
      << kOp << ": input 'index' has " << index[0] << " entries but 'data' has " << data[axis]
      << " along axis " << axis << " (shape " << data.ToString() << "); they must be equal";
}

// keep[i] = index[i] != 0.
std::vector<char> Kept(const TensorView& index) {
  std::vector<char> keep(static_cast<size_t>(index.Size()));
  WEFT_DTYPE_SWITCH(index.dtype, T, {
    const T* v = index.ptr<T>();
    for (size_t i = 0; i < keep.size(); ++i) keep[i] = static_cast<float>(v[i]) != 0.0f;
  });
  return keep;
}

// Copies slice i of src's axis to slice j of dst's (rows of g.inner elements).
void CopySlices(const TensorView& src, int64_t src_n, const TensorView& dst, int64_t dst_n, const MaskGeom& g,
                const std::vector<char>& keep, bool gather) {
  const size_t row = static_cast<size_t>(g.inner) * DTypeSize(src.dtype);
  const char* s = static_cast<const char*>(src.data);
  char* d = static_cast<char*>(dst.data);
  for (int64_t o = 0; o < g.outer; ++o) {
    int64_t j = 0;
    for (int64_t i = 0; i < g.n; ++i) {
      if (!keep[static_cast<size_t>(i)]) continue;
      const int64_t from = gather ? i : j, to = gather ? j : i;
      std::memcpy(d + static_cast<size_t>(o * dst_n + to) * row, s + static_cast<size_t>(o * src_n + from) * row, row);
      ++j;
    }
  }
}

[[maybe_unused]] const bool kRegistered = [] {
  WEFT_REGISTER_OP(fwd, kOp);
  fwd.add_alias("_npi_boolean_mask")
      .describe("Given an n-d NDArray data and a 1-d NDArray index, return the slices of data along axis where "
                "index is nonzero (the output's size along axis is the number of nonzero entries).")
      .add_input("data")
      .add_input("index")
      .add_param("axis", ParamType::kInt, "0", "An integer that represents the axis in NDArray to mask from.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>*) {
        if ((*in)[0].known() && (*in)[1].known()) CheckIndex(p, (*in)[0], (*in)[1]);
        return false;  // the output's length along axis is known only from index's values
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 0) && (*in)[1] != DType::kUnknown;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const MaskGeom g = MaskGeomOf(in[0].shape, MaskAxis(p, in[0].shape));
        const std::vector<char> keep = Kept(in[1]);
        const int64_t kept = out[0].shape[MaskAxis(p, in[0].shape)];
        tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
          CopySlices(in[0], g.n, o, kept, g, keep, /*gather=*/true);
        });
      })
      .set_compute_gpu(WEFT_GPU(cuda::BooleanMaskGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        NodePtr bw = b.NodeWithAttrs("_backward_contrib_boolean_mask", {og[0], b.in(0), b.in(1)});
        return {OutputOf(bw, 0), b.Zeros(b.in(1))};
      });
  fwd.set_dynamic_shape(DynamicShapeRule{
      {1}, [](const Params& p, const std::vector<Shape>& in, const std::vector<TensorView>& v) {
        CheckIndex(p, in[0], in[1]);
        int64_t kept = 0;
        for (char k : Kept(v[1])) kept += k;
        Shape s = in[0];
        s[MaskAxis(p, in[0])] = kept;
        return std::vector<Shape>{s};
      }});

  WEFT_REGISTER_OP(bwd, "_backward_contrib_boolean_mask");
  bwd.describe("Gradient of contrib.boolean_mask: out_grad's slices written back to the kept slices of data's "
               "shape, zeros elsewhere.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("index")
      .add_param("axis", ParamType::kInt, "0", "The axis masked in the forward call.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known() || !(*in)[2].known()) return false;
        CheckIndex(p, (*in)[1], (*in)[2]);
        AssignShape(out, 0, (*in)[1], "_backward_contrib_boolean_mask: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 1);
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const int axis = MaskAxis(p, in[1].shape);
        const MaskGeom g = MaskGeomOf(in[1].shape, axis);
        const std::vector<char> keep = Kept(in[2]);
        int64_t kept = 0;
        for (char k : keep) kept += k;
        WEFT_CHECK(in[0].ndim() == in[1].ndim() && in[0].shape[axis] == kept && in[0].Size() == g.outer * kept * g.inner,
                   kShape)
            << "_backward_contrib_boolean_mask: input 'out_grad' has shape " << in[0].shape.ToString() << "; the mask "
            << "keeps " << kept << " of " << g.n << " slices of 'data' " << in[1].shape.ToString();
        tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
          o.ZeroFill();
          CopySlices(in[0], kept, o, g.n, g, keep, /*gather=*/false);
        });
      })
      .set_compute_gpu(WEFT_GPU(cuda::BackwardBooleanMaskGpu));
  return true;
}();

}  // namespace
}  // namespace weft
