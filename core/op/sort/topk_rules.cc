#include "core/op/sort/topk_rules.h"

#include <string>

#include "core/base/error.h"
#include "core/op/axis_util.h"

namespace weft {
namespace tensor {

TopKPlan MakeTopKPlan(const char* op, const Params& p, const Shape* shape) {
  const Shape& data = shape != nullptr ? *shape : Shape();
  const std::string name(op);
  TopKPlan t;
  if (name == "topk") {
    const std::string& r = p.GetString("ret_typ");
    t.ret = r == "value" ? TopKRet::kValue : r == "mask" ? TopKRet::kMask : r == "both" ? TopKRet::kBoth
                                                                                          : TopKRet::kIndices;
    t.ascend = p.GetBool("is_ascend");
  } else {
    t.ret = name == "sort" ? TopKRet::kValue : TopKRet::kIndices;
    t.ascend = p.GetBool("is_ascend");
  }
  // The hidden indices of ret_typ 'value' (and sort) are int32, as MXNet's.
  t.index_dtype = t.ret == TopKRet::kValue || name == "sort" ? DType::kInt32 : p.GetDType("dtype");
  if (shape == nullptr) return t;  // ret and dtypes only
  if (p.IsNone("axis")) {
    t.n = data.Size();
  } else {
    WEFT_CHECK(data.ndim() >= 1, kShape) << op << ": input 'data' must have at least 1 dimension with axis="
                                         << p.GetInt("axis");
    t.axis = NormalizeAxis(p.GetInt("axis"), data.ndim(), op, "data");
    t.outer = data.ProdRange(0, t.axis);
    t.n = data[t.axis];
    t.inner = data.ProdRange(t.axis + 1, data.ndim());
  }
  t.k = t.n;
  if (name == "topk") {
    const int64_t k = p.GetInt("k");
    WEFT_CHECK(k <= t.n, kInvalidArgument) << "topk: k " << k << " exceeds the " << t.n
                                           << " elements along the axis of input 'data' of shape " << data.ToString();
    if (k >= 1) t.k = k;
  }
  return t;
}

TopKPlan MakeTopKPlan(const char* op, const Params& p, const Shape& data) { return MakeTopKPlan(op, p, &data); }

std::vector<Shape> TopKOutShapes(const TopKPlan& t, const Shape& data) {
  Shape kept;
  if (t.axis < 0) {
    kept = Shape({t.k});
  } else {
    kept = data;
    kept[t.axis] = t.k;
  }
  switch (t.ret) {
    case TopKRet::kMask: return {data};
    case TopKRet::kIndices: return {kept};
    default: return {kept, kept};
  }
}

std::vector<DType> TopKOutTypes(const TopKPlan& t, DType data) {
  switch (t.ret) {
    case TopKRet::kMask: return {data};
    case TopKRet::kIndices: return {t.index_dtype};
    default: return {data, t.index_dtype};
  }
}

}  // namespace tensor
}  // namespace weft
