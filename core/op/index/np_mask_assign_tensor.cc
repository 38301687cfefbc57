// _npi_boolean_mask_assign_tensor (NumPy's `data[mask] = value` with an array
// value, MXNet 1.9.1's registered name, issue 37) and its value gradient
// _backward_npi_boolean_mask_assign_tensor.
//
// Note [Boolean-mask assignment of an array]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The mask (any dtype, true where nonzero) lies along data's dims
// [start_axis, start_axis + mask.ndim), which it must match; its n true
// positions select data[lead..., position, trail...], a selection of shape
// data[:start_axis] + (n,) + data[start_axis + mask.ndim:]. `value` broadcasts
// to that shape as in NumPy (right-aligned, 1s stretched) and is written there
// in data's dtype; the output is data's shape and dtype. MXNet 1.9.1 runs this
// op only in place (its kernel refuses a separate output) and insists on
// equal trailing dims; Weft writes any output and broadcasts as NumPy does, so
// every assignment MXNet accepts gives MXNet's result. Since n is known only
// from the mask's values, a value that does not broadcast to the selection is
// refused when the kernel runs. MXNet gives zero gradients; Weft gives the
// derivative, as for boolean_mask_assign_scalar (Note [NumPy where broadcasts
// three operands]): the output gradient at data's unselected elements, and for
// value the output gradient summed over the selection positions each value
// element was broadcast to. The kernels are host loops over the selection;
// the GPU kernels run them on host copies (np_mask_assign_tensor.cu).
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/index/np_mask_assign_tensor_cpu.h"
#include "core/op/index/np_mask_assign_tensor_gpu.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace index_np {
// Named, not anonymous: the unity build joins this file with the family's others.
namespace np_mask_assign {

struct Selection {
  int64_t lead = 1, mlen = 1, trail = 1;  // data as (lead, mlen, trail)
  std::vector<int64_t> shape;             // the selection's shape, n at position start_axis
  std::vector<int64_t> vstride;           // value's element stride per selection dim (0: broadcast)
  std::vector<int64_t> positions;         // the mask's true positions
};

// Checks what the shapes decide; `count` < 0 when the mask's values are not known yet.
Selection SelectionOf(const Params& p, const Shape& data, const Shape& mask, const Shape& value, int64_t count) {
  const std::string& op = p.op()->name;
  const int64_t s = p.GetInt("start_axis");
  WEFT_CHECK(s >= 0 && s + mask.ndim() <= data.ndim(), kShape) << op << ": attribute 'start_axis' = " << s
      << " does not place a mask of shape " << mask.ToString() << " inside data of shape " << data.ToString();
  const int sa = static_cast<int>(s);
  for (int i = 0; i < mask.ndim(); ++i)
    WEFT_CHECK(mask[i] == data[sa + i], kShape) << op << ": input 'mask' of shape " << mask.ToString()
        << " does not match data " << data.ToString() << " along dimension " << sa + i;
  Selection g;
  g.lead = data.ProdRange(0, sa);
  g.mlen = mask.Size();
  g.trail = data.ProdRange(sa + mask.ndim(), data.ndim());
  for (int i = 0; i < sa; ++i) g.shape.push_back(data[i]);
  g.shape.push_back(count);
  for (int i = sa + mask.ndim(); i < data.ndim(); ++i) g.shape.push_back(data[i]);
  const int nd = static_cast<int>(g.shape.size());
  WEFT_CHECK(value.ndim() <= nd, kShape) << op << ": input 'value' of shape " << value.ToString()
      << " has more dimensions than the selection (" << nd << ")";
  g.vstride.assign(static_cast<size_t>(nd), 0);
  int64_t stride = 1;
  for (int i = value.ndim() - 1, d = nd - 1; i >= 0; --i, --d) {
    const int64_t want = g.shape[static_cast<size_t>(d)];
    const bool known = !(d == sa && count < 0);
    WEFT_CHECK(value[i] == 1 || !known || value[i] == want, kShape) << op << ": input 'value' of shape "
        << value.ToString() << " cannot be broadcast to the selection of " << (count < 0 ? "?" : std::to_string(count))
        << " masked elements, shape " << (known && count >= 0 ? Shape(g.shape).ToString() : "(..., n, ...)");
    g.vstride[static_cast<size_t>(d)] = value[i] == 1 ? 0 : stride;
    stride *= value[i];
  }
  return g;
}

Selection SelectionWithMask(const Params& p, const TensorView& data, const TensorView& mask, const Shape& value) {
  std::vector<int64_t> pos;
  const std::vector<double> m = nnx_cpu::ToDoubles(mask);
  for (size_t i = 0; i < m.size(); ++i)
    if (m[i] != 0) pos.push_back(static_cast<int64_t>(i));
  Selection g = SelectionOf(p, data.shape, mask.shape, value, static_cast<int64_t>(pos.size()));
  g.positions = std::move(pos);
  return g;
}

// Calls fn(data element, value element) for every selected element.
template <typename Fn>
void ForEachSelected(const Selection& g, Fn fn) {
  const int64_t n = static_cast<int64_t>(g.positions.size());
  const int64_t total = g.lead * n * g.trail;
  for (int64_t e = 0; e < total; ++e) {
    int64_t rem = e, voff = 0;  // the selection index -> value element
    for (size_t d = g.shape.size(); d-- > 0;) {
      voff += (rem % g.shape[d]) * g.vstride[d];
      rem /= g.shape[d];
    }
    const int64_t t = e % g.trail, k = (e / g.trail) % n, l = e / (g.trail * n);
    fn((l * g.mlen + g.positions[static_cast<size_t>(k)]) * g.trail + t, voff);
  }
}

}  // namespace np_mask_assign

void MaskAssignTensorCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const np_mask_assign::Selection g = np_mask_assign::SelectionWithMask(p, in[0], in[1], in[2].shape);
  const DType dt = out[0].dtype;
  const size_t es = DTypeSize(dt);
  std::vector<uint64_t> vbuf((static_cast<size_t>(in[2].Size()) * es + 7) / 8 + 1);
  tensor_cpu::ConvertCopy(in[2], OpReq::kWriteTo, TensorView{vbuf.data(), dt, in[2].shape});
  const char* v = reinterpret_cast<const char*>(vbuf.data());
  tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& dst) {
    if (dst.data != in[0].data && dst.Size() > 0)
      std::memcpy(dst.data, in[0].data, static_cast<size_t>(dst.Size()) * es);
    char* y = static_cast<char*>(dst.data);
    np_mask_assign::ForEachSelected(g, [&](int64_t at, int64_t voff) {
      std::memcpy(y + static_cast<size_t>(at) * es, v + static_cast<size_t>(voff) * es, es);
    });
  });
}

void MaskAssignTensorValueGrad(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const np_mask_assign::Selection g = np_mask_assign::SelectionWithMask(p, in[0], in[1], in[2].shape);
  const std::vector<double> og = nnx_cpu::ToDoubles(in[0]);
  std::vector<double> gv(static_cast<size_t>(in[2].Size()), 0.0);
  np_mask_assign::ForEachSelected(g, [&](int64_t at, int64_t voff) {
    gv[static_cast<size_t>(voff)] += og[static_cast<size_t>(at)];
  });
  tensor_cpu::ConvertCopy(TensorView{gv.data(), DType::kFloat64, out[0].shape}, req[0], out[0]);
}

}  // namespace index_np

namespace np_mask_assign_op {

bool InferShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[0].known() || !(*in)[1].known() || !(*in)[2].known()) return false;
  index_np::np_mask_assign::SelectionOf(p, (*in)[0], (*in)[1], (*in)[2], -1);  // checks what shapes decide
  AssignShape(out, 0, p.op()->name == "_npi_boolean_mask_assign_tensor" ? (*in)[0] : (*in)[2],
              p.op()->name + ": output");
  return true;
}

[[maybe_unused]] const bool kMaskAssignTensorRegistered = [] {
  WEFT_REGISTER_OP(op, "_npi_boolean_mask_assign_tensor").set_compute_gpu(WEFT_GPU(cuda::NpMaskAssignTensorGpu));
  op.describe("NumPy's `data[mask] = value` with an array value (Note [Boolean-mask assignment of an array]): "
              "data with the elements the mask selects, from start_axis on, set to value broadcast to the "
              "selection, in data's dtype.")
      .add_input("data")
      .add_input("mask")
      .add_input("value")
      .add_required_param("start_axis", ParamType::kInt, "starting axis of boolean mask")
      .add_inplace(0, 0)
      .set_infer_shape(InferShape)
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        if ((*in)[0] == DType::kUnknown) return false;
        if ((*in)[2] == DType::kUnknown) (*in)[2] = (*in)[0];  // MXNet's rule: value in data's dtype
        AssignType(out, 0, (*in)[0], "_npi_boolean_mask_assign_tensor: output");
        return (*in)[1] != DType::kUnknown;
      })
      .set_compute_cpu(index_np::MaskAssignTensorCompute)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        GradBuilder b(n);
        const std::string start = n->attrs.count("start_axis") ? n->attrs.at("start_axis") : "0";
        return std::vector<NodeEntry>{
            b("_npi_boolean_mask_assign_scalar", {og[0], b.in(1)}, {{"value", "0"}, {"start_axis", start}}),
            b.Zeros(b.in(1)),
            b("_backward_npi_boolean_mask_assign_tensor", {og[0], b.in(1), b.in(2)}, {{"start_axis", start}})};
      });
  return true;
}();

[[maybe_unused]] const bool kMaskAssignTensorGradRegistered = [] {
  WEFT_REGISTER_OP(op, "_backward_npi_boolean_mask_assign_tensor")
      .set_compute_gpu(WEFT_GPU(cuda::NpMaskAssignTensorValueGradGpu));
  op.describe("The value gradient of _npi_boolean_mask_assign_tensor from (out_grad, mask, value): out_grad "
              "summed over the selection positions each value element was broadcast to, in value's shape.")
      .add_input("out_grad")
      .add_input("mask")
      .add_input("value")
      .add_required_param("start_axis", ParamType::kInt, "starting axis of boolean mask")
      .set_infer_shape(InferShape)
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        if ((*in)[2] == DType::kUnknown) return false;
        AssignType(out, 0, (*in)[2], "_backward_npi_boolean_mask_assign_tensor: output");
        return (*in)[0] != DType::kUnknown && (*in)[1] != DType::kUnknown;
      })
      .set_compute_cpu(index_np::MaskAssignTensorValueGrad);
  return true;
}();

}  // namespace np_mask_assign_op
}  // namespace weft
