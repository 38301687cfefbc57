// CPU kernels of _contrib_arange_like and _contrib_index_array.
#include "core/op/init/index_fill_cpu.h"

#include "core/base/dtype.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor_cpu {

void ArangeLikeCPU(const tensor::ArangeLike& a, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    T* o = out.ptr<T>();
    const int64_t n = out.Size();
    ParallelFor(n, 2, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) StoreReq(req, o + i, static_cast<T>(a.At(i)));
    });
  });
}

void IndexArrayCPU(const tensor::IndexArrayPlan& plan, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  int64_t* o = out.ptr<int64_t>();
  ParallelFor(plan.elements, plan.m * 4, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      for (int j = 0; j < plan.m; ++j) StoreReq(req, o + i * plan.m + j, plan.Coord(i, j));
  });
}

}  // namespace tensor_cpu
}  // namespace weft
