// Picks the kernel path of the neural-network layers at run time.
//
// Note [NN kernel paths]
// Two paths compute Convolution, Deconvolution and Pooling on CPU:
//  - oneDNN (core/op/conv/*_dnnl.cc, core/op/norm/norm_dnnl.cc), compiled when WEFT_USE_DNNL is on, float32;
//  - the portable path (conv.cc: im2col + OpenBLAS GEMM; pooling.cc: direct
//    loops), always compiled: float64, cases oneDNN does not cover, and
//    builds without oneDNN.
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
#include <cstdlib>
#include <cstring>

#include "core/op/common/dnnl_nn.h"
#include "core/op/conv/layer_cpu.h"

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

#if WEFT_USE_DNNL
#define WEFT_TRY_DNNL(enabled, call) \
  if ((enabled) && dnnl_cpu::call) return
#else
#define WEFT_TRY_DNNL(enabled, call)
#endif

namespace {

// Zero-size arrays never reach a kernel: a batch of 0 images with a huge
// spatial axis has an output of 0 elements but per-image sizes that overflow
// int64 (it died with SIGFPE in the chunk planner). A gradient with nothing to
// sum is zeros (or unchanged for kAddTo).
bool Empty(const TensorView& t) { return t.data == nullptr || t.Size() == 0; }
void ZeroUnlessAdd(const TensorView& t, OpReq req) {
  if (req == OpReq::kNull || req == OpReq::kAddTo || Empty(t)) return;
  t.ZeroFill();
}

}  // namespace

void ConvForward(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
                 const TensorView& y) {
  if (req == OpReq::kNull || Empty(y)) return;
  if (Empty(x) || Empty(w)) {  // e.g. zero input channels: the bias alone
    ZeroUnlessAdd(y, req);
    if (b != nullptr) AddBias(*b, g.batch, g.out_c, g.OutSize(), y);
    return;
  }
  WEFT_TRY_DNNL(UseDnnl(), ConvForward(g, x, w, b, req, y));
  portable::ConvForward(g, x, w, b, req, y);
}

void ConvBackwardData(const ConvGeom& g, const TensorView& dy, const TensorView& w, OpReq req, const TensorView& dx) {
  if (req == OpReq::kNull || Empty(dx)) return;
  if (Empty(dy) || Empty(w)) return ZeroUnlessAdd(dx, req);
  WEFT_TRY_DNNL(UseDnnl(), ConvBackwardData(g, dy, w, req, dx));
  portable::ConvBackward(g, dy, TensorView(), w, req, dx, OpReq::kNull, TensorView(), nullptr, OpReq::kNull);
}

void ConvBackwardWeight(const ConvGeom& g, const TensorView& dy, const TensorView& x, OpReq req, const TensorView& dw,
                        const TensorView* db, OpReq req_db) {
  if (req == OpReq::kNull && (db == nullptr || req_db == OpReq::kNull)) return;
  if (Empty(dy) || Empty(x)) {
    ZeroUnlessAdd(dw, req);
    if (db != nullptr) ZeroUnlessAdd(*db, req_db);
    return;
  }
  WEFT_TRY_DNNL(UseDnnl(), ConvBackwardWeight(g, dy, x, req, dw, db, req_db));
  portable::ConvBackward(g, dy, x, TensorView(), OpReq::kNull, TensorView(), req, dw, db, req_db);
}

void ConvBackward(const ConvGeom& g, const TensorView& dy, const TensorView& x, const TensorView& w, OpReq req_dx,
                  const TensorView& dx, OpReq req_dw, const TensorView& dw, const TensorView* db, OpReq req_db) {
  if ((UseDnnl() && dy.dtype == DType::kFloat32) || Empty(dy) || Empty(x) || Empty(w)) {
    // oneDNN has separate primitives; the zero-size cases are handled there
    ConvBackwardData(g, dy, w, req_dx, dx);
    ConvBackwardWeight(g, dy, x, req_dw, dw, db, req_db);
    return;
  }
  portable::ConvBackward(g, dy, x, w, req_dx, dx, req_dw, dw, db, req_db);
}

void PoolForward(const PoolGeom& g, const TensorView& x, OpReq req, const TensorView& y) {
  if (req == OpReq::kNull || Empty(y)) return;
  if (Empty(x)) return ZeroUnlessAdd(y, req);
  WEFT_TRY_DNNL(UseDnnl(), PoolForward(g, x, req, y));
  portable::PoolForward(g, x, req, y);
}

void PoolBackward(const PoolGeom& g, const TensorView& dy, const TensorView& x, const TensorView& y, OpReq req,
                  const TensorView& dx) {
  if (req == OpReq::kNull || Empty(dx)) return;
  if (Empty(dy)) return ZeroUnlessAdd(dx, req);
  WEFT_TRY_DNNL(g.type == PoolType::kMax ? UseDnnlAll() : UseDnnl(), PoolBackward(g, dy, x, y, req, dx));
  portable::PoolBackward(g, dy, x, y, req, dx);
}

}  // namespace nn_cpu
}  // namespace weft
