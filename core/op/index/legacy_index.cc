// MXNet's legacy row-wise ops: fill_element_0index and _onehot_encode (MXNet
// 1.9.1's NDArray functions; mx.nd.onehot_encode(indices, out) is the Python
// helper in bindings/python/weft/ndarray/creation.py), argmax_channel and
// batch_take. choose_element_0index is an alias of pick (indexing.cc), as in MXNet.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/index/legacy_index_cpu.h"
#include "core/op/index/legacy_index_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

WEFT_REGISTER_OP("fill_element_0index").set_compute_gpu(WEFT_GPU(cuda::FillElement0IndexGpu))
    .describe("Fills one element of each row of lhs: out = lhs, out[i, rhs[i]] = mhs[i] (rhs holds 0-based "
              "column indices, clipped to the row).")
    .add_input("lhs")
    .add_input("mhs")
    .add_input("rhs")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      const Shape& lhs = (*in)[0];
      WEFT_CHECK(lhs.ndim() == 2, kShape) << "fill_element_0index: input 'lhs' must be 2-D (rows, cols), got shape "
                                          << lhs.ToString();
      AssignShape(in, 1, Shape({lhs[0]}), "fill_element_0index: input 'mhs' (one value per row of 'lhs')");
      AssignShape(in, 2, Shape({lhs[0]}), "fill_element_0index: input 'rhs' (one index per row of 'lhs')");
      AssignShape(out, 0, lhs, "fill_element_0index: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      AssignType(in, 1, (*in)[0], "fill_element_0index: input 'mhs' (the dtype of 'lhs')");
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::FillElement0IndexCPU(in[0], in[1], in[2], req[0], out[0]);
    });

WEFT_REGISTER_OP("_onehot_encode").set_compute_gpu(WEFT_GPU(cuda::OneHotEncodeGpu))
    .describe("One-hot rows: out[i, lhs[i]] = 1, 0 elsewhere, in the shape and dtype of rhs (the array "
              "mx.nd.onehot_encode(indices, out) fills; only its shape and dtype are read).")
    .add_input("lhs")
    .add_input("rhs")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[1].known()) return false;
      const Shape& o = (*in)[1];
      WEFT_CHECK(o.ndim() == 2, kShape) << "_onehot_encode: input 'rhs' (the output) must be 2-D (rows, depth), got "
                                        << o.ToString();
      AssignShape(in, 0, Shape({o[0]}), "_onehot_encode: input 'lhs' (one index per row of the output)");
      AssignShape(out, 0, o, "_onehot_encode: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 1);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::OneHotEncodeCPU(in[0], req[0], out[0]);
    });

WEFT_REGISTER_OP("argmax_channel").set_compute_gpu(WEFT_GPU(cuda::ArgmaxChannelGpu)).add_method("argmax_channel")
    .describe("The position of the largest element along the last axis (the first one on ties), in the input's "
              "dtype: shape data.shape[:-1] ((1,) for a 1-D input).")
    .add_input("data")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      const Shape& d = (*in)[0];
      WEFT_CHECK(d.ndim() >= 1, kShape) << "argmax_channel: input 'data' must have at least 1 dimension";
      WEFT_CHECK(d[d.ndim() - 1] > 0, kShape) << "argmax_channel: the last axis of input 'data' (shape "
                                              << d.ToString() << ") is empty";
      Shape o(std::vector<int64_t>(d.dims().begin(), d.dims().end() - 1));
      if (o.ndim() == 0) o = Shape({1});
      AssignShape(out, 0, o, "argmax_channel: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::ArgmaxChannelCPU(in[0], req[0], out[0]);
    })
    .set_gradient(ZeroGradients);

WEFT_REGISTER_OP("batch_take").set_compute_gpu(WEFT_GPU(cuda::BatchTakeGpu))
    .describe("One element of each row: out[i] = a[i, indices[i]], a seen as (indices.size, a.size / "
              "indices.size); indices are clipped to the row.")
    .add_input("a")
    .add_input("indices")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() || !(*in)[1].known()) return false;
      const Shape& a = (*in)[0];
      const Shape& idx = (*in)[1];
      WEFT_CHECK(idx.Size() > 0 && a.Size() % idx.Size() == 0 && a.Size() >= idx.Size(), kShape)
          << "batch_take: input 'a' of shape " << a.ToString() << " must hold a whole row for each of the "
          << idx.Size() << " entries of 'indices' (shape " << idx.ToString() << ")";
      AssignShape(out, 0, idx, "batch_take: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::BatchTakeCPU(in[0], in[1], req[0], out[0]);
    });

}  // namespace
}  // namespace weft
