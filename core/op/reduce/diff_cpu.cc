// CPU kernels of _npi_diff (core/op/reduce/diff_cpu.h): the rows of
// diff_rules.h over the CPU team, work rows in host memory.
#include "core/op/reduce/diff_cpu.h"

#include <algorithm>
#include <memory>

#include "core/base/error.h"
#include "core/op/common/req_hd.h"
#include "core/op/reduce/diff_rules.h"

namespace weft {
namespace tensor_cpu {

void Diff(const tensor::DiffGeom& g, const TensorView& in, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  WEFT_DTYPE_SWITCH(in.dtype, T, {
    std::unique_ptr<T[]> work(new T[static_cast<size_t>(in.Size())]);  // a row per (o, k): the input's size
    const T* x = in.ptr<T>();
    T* y = out.ptr<T>();
    T* w = work.get();
    nnm::ForEachIndex(g.outer * g.inner, g.len * (std::min(g.n, g.len) + 1),
                      [&](int64_t row) { tensor::DiffRow<T>(g, row, x, w, req, y); });
  });
}

void DiffBackward(const tensor::DiffGeom& g, const TensorView& og, OpReq req, const TensorView& grad) {
  if (req == OpReq::kNull || grad.Size() == 0) return;
  WEFT_CHECK(IsFloating(grad.dtype), kDType)
      << "_backward_npi_diff: the gradient needs a floating dtype, got " << DTypeName(grad.dtype);
  WEFT_DTYPE_SWITCH(grad.dtype, T, {
    std::unique_ptr<T[]> work(new T[static_cast<size_t>(grad.Size())]);
    const T* gy = og.ptr<T>();
    T* gx = grad.ptr<T>();
    T* w = work.get();
    nnm::ForEachIndex(g.outer * g.inner, g.len * (std::min(g.n, g.len) + 1),
                      [&](int64_t row) { tensor::DiffBackwardRow<T>(g, row, gy, w, req, gx); });
  });
}

}  // namespace tensor_cpu
}  // namespace weft
