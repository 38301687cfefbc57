// _contrib_index_copy (contrib.index_copy): old_tensor with the rows named by
// index_vector replaced by new_tensor's rows, and its backward op
// _contrib_backward_index_copy (inputs out_grad, old_tensor, index_vector,
// new_tensor; the gradients of the three inputs: out_grad with the replaced
// rows zeroed, zeros, out_grad's replaced rows). Indices are read as int64;
// one outside [0, rows) replaces nothing. Repeated indices: the last wins on
// the CPU; MXNet leaves the result undefined.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/index/index_copy_gpu.h"
#include "core/op/index/indexing_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

void CheckShapes(const char* op, const Shape& old, const Shape& idx, const Shape& nw) {
  WEFT_CHECK(old.ndim() >= 1, kShape) << op << ": input 'old_tensor' must have at least 1 dimension";
  WEFT_CHECK(idx.ndim() == 1, kShape) << op << ": input 'index_vector' must be 1-D, got shape " << idx.ToString();
  Shape want = old;
  want[0] = idx[0];
  WEFT_CHECK(nw == want, kShape) << op << ": input 'new_tensor' must have shape " << want.ToString()
                                 << " (one row of 'old_tensor' per index), got " << nw.ToString();
}

// map[r] = i when index[i] == r, else -1.
std::vector<int64_t> RowMap(const TensorView& index, int64_t n, std::vector<int64_t>* idx) {
  *idx = tensor_cpu::ReadIndices(index);
  std::vector<int64_t> map(static_cast<size_t>(n), -1);
  for (size_t i = 0; i < idx->size(); ++i)
    if ((*idx)[i] >= 0 && (*idx)[i] < n) map[static_cast<size_t>((*idx)[i])] = static_cast<int64_t>(i);
  return map;
}

void CopyRow(const TensorView& src, int64_t from, const TensorView& dst, int64_t to, int64_t rs) {
  const size_t b = static_cast<size_t>(rs) * DTypeSize(dst.dtype);
  std::memcpy(static_cast<char*>(dst.data) + static_cast<size_t>(to) * b,
              static_cast<const char*>(src.data) + static_cast<size_t>(from) * b, b);
}

WEFT_REGISTER_OP("_contrib_index_copy").set_compute_gpu(WEFT_GPU(cuda::IndexCopyGpu))
    .describe("Copies the rows of new_tensor into old_tensor at the rows index_vector names: out = old_tensor, "
              "out[index_vector[i]] = new_tensor[i].")
    .add_input("old_tensor")
    .add_input("index_vector")
    .add_input("new_tensor")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() && (*out)[0].known()) (*in)[0] = (*out)[0];
      if (!(*in)[0].known() || !(*in)[1].known()) return false;
      Shape want = (*in)[0];
      want[0] = (*in)[1].ndim() == 1 ? (*in)[1][0] : 0;
      if (!(*in)[2].known()) AssignShape(in, 2, want, "_contrib_index_copy: input 'new_tensor'");
      CheckShapes("_contrib_index_copy", (*in)[0], (*in)[1], (*in)[2]);
      AssignShape(out, 0, (*in)[0], "_contrib_index_copy: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      AssignType(in, 2, (*in)[0], "_contrib_index_copy: input 'new_tensor' (the dtype of 'old_tensor')");
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int64_t n = in[0].shape[0], rs = n > 0 ? in[0].Size() / n : 0;
      std::vector<int64_t> idx;
      const std::vector<int64_t> map = RowMap(in[1], n, &idx);
      tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
        for (int64_t r = 0; r < n; ++r) {
          const int64_t i = map[static_cast<size_t>(r)];
          if (i >= 0) CopyRow(in[2], i, o, r, rs);
          else CopyRow(in[0], r, o, r, rs);
        }
      });
    })
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      NodePtr g = b.Node("_contrib_backward_index_copy", {og[0], b.in(0), b.in(1), b.in(2)});
      return {OutputOf(g, 0), OutputOf(g, 1), OutputOf(g, 2)};
    });

WEFT_REGISTER_OP("_contrib_backward_index_copy").set_compute_gpu(WEFT_GPU(cuda::BackwardIndexCopyGpu))
    .describe("Gradient of index_copy: inputs (out_grad, old_tensor, index_vector, new_tensor) give the "
              "gradients of old_tensor (out_grad with the copied-over rows zeroed), index_vector (zeros) and "
              "new_tensor (out_grad's copied-over rows). Only the shapes of old_tensor and new_tensor are read.")
    .add_input("out_grad")
    .add_input("old_tensor")
    .add_input("index_vector")
    .add_input("new_tensor")
    .set_num_outputs(3)
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[1].known() && (*in)[0].known()) (*in)[1] = (*in)[0];
      if (!(*in)[1].known() || !(*in)[2].known() || !(*in)[3].known()) return false;
      CheckShapes("_contrib_backward_index_copy", (*in)[1], (*in)[2], (*in)[3]);
      AssignShape(in, 0, (*in)[1], "_contrib_backward_index_copy: input 'out_grad'");
      for (size_t i = 0; i < 3; ++i)
        AssignShape(out, i, (*in)[i + 1], "_contrib_backward_index_copy: output " + std::to_string(i));
      return true;
    })
    .set_infer_type([](const Params&, std::vector<DType>* in, std::vector<DType>* out) {
      if ((*in)[0] == DType::kUnknown || (*in)[2] == DType::kUnknown) return false;
      AssignType(out, 0, (*in)[0], "_contrib_backward_index_copy: output 0");
      AssignType(out, 1, (*in)[2], "_contrib_backward_index_copy: output 1");
      AssignType(out, 2, (*in)[0], "_contrib_backward_index_copy: output 2");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int64_t n = in[1].shape[0], rs = n > 0 ? in[1].Size() / n : 0;
      std::vector<int64_t> idx;
      const std::vector<int64_t> map = RowMap(in[2], n, &idx);
      tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
        o.ZeroFill();
        for (int64_t r = 0; r < n; ++r)
          if (map[static_cast<size_t>(r)] < 0) CopyRow(in[0], r, o, r, rs);
      });
      tensor_cpu::FillCPU(out[1], req[1], 0.0);
      tensor_cpu::WriteWithReq(req[2], out[2], [&](const TensorView& o) {
        o.ZeroFill();
        for (size_t i = 0; i < idx.size(); ++i)
          if (idx[i] >= 0 && idx[i] < n) CopyRow(in[0], idx[i], o, static_cast<int64_t>(i), rs);
      });
    });

}  // namespace
}  // namespace weft
