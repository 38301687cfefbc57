#include "core/op/sort/topk_cpu.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/index/indexing_cpu.h"
#include "core/op/op_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace tensor_cpu {
namespace {

TensorView DoubleView(std::vector<double>* v, const Shape& s) {
  TensorView t;
  t.data = v->data();
  t.dtype = DType::kFloat64;
  t.shape = s;
  return t;
}

}  // namespace

void TopKCPU(const tensor::TopKPlan& t, const TensorView& data, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  const std::vector<double> v = nnx_cpu::ToDoubles(data);
  const int64_t rows = t.outer * t.inner, n = t.n, k = t.k, inner = t.inner;
  // sel[(o*k + r)*inner + i]: the position along the axis of row (o, i)'s r-th element.
  std::vector<int64_t> sel(static_cast<size_t>(rows * k));
  ParallelFor(rows, std::max<int64_t>(1, SaturatingMul(n, 8)), [&](int64_t b, int64_t e) {
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t row = b; row < e; ++row) {
      if (n == 0) break;  // an empty axis: nothing to select (and no data to point into)
      const int64_t o = row / inner, i = row % inner;
      const double* base = v.data() + o * n * inner + i;
      std::iota(order.begin(), order.end(), int64_t{0});
      auto before = [&](int64_t x, int64_t y) {
        return tensor::SortBefore(base[x * inner], x, base[y * inner], y, t.ascend);
      };
      if (k < n) std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      else std::sort(order.begin(), order.end(), before);
      for (int64_t r = 0; r < k; ++r) sel[static_cast<size_t>((o * k + r) * inner + i)] = order[static_cast<size_t>(r)];
    }
  });
  if (t.ret == tensor::TopKRet::kMask) {
    std::vector<double> mask(static_cast<size_t>(data.Size()), 0.0);
    for (int64_t s = 0; s < rows * k; ++s) {
      const int64_t i = s % inner, o = s / inner / k;
      mask[static_cast<size_t>((o * n + sel[static_cast<size_t>(s)]) * inner + i)] = 1.0;
    }
    ConvertCopy(DoubleView(&mask, data.shape), req[0], out[0]);
    return;
  }
  std::vector<double> idx(sel.begin(), sel.end());
  const size_t idx_out = t.ret == tensor::TopKRet::kIndices ? 0 : 1;
  if (idx_out < out.size()) ConvertCopy(DoubleView(&idx, out[idx_out].shape), req[idx_out], out[idx_out]);
  if (t.ret == tensor::TopKRet::kIndices) return;
  // The values, moved by element size.
  WriteWithReq(req[0], out[0], [&](const TensorView& o) {
    const size_t es = DTypeSize(data.dtype);
    const char* src = static_cast<const char*>(data.data);
    char* dst = static_cast<char*>(o.data);
    for (int64_t s = 0; s < rows * k; ++s) {
      const int64_t i = s % inner, oo = s / inner / k;
      std::memcpy(dst + s * static_cast<int64_t>(es),
                  src + ((oo * n + sel[static_cast<size_t>(s)]) * inner + i) * static_cast<int64_t>(es), es);
    }
  });
}

void TopKBackwardCPU(const tensor::TopKPlan& t, const TensorView& og, const TensorView& idx, OpReq req,
                     const TensorView& grad) {
  if (req == OpReq::kNull) return;
  const std::vector<int64_t> sel = ReadIndices(idx);
  const std::vector<double> g = nnx_cpu::ToDoubles(og);
  std::vector<double> acc(static_cast<size_t>(grad.Size()), 0.0);
  const int64_t n = t.n, k = t.k, inner = t.inner;
  for (size_t s = 0; s < sel.size(); ++s) {
    const int64_t i = static_cast<int64_t>(s) % inner, o = static_cast<int64_t>(s) / inner / k;
    const int64_t j = sel[s];
    if (j < 0 || j >= n) continue;  // not an index topk wrote
    acc[static_cast<size_t>((o * n + j) * inner + i)] += g[s];
  }
  ConvertCopy(DoubleView(&acc, grad.shape), req, grad);
}

}  // namespace tensor_cpu
}  // namespace weft
