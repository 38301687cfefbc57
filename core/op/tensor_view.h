// What a kernel sees: pointer, dtype and shape of a contiguous row-major
// array (views in this issue are reshape and axis-0 slices, which stay
// contiguous). Kernels never touch NDArray or the engine.
#pragma once
#include <cstdint>

#include "core/base/dtype.h"
#include "core/base/shape.h"

namespace weft {

struct TensorView {
  void* data = nullptr;
  DType dtype = DType::kFloat32;
  Shape shape;

  int64_t Size() const { return shape.Size(); }
  int ndim() const { return shape.ndim(); }
  template <typename T>
  T* ptr() const { return static_cast<T*>(data); }
};

}  // namespace weft
