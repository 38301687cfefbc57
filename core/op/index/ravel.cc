// _ravel_multi_index (ravel_multi_index) and _unravel_index (unravel_index):
// multi-indices (ndim, N) into flat indices (N,) of an array of `shape` and
// back, row-major as NumPy's ravel_multi_index / unravel_index (no bounds
// check, as MXNet). Indices are read as int64; results have the input's dtype.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/index/indexing_cpu.h"
#include "core/op/index/ravel_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

const std::vector<int64_t>& CheckedShape(const Params& p, const char* op) {
  const std::vector<int64_t>& s = p.GetTuple("shape");
  tensor::CheckNoNone(s, op, "shape");
  WEFT_CHECK(!s.empty(), kInvalidArgument) << op << ": parameter 'shape' must name at least one dimension";
  for (int64_t d : s)
    WEFT_CHECK(d > 0, kInvalidArgument) << op << ": parameter 'shape' " << tensor::TupleString(s)
                                        << " must have positive dimensions";
  return s;
}

void Store(std::vector<double>* v, OpReq req, const TensorView& out) {
  TensorView src;
  src.data = v->data();
  src.dtype = DType::kFloat64;
  src.shape = out.shape;
  tensor_cpu::ConvertCopy(src, req, out);
}

WEFT_REGISTER_OP("_ravel_multi_index").add_alias("ravel_multi_index").set_compute_gpu(WEFT_GPU(cuda::RavelMultiIndexGpu))
    .describe("Flat indices of multi-indices: data (ndim, N), column j a multi-index into an array of `shape`, "
              "gives out[j] = the row-major flat index.")
    .add_input("data")
    .add_required_param("shape", ParamType::kShape, "Shape of the array the multi-indices index.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const std::vector<int64_t>& s = CheckedShape(p, "_ravel_multi_index");
      if (!(*in)[0].known()) return false;
      const Shape& d = (*in)[0];
      WEFT_CHECK(d.ndim() == 2 && d[0] == static_cast<int64_t>(s.size()), kShape)
          << "_ravel_multi_index: input 'data' must have shape (" << s.size() << ", N), one row per dimension of "
          << "shape " << tensor::TupleString(s) << ", got " << d.ToString();
      AssignShape(out, 0, Shape({d[1]}), "_ravel_multi_index: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const std::vector<int64_t>& s = p.GetTuple("shape");
      const std::vector<int64_t> idx = tensor_cpu::ReadIndices(in[0]);
      const int64_t n = out[0].Size();
      std::vector<double> o(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j) {
        // Unchecked, as MXNet: indices out of range or a shape whose product passes 2**63 give a
        // wrapped index. Wrapped in uint64, where it is defined (in int64 it is UB).
        uint64_t flat = 0;
        for (size_t i = 0; i < s.size(); ++i)
          flat = flat * static_cast<uint64_t>(s[i]) +
                 static_cast<uint64_t>(idx[i * static_cast<size_t>(n) + static_cast<size_t>(j)]);
        o[static_cast<size_t>(j)] = static_cast<double>(static_cast<int64_t>(flat));
      }
      Store(&o, req[0], out[0]);
    });

WEFT_REGISTER_OP("_unravel_index").add_alias("unravel_index").set_compute_gpu(WEFT_GPU(cuda::UnravelIndexGpu))
    .describe("Multi-indices of flat indices: data (N,) of row-major flat indices into an array of `shape` "
              "gives out (ndim, N), column j the multi-index of data[j].")
    .add_input("data")
    .add_required_param("shape", ParamType::kShape, "Shape of the array the flat indices index.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const std::vector<int64_t>& s = CheckedShape(p, "_unravel_index");
      if (!(*in)[0].known()) return false;
      const Shape& d = (*in)[0];
      WEFT_CHECK(d.ndim() == 1, kShape) << "_unravel_index: input 'data' must be 1-D (N,), got shape " << d.ToString();
      AssignShape(out, 0, Shape({static_cast<int64_t>(s.size()), d[0]}), "_unravel_index: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const std::vector<int64_t>& s = p.GetTuple("shape");
      const std::vector<int64_t> idx = tensor_cpu::ReadIndices(in[0]);
      const size_t n = idx.size();
      std::vector<double> o(s.size() * n);
      for (size_t j = 0; j < n; ++j) {
        int64_t v = idx[j];
        for (size_t i = s.size(); i-- > 0;) {
          o[i * n + j] = static_cast<double>(v % s[i]);
          v /= s[i];
        }
      }
      Store(&o, req[0], out[0]);
    });

}  // namespace
}  // namespace weft
