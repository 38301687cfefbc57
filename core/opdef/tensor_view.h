// What a kernel sees: pointer, dtype and shape of a contiguous row-major
// array (views in this issue are reshape and axis-0 slices, which stay
// contiguous). Kernels never touch NDArray or the engine.
#pragma once
#include <cstdint>
#include <cstring>

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
  // Sets every element to zero bits. A zero-size view may have no buffer
  // (data == nullptr), and memset on a null pointer is undefined even for 0
  // bytes (UBSan reports it), so it is skipped.
  void ZeroFill() const {
    if (data != nullptr && shape.Size() > 0) std::memset(data, 0, static_cast<size_t>(shape.Size()) * DTypeSize(dtype));
  }
};

}  // namespace weft
