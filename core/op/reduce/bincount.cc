// _npi_bincount (np.bincount, MXNet 1.9.1's registered name): the number of
// occurrences of each value in the non-negative integer 1-D `data` (or the sum
// of `weights` per value when has_weights), over max(max(data) + 1,
// minlength) bins. The bin count is known only from data's values: Note
// [Data-dependent output shapes] (core/opdef/dynamic_shape.h) and Note
// [Bincount bins] (bincount_rules.h). Output int64 without weights, the
// weights' dtype with them (MXNet's rule). No gradient, as in MXNet. GPU
// kernel: bincount.cu.
#include <algorithm>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/reduce/bincount_rules.h"
#include "core/op/reduce/bincount_gpu.h"

namespace weft {
namespace {

constexpr const char* kBincountOp = "_npi_bincount";

void CheckBincountShapes(const std::vector<Shape>& in) {
  WEFT_CHECK(in[0].ndim() == 1, kShape) << kBincountOp << ": input 'data' must be 1-D, got shape "
                                        << in[0].ToString();
  if (in.size() > 1 && in[1].known()) {
    WEFT_CHECK(in[1] == in[0], kShape) << kBincountOp << ": input 'weights' has shape " << in[1].ToString()
                                       << " but 'data' has " << in[0].ToString() << "; they must be equal";
  }
}

bool IsBincountData(DType t) {
  return t == DType::kUint8 || t == DType::kInt8 || t == DType::kInt32 || t == DType::kInt64 || t == DType::kBool;
}

// max(max(data) + 1, minlength), refusing negative values and Note [Bincount bins]'s excess.
int64_t BinCount(const Params& p, const TensorView& data) {
  const int64_t minlength = p.GetInt("minlength");
  WEFT_CHECK(minlength >= 0, kInvalidArgument) << kBincountOp << ": 'minlength' must not be negative, got "
                                               << minlength;
  int64_t top = -1;
  WEFT_CHECK(IsBincountData(data.dtype), kDType) << kBincountOp << ": input 'data' must hold integers, got "
                                                 << DTypeName(data.dtype);
  WEFT_DTYPE_SWITCH(data.dtype, I, {
    const I* v = data.ptr<I>();
    for (int64_t i = 0, n = data.Size(); i < n; ++i) {
      const auto x = static_cast<int64_t>(v[i]);
      WEFT_CHECK(x >= 0, kInvalidArgument) << kBincountOp << ": input 'data' must have no negative elements, got "
                                           << x << " at index " << i;
      if (x > top) top = x;
    }
  });
  // compared before adding 1: top may be INT64_MAX
  WEFT_CHECK(top < tensor::kMaxBincountBins && minlength <= tensor::kMaxBincountBins, kInvalidArgument)
      << kBincountOp << ": the output would need more than " << tensor::kMaxBincountBins
      << " bins (max(data) = " << top << ", minlength = " << minlength << "); refusing to allocate them";
  const int64_t bins = std::max(top + 1, minlength);
  return bins;
}

template <typename I>
void BincountRows(const I* data, int64_t n, const TensorView* weights, OpReq req, const TensorView& out) {
  const int64_t nb = out.Size();
  std::vector<double> acc(static_cast<size_t>(nb), 0.0);  // Note [Bincount bins]: double, ascending order
  if (weights == nullptr) {
    for (int64_t i = 0; i < n; ++i) acc[static_cast<size_t>(data[i])] += 1.0;
    int64_t* y = out.ptr<int64_t>();
    for (int64_t b = 0; b < nb; ++b) {
      const auto c = static_cast<int64_t>(acc[static_cast<size_t>(b)]);
      y[b] = req == OpReq::kAddTo ? y[b] + c : c;
    }
    return;
  }
  WEFT_DTYPE_SWITCH(out.dtype, W, {
    const W* w = weights->ptr<W>();
    for (int64_t i = 0; i < n; ++i) acc[static_cast<size_t>(data[i])] += static_cast<double>(w[i]);
    W* y = out.ptr<W>();
    for (int64_t b = 0; b < nb; ++b) {
      const W v = static_cast<W>(acc[static_cast<size_t>(b)]);
      y[b] = req == OpReq::kAddTo ? static_cast<W>(static_cast<double>(y[b]) + static_cast<double>(v)) : v;
    }
  });
}

void BincountCpu(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const TensorView* weights = in.size() > 1 ? &in[1] : nullptr;
  switch (in[0].dtype) {
    case DType::kUint8: BincountRows(in[0].ptr<uint8_t>(), in[0].Size(), weights, req[0], out[0]); break;
    case DType::kInt8: BincountRows(in[0].ptr<int8_t>(), in[0].Size(), weights, req[0], out[0]); break;
    case DType::kInt32: BincountRows(in[0].ptr<int32_t>(), in[0].Size(), weights, req[0], out[0]); break;
    case DType::kInt64: BincountRows(in[0].ptr<int64_t>(), in[0].Size(), weights, req[0], out[0]); break;
    case DType::kBool: BincountRows(in[0].ptr<bool>(), in[0].Size(), weights, req[0], out[0]); break;
    default: WEFT_THROW(kDType) << kBincountOp << ": input 'data' must hold integers, got " << DTypeName(in[0].dtype);
  }
}

std::vector<std::string> BincountInputs(const Params& p) {
  if (p.GetBool("has_weights")) return {"data", "weights"};
  return {"data"};
}

// Declared in steps (WEFT_REGISTER_OP's named form): the builder has no
// setter for list_input_names (MXNet's inputs: weights only when has_weights).
[[maybe_unused]] const bool kBincountRegistered = [] {
  WEFT_REGISTER_OP(op, kBincountOp);
  op.describe("Count number of occurrences of each value in array of non-negative ints (1-D data), or sum the "
              "weights per value when has_weights: max(max(data) + 1, minlength) bins.\n\n"
              "Example::\n\n   bincount([0, 1, 1, 3]) = [1, 2, 0, 1]")
    .add_input("data")
    .add_input("weights")
    .add_param("minlength", ParamType::kInt, "0", "A minimum number of bins for the output array.")
    .add_param("has_weights", ParamType::kBool, "False", "Determine whether Bincount has weights.")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>*) {
      if ((*in)[0].known()) CheckBincountShapes(*in);
      return false;  // the bin count is known only from data's values
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      const DType d = (*in)[0];
      if (d == DType::kUnknown) return false;
      WEFT_CHECK(IsBincountData(d), kDType) << kBincountOp << ": input 'data' must hold integers, got "
                                            << DTypeName(d);
      if (in->size() < 2) {
        AssignType(out, 0, DType::kInt64, p.op()->name + ": output");
        return true;
      }
      if ((*in)[1] == DType::kUnknown) return false;
      AssignType(out, 0, (*in)[1], p.op()->name + ": output");
      return true;
    })
    .set_compute_cpu(BincountCpu)
    .set_compute_gpu(WEFT_GPU(cuda::BincountGpu));
  op.list_input_names = BincountInputs;
  op.set_dynamic_shape(DynamicShapeRule{{0}, [](const Params& p, const std::vector<Shape>& in,
                                                   const std::vector<TensorView>& v) {
                                             CheckBincountShapes(in);
                                             return std::vector<Shape>{
                                                 Shape(std::vector<int64_t>{BinCount(p, v[0])})};
                                           }});
  return true;
}();

}  // namespace
}  // namespace weft
