// Which path the neural-network CPU kernels take, picked at run time.
//
// Note [NN kernel paths]
// Two paths compute Convolution, Deconvolution and Pooling on CPU:
//  - oneDNN (core/op/layer/convolution_dnnl.cc, core/op/spatial/pooling_dnnl.cc,
//    core/op/norm/norm_dnnl.cc), compiled when WEFT_USE_DNNL is on, float32;
//  - the portable path (layer/convolution_cpu.cc: im2col + OpenBLAS GEMM;
//    spatial/pooling_cpu.cc: direct loops), always compiled: float64, cases
//    oneDNN does not cover, and builds without oneDNN.
// The environment variable WEFT_USE_DNNL picks per call: "0" the portable path
// everywhere; unset or "1" oneDNN for convolution and pooling, except max
// pooling's backward; "all" that too. Measured on an AVX2 machine
// (benchmarks/layers.py, one thread): oneDNN pools 1.2-3x faster forward and
// avg backward (channel-blocked layout), but its max backward needs the argmax
// workspace of a forward pass it must rerun, 1.1-2.7x slower than the
// portable loops, which find the argmax from (data, output) directly.
// FullyConnected always uses OpenBLAS: oneDNN's inner product was within
// +-25% of it on the LeNet and ResNet-18 shapes, not a clear win.
// BatchNorm (channel axis 1) and LayerNorm (last axis) forward follow the
// same setting, BatchNorm's backward only "all" (dnnl_norm.cc, called from
// core/op/norm/batch_norm_cpu.cc and core/op/norm/layer_norm_cpu.cc; the portable kernels cover other
// cases and kAddTo). On plain nchw oneDNN has no faster BatchNorm: ResNet-18's
// (8,64,56,56), 1-2 threads, forward was within noise of the portable loop
// (~5 ms both) and backward 1.0-1.5x slower.
// The variable is read at every call, so one build tests the paths against
// each other (tests/cpp/nn_conv_test.cc, tests/cpp/dnnl_norm_test.cc).
#include "core/op/common/nn_path.h"

#include <cstdlib>
#include <cstring>

namespace weft {
namespace nn_cpu {

bool DnnlCompiledIn() {
#if WEFT_USE_DNNL
  return true;
#else
  return false;
#endif
}

bool UseDnnl() {
  if (!DnnlCompiledIn()) return false;
  const char* v = std::getenv("WEFT_USE_DNNL");
  return v == nullptr || std::strcmp(v, "0") != 0;
}

bool UseDnnlAll() {
  if (!DnnlCompiledIn()) return false;
  const char* v = std::getenv("WEFT_USE_DNNL");
  return v != nullptr && std::strcmp(v, "all") == 0;
}

}  // namespace nn_cpu
}  // namespace weft
