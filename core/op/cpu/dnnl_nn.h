// The oneDNN path of the neural-network kernels (compiled only with
// WEFT_USE_DNNL). Each function returns false, having written nothing, when
// oneDNN does not cover the case (float64, an unsupported pooling variant);
// the caller then runs the portable path. Signatures as in nn_kernels.h.
#pragma once
#include "core/op/cpu/nn_kernels.h"

namespace weft {
namespace dnnl_cpu {

using nn_cpu::ConvGeom;
using nn_cpu::PoolGeom;

bool ConvForward(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
                 const TensorView& y);
bool ConvBackwardData(const ConvGeom& g, const TensorView& dy, const TensorView& w, OpReq req, const TensorView& dx);
bool ConvBackwardWeight(const ConvGeom& g, const TensorView& dy, const TensorView& x, OpReq req, const TensorView& dw,
                        const TensorView* db, OpReq req_db);

bool PoolForward(const PoolGeom& g, const TensorView& x, OpReq req, const TensorView& y);
bool PoolBackward(const PoolGeom& g, const TensorView& dy, const TensorView& x, const TensorView& y, OpReq req,
                  const TensorView& dx);

}  // namespace dnnl_cpu
}  // namespace weft
