// The run-time path choice of the neural-network CPU kernels (Convolution,
// Deconvolution and Pooling; BatchNorm and LayerNorm forward): oneDNN or the
// portable loops (Note [NN kernel paths] in nn_path.cc), and the guards their
// entry points run first (layer/layer_backend.cc, spatial/pooling_cpu.cc).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace nn_cpu {

// True when oneDNN is compiled in (WEFT_USE_DNNL) and the environment variable
// WEFT_USE_DNNL is not "0". Read on every call, so tests can flip it between ops.
bool UseDnnl();
// True when WEFT_USE_DNNL is "all": oneDNN also where it measured slower than
// the portable path (max pooling's backward). For comparisons and tests.
bool UseDnnlAll();
// True when this build contains the oneDNN path at all.
bool DnnlCompiledIn();

// Zero-size arrays never reach a kernel: a batch of 0 images with a huge
// spatial axis has an output of 0 elements but per-image sizes that overflow
// int64 (it died with SIGFPE in the chunk planner). A gradient with nothing to
// sum is zeros (or unchanged for kAddTo).
inline bool ZeroSized(const TensorView& t) { return t.data == nullptr || t.Size() == 0; }
inline void ZeroUnlessAdd(const TensorView& t, OpReq req) {
  if (req == OpReq::kNull || req == OpReq::kAddTo || ZeroSized(t)) return;
  t.ZeroFill();
}

}  // namespace nn_cpu
}  // namespace weft

// Returns from the calling entry point when `enabled` and oneDNN's
// dnnl_cpu::call (core/op/common/dnnl_nn.h) took the case; nothing without oneDNN.
#if WEFT_USE_DNNL
#define WEFT_TRY_DNNL(enabled, call) \
  if ((enabled) && dnnl_cpu::call) return
#else
#define WEFT_TRY_DNNL(enabled, call)
#endif
