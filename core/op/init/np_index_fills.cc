// _npi_hanning, _npi_hamming, _npi_blackman, _npi_logspace and _npi_indices:
// MXNet 1.9.1's NumPy-mode operators whose elements are closed forms of their
// index (Note [Arrays computed from their index], np_index_fills_rules.h).
// No inputs, so no gradient; `ctx` places the output as the init ops' does.
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/common/req_hd.h"
#include "core/op/init/np_index_fills_gpu.h"
#include "core/op/init/np_index_fills_rules.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace tensor {

IndexFillRule IndexFillRuleOf(const Params& p, Shape* out) {
  const std::string& op = p.op()->name;
  IndexFillRule r;
  if (op == "_npi_logspace") {
    r.kind = IndexFill::kLogspace;
    const int64_t num = p.GetInt("num");
    WEFT_CHECK(num >= 0, kInvalidArgument) << op << ": parameter 'num' = " << num << " must be non-negative";
    const double start = p.GetFloat("start"), stop = p.GetFloat("stop");
    const int64_t div = p.GetBool("endpoint") ? num - 1 : num;
    r.start = start;
    r.step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
    r.base = p.GetFloat("base");
    *out = Shape{num};
    return r;
  }
  if (op == "_npi_indices") {
    r.kind = IndexFill::kIndices;
    const std::vector<int64_t>& dims = p.GetTuple("dimensions");
    tensor::CheckNoNone(dims, op, "dimensions");
    WEFT_CHECK(dims.size() <= static_cast<size_t>(IndexFillRule::kMaxDims), kInvalidArgument)
        << op << ": parameter 'dimensions' has " << dims.size() << " axes, more than " << IndexFillRule::kMaxDims;
    r.ndim = static_cast<int>(dims.size());
    std::vector<int64_t> shape{r.ndim};
    int64_t size = 1;
    for (int a = r.ndim - 1; a >= 0; --a) {
      const int64_t d = dims[static_cast<size_t>(a)];
      WEFT_CHECK(d >= 0, kInvalidArgument) << op << ": parameter 'dimensions' " << tensor::TupleString(dims)
                                           << " has a negative size";
      r.dims[a] = d;
      r.strides[a] = size;
      size = CheckedMul(size, d, "_npi_indices: the product of 'dimensions'");
    }
    CheckedMul(size, r.ndim, "_npi_indices: the output size");
    r.size = size > 0 ? size : 1;
    shape.insert(shape.end(), dims.begin(), dims.end());
    *out = Shape(shape);
    return r;
  }
  r.kind = op == "_npi_hanning" ? IndexFill::kHanning : op == "_npi_hamming" ? IndexFill::kHamming
                                                                             : IndexFill::kBlackman;
  r.m = p.GetInt("M");
  *out = Shape{r.m > 0 ? r.m : 0};
  return r;
}

}  // namespace tensor

namespace {

void IndexFillCPU(const OpContext&, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
                  const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  Shape shape;
  const tensor::IndexFillRule r = tensor::IndexFillRuleOf(p, &shape);
  const OpReq q = req[0];
  WEFT_DTYPE_SWITCH(out[0].dtype, T, {
    T* o = out[0].ptr<T>();
    nnm::ForEachIndex(out[0].Size(), 8, [&](int64_t i) { tensor::IndexFillStore<T>(r, i, q, o); });
  });
}

// ctx and dtype (default `dtype`; bool is not one of MXNet's choices here).
OpDef& Declare(OpDef& op, const char* dtype, const std::string& doc) {
  return op.describe(doc)
      .add_param("ctx", ParamType::kString, "", "Device of the output, e.g. 'cpu(0)' or 'gpu(1)'; empty: cpu(0).")
      .add_param("dtype", ParamType::kDType, dtype, "The output dtype.")
      .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
        Shape shape;
        tensor::IndexFillRuleOf(p, &shape);
        AssignShape(out, 0, shape, p.op()->name + ": output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>*, std::vector<DType>* out) {
        const DType t = p.GetDType("dtype");
        WEFT_CHECK(t != DType::kBool, kDType) << p.op()->name << ": dtype bool is not supported";
        AssignType(out, 0, t, p.op()->name + ": output (dtype)");
        return true;
      })
      .set_compute_cpu(IndexFillCPU)
      .set_compute_gpu(WEFT_GPU(cuda::NpIndexFillGpu));
}

void DeclareWindow(const char* name, const char* what) {
  WEFT_REGISTER_OP(op, name);
  Declare(op.add_param("M", ParamType::kInt, "0", "Number of points; 1 gives [1], fewer than 1 an empty array."),
          "float32", std::string("NumPy's ") + what + " window (MXNet's `" + name + "`): M points of it, the "
          "maximum 1 in the middle when M is odd.");
}

[[maybe_unused]] const bool kIndexFillsRegistered = [] {
  DeclareWindow("_npi_hanning", "Hann");
  DeclareWindow("_npi_hamming", "Hamming");
  DeclareWindow("_npi_blackman", "Blackman");
  WEFT_REGISTER_OP(logspace, "_npi_logspace");
  Declare(logspace.add_required_param("start", ParamType::kFloat, "base ** start is the first value.")
              .add_required_param("stop", ParamType::kFloat, "base ** stop is the last value (with endpoint).")
              .add_required_param("num", ParamType::kInt, "Number of values (>= 0).")
              .add_param("endpoint", ParamType::kBool, "True", "Whether base ** stop is included.")
              .add_param("base", ParamType::kFloat, "10", "The base of the powers."),
          "float32",
          "NumPy's logspace (MXNet's `_npi_logspace`): num values base ** x for x evenly spaced over [start, "
          "stop] (endpoint=True) or [start, stop).");
  WEFT_REGISTER_OP(indices, "_npi_indices");
  Declare(indices.add_required_param("dimensions", ParamType::kShape, "The shape of the grid."), "int32",
          "NumPy's indices (MXNet's `_npi_indices`): shape (len(dimensions), dimensions...), element (a, x...) "
          "is x[a], the index along axis a.");
  return true;
}();

}  // namespace
}  // namespace weft
