#include "core/op/index/indexing_backward_cpu.h"

#include <algorithm>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"

namespace weft {
namespace tensor_cpu {
namespace {

// The scatters accumulate in float64 and convert once on store, so one loop
// serves every dtype (these kernels run once per backward pass, not per element
// of a hot loop).
std::vector<double> AsDoubles(const TensorView& t) {
  std::vector<double> v(static_cast<size_t>(t.Size()));
  if (!v.empty()) ConvertCopy(t, OpReq::kWriteTo, TensorView{v.data(), DType::kFloat64, t.shape});
  return v;
}

void StoreDoubles(std::vector<double>* v, OpReq req, const TensorView& out) {
  if (out.Size() == 0) return;
  ConvertCopy(TensorView{v->data(), DType::kFloat64, out.shape}, req, out);
}

// The index rule of take and pick (core/op/index/indexing_cpu.cc); kRaise was checked by the forward.
int64_t FixIndex(int64_t i, int64_t n, IndexMode mode) {
  if (mode == IndexMode::kClip) return i < 0 ? 0 : (i >= n ? n - 1 : i);
  if (mode == IndexMode::kWrap) {
    const int64_t r = i % n;
    return r < 0 ? r + n : r;
  }
  WEFT_CHECK(i >= -n && i < n, kInvalidArgument)
      << "index " << i << " out of range for an axis of size " << n << " (mode='raise')";
  return i < 0 ? i + n : i;
}

}  // namespace


void TakeBackwardCPU(const TensorView& g, const TensorView& indices, int axis, IndexMode mode, OpReq req,
                     const TensorView& out) {
  const int64_t outer = out.shape.ProdRange(0, axis), n = out.shape[axis];
  const int64_t inner = out.shape.ProdRange(axis + 1, out.ndim());
  std::vector<int64_t> idx = ReadIndices(indices);
  const int64_t ni = static_cast<int64_t>(idx.size());
  std::vector<double> gv = AsDoubles(g), acc(static_cast<size_t>(out.Size()), 0.0);
  if (n > 0 && inner > 0) {
    for (auto& i : idx) i = FixIndex(i, n, mode);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < ni; ++j) {
        const double* src = gv.data() + (o * ni + j) * inner;
        double* dst = acc.data() + (o * n + idx[static_cast<size_t>(j)]) * inner;
        for (int64_t k = 0; k < inner; ++k) dst[k] += src[k];
      }
  }
  StoreDoubles(&acc, req, out);
}

void PickBackwardCPU(const TensorView& g, const TensorView& index, int axis, IndexMode mode, OpReq req,
                     const TensorView& out) {
  const int64_t outer = out.shape.ProdRange(0, axis), n = out.shape[axis];
  const int64_t inner = out.shape.ProdRange(axis + 1, out.ndim());
  std::vector<int64_t> idx = ReadIndices(index);
  std::vector<double> gv = AsDoubles(g), acc(static_cast<size_t>(out.Size()), 0.0);
  if (n > 0) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < inner; ++k) {
        const int64_t r = o * inner + k;
        const int64_t j = FixIndex(idx[static_cast<size_t>(r)], n, mode);
        acc[static_cast<size_t>((o * n + j) * inner + k)] += gv[static_cast<size_t>(r)];
      }
  }
  StoreDoubles(&acc, req, out);
}

void GatherNDBackwardCPU(const TensorView& g, const TensorView& indices, OpReq req, const TensorView& out) {
  const int m = static_cast<int>(indices.shape[0]);
  const int64_t slice = out.shape.ProdRange(m, out.ndim());
  const int64_t count = m == 0 ? 0 : indices.Size() / m;
  std::vector<int64_t> idx = ReadIndices(indices);
  std::vector<double> gv = AsDoubles(g), acc(static_cast<size_t>(out.Size()), 0.0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t off = 0;
    for (int j = 0; j < m; ++j) {
      const int64_t dim = out.shape[j];
      int64_t v = idx[static_cast<size_t>(j * count + i)];
      WEFT_CHECK(v >= -dim && v < dim, kInvalidArgument)
          << "index " << v << " out of range for axis " << j << " of input 'data' (size " << dim << ")";
      off = off * dim + (v < 0 ? v + dim : v);
    }
    const double* src = gv.data() + i * slice;
    double* dst = acc.data() + off * slice;
    for (int64_t k = 0; k < slice; ++k) dst[k] += src[k];
  }
  StoreDoubles(&acc, req, out);
}

}  // namespace tensor_cpu
}  // namespace weft
