// CPU kernels of the normalisation ops: BatchNorm (per channel of an axis)
// and the row normalisations LayerNorm (over one axis) and InstanceNorm (over
// the spatial dims of each (sample, channel)).
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

struct BatchNormArgs {
  int64_t outer = 1, channels = 1, inner = 1;  // data seen as (outer, C, inner)
  double eps = 1e-3, momentum = 0.9;
  bool fix_gamma = true;
  bool batch_stats = false;    // normalise with the batch's statistics (training, not use_global_stats)
  bool update_moving = false;  // fold them into moving_mean / moving_var (forward only)
};

// y = (x - mean) * invstd * gamma + beta per channel; mean_out and
// invstd_out (C,) receive the statistics used (MXNet's mean and "var"
// outputs hold the mean and the inverse standard deviation). Parameters and
// statistics have the accumulation dtype (float32 for 16-bit data).
void BatchNormForward(const BatchNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
                      const TensorView& moving_mean, const TensorView& moving_var, const std::vector<OpReq>& req,
                      const TensorView& y, const TensorView& mean_out, const TensorView& invstd_out);
// Gradients of data, gamma and beta (req[0..2]); with batch_stats the saved
// mean/invstd are used, otherwise the moving statistics.
void BatchNormBackward(const BatchNormArgs& a, const TensorView& gy, const TensorView& mean, const TensorView& invstd,
                       const TensorView& x, const TensorView& gamma, const TensorView& moving_mean,
                       const TensorView& moving_var, const std::vector<OpReq>& req, const TensorView& gx,
                       const TensorView& ggamma, const TensorView& gbeta);

// Row normalisation: x seen as (outer, n, inner); a row is the n elements of
// one (o, i) pair, its statistics sit at index o * inner + i. gamma/beta are
// indexed by the position j in the row (channels == 0, LayerNorm) or by the
// row's channel r % channels (InstanceNorm). The second statistic is the
// standard deviation sqrt(var + eps) (LayerNorm) or the variance
// (InstanceNorm, store_var).
struct RowNormArgs {
  int64_t outer = 1, n = 1, inner = 1, channels = 0;
  double eps = 1e-5;
  bool store_var = false;
};
void RowNormForward(const RowNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
                    const std::vector<OpReq>& req, const TensorView& y, const TensorView& mean,
                    const TensorView& stat);
void RowNormBackward(const RowNormArgs& a, const TensorView& gy, const TensorView& x, const TensorView& gamma,
                     const TensorView& mean, const TensorView& stat, const std::vector<OpReq>& req,
                     const TensorView& gx, const TensorView& ggamma, const TensorView& gbeta);

}  // namespace nnx_cpu
}  // namespace weft
