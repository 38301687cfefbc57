#include "core/op/init/init_cpu.h"

#include <algorithm>
#include <vector>

#include "core/op/common/copy_cpu.h"

namespace weft {
namespace tensor_cpu {

void ArangeCPU(double start, double step, int64_t repeat, OpReq req, const TensorView& out) {
  const int64_t n = out.Size();
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<double>(i / repeat) * step;
  ConvertCopy(TensorView{v.data(), DType::kFloat64, out.shape}, req, out);
}

void EyeCPU(int64_t k, OpReq req, const TensorView& out) {
  const int64_t rows = out.shape[0], cols = out.shape[1];
  WriteWithReq(req, out, [&](const TensorView& o) {
    StridedFill(o.dtype, 0.0, {o.Size()}, o.data, 0, {1});
    // The diagonal starts at (max(0, -k), max(0, k)) and steps by cols + 1.
    const int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0;
    const int64_t len = std::min(rows - r0, cols - c0);
    if (len > 0) StridedFill(o.dtype, 1.0, {len}, o.data, r0 * cols + c0, {cols + 1});
  });
}

}  // namespace tensor_cpu
}  // namespace weft
