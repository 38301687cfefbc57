// What topk, sort, argsort and _backward_topk share between shape inference,
// the CPU kernels (topk_cpu.cc) and the GPU kernels (topk.cu): the rows the
// sort runs along, the outputs each ret_typ gives, and the order of elements
// (Note [Sort order]).
#pragma once
#include <cstdint>
#include <vector>

#include "core/base/dtype.h"
#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

enum class TopKRet : int { kValue = 0, kIndices = 1, kMask = 2, kBoth = 3 };

// The sort runs along an axis of length n; `outer` rows before it, `inner`
// elements after it (axis=None: the flattened input, outer = inner = 1); it
// keeps the first k of each row.
struct TopKPlan {
  int64_t outer = 1, n = 1, inner = 1, k = 1;
  bool ascend = false;
  TopKRet ret = TopKRet::kIndices;
  DType index_dtype = DType::kFloat32;
  int axis = -1;  // normalised; -1 for axis=None
};

// The plan of topk / sort / argsort (op names the op for errors) for data's shape.
TopKPlan MakeTopKPlan(const char* op, const Params& p, const Shape& data);
// Only ret, ascend and index_dtype (type inference, before shapes are known).
TopKPlan MakeTopKPlan(const char* op, const Params& p, const Shape* data_or_null);
// Its outputs' shapes and dtypes (all of them, hidden ones included).
std::vector<Shape> TopKOutShapes(const TopKPlan& t, const Shape& data);
std::vector<DType> TopKOutTypes(const TopKPlan& t, DType data);

// Note [Sort order]
// Element (a, i) comes before (b, j) when its value is smaller (ascending) or
// larger (descending), NaN counting as larger than every number, and equal
// values keep their index order. The order is total, so the CPU's std::sort
// and the GPU's ranks (the count of elements before one) agree exactly.
template <typename T>
WEFT_HD inline bool SortLess(T a, T b) {
  const bool na = a != a, nb = b != b;
  if (na || nb) return !na && nb;
  return a < b;
}
template <typename T>
WEFT_HD inline bool SortBefore(T a, int64_t i, T b, int64_t j, bool ascend) {
  if (ascend ? SortLess(a, b) : SortLess(b, a)) return true;
  if (ascend ? SortLess(b, a) : SortLess(a, b)) return false;
  return i < j;
}

}  // namespace tensor
}  // namespace weft
