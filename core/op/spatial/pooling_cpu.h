// CPU kernels of Pooling (pooling.cc), forward and backward. Each entry point
// picks oneDNN when it is compiled in and enabled (UseDnnl(), UseDnnlAll():
// core/op/common/nn_path.h) and supports the case, else the portable direct
// loops (pooling_cpu.cc), which are always compiled.
//
// All views are contiguous row-major float32 or float64 (type inference
// rejects other dtypes); every output honours its OpReq, kAddTo included.
#pragma once
#include <cstdint>

#include "core/opdef/op_def.h"

namespace weft {
namespace nn_cpu {

enum class PoolType : int { kMax = 0, kAvg = 1, kSum = 2, kLp = 3 };

// Window p of an axis covers [p*stride - pad, p*stride - pad + kernel); the
// average divides by the part inside the padded input (count_include_pad) or
// inside the input (not), as MXNet 1.x does for every convention.
struct PoolGeom {
  int nd = 2;
  int64_t batch = 0, channels = 0;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t kernel[3] = {1, 1, 1}, stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0};
  PoolType type = PoolType::kMax;
  int p_value = 2;  // Lp pooling: 1, 2 or 3
  bool count_include_pad = true;

  int64_t InSize() const { return in[0] * in[1] * in[2]; }
  int64_t OutSize() const { return out[0] * out[1] * out[2]; }
};

void PoolForward(const PoolGeom& g, const TensorView& x, OpReq req, const TensorView& y);
// dx (req)= gradient given dy, the input x and the forward output y.
void PoolBackward(const PoolGeom& g, const TensorView& dy, const TensorView& x, const TensorView& y, OpReq req,
                  const TensorView& dx);

// ---- the portable path, exposed for tests and benchmarks ----------------------------------------

namespace portable {

void PoolForward(const PoolGeom& g, const TensorView& x, OpReq req, const TensorView& y);
void PoolBackward(const PoolGeom& g, const TensorView& dy, const TensorView& x, const TensorView& y, OpReq req,
                  const TensorView& dx);

}  // namespace portable
}  // namespace nn_cpu
}  // namespace weft
