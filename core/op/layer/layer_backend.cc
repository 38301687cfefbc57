// The entry points of the weight layers' CPU kernels (layer_cpu.h): they guard
// the zero-size cases, then take oneDNN's path or the portable one (Note [NN
// kernel paths] in core/op/common/nn_path.cc).
#include "core/op/common/dnnl_nn.h"  // IWYU pragma: keep (WEFT_TRY_DNNL calls dnnl_cpu:: in a oneDNN build)
#include "core/op/common/nn_path.h"
#include "core/op/layer/layer_cpu.h"

namespace weft {
namespace nn_cpu {

void ConvForward(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
                 const TensorView& y) {
  if (req == OpReq::kNull || ZeroSized(y)) return;
  if (ZeroSized(x) || ZeroSized(w)) {  // e.g. zero input channels: the bias alone
    ZeroUnlessAdd(y, req);
    if (b != nullptr) AddBias(*b, g.batch, g.out_c, g.OutSize(), y);
    return;
  }
  WEFT_TRY_DNNL(UseDnnl(), ConvForward(g, x, w, b, req, y));
  portable::ConvForward(g, x, w, b, req, y);
}

void ConvBackwardData(const ConvGeom& g, const TensorView& dy, const TensorView& w, OpReq req, const TensorView& dx) {
  if (req == OpReq::kNull || ZeroSized(dx)) return;
  if (ZeroSized(dy) || ZeroSized(w)) return ZeroUnlessAdd(dx, req);
  WEFT_TRY_DNNL(UseDnnl(), ConvBackwardData(g, dy, w, req, dx));
  portable::ConvBackward(g, dy, TensorView(), w, req, dx, OpReq::kNull, TensorView(), nullptr, OpReq::kNull);
}

void ConvBackwardWeight(const ConvGeom& g, const TensorView& dy, const TensorView& x, OpReq req, const TensorView& dw,
                        const TensorView* db, OpReq req_db) {
  if (req == OpReq::kNull && (db == nullptr || req_db == OpReq::kNull)) return;
  if (ZeroSized(dy) || ZeroSized(x)) {
    ZeroUnlessAdd(dw, req);
    if (db != nullptr) ZeroUnlessAdd(*db, req_db);
    return;
  }
  WEFT_TRY_DNNL(UseDnnl(), ConvBackwardWeight(g, dy, x, req, dw, db, req_db));
  portable::ConvBackward(g, dy, x, TensorView(), OpReq::kNull, TensorView(), req, dw, db, req_db);
}

void ConvBackward(const ConvGeom& g, const TensorView& dy, const TensorView& x, const TensorView& w, OpReq req_dx,
                  const TensorView& dx, OpReq req_dw, const TensorView& dw, const TensorView* db, OpReq req_db) {
  if ((UseDnnl() && dy.dtype == DType::kFloat32) || ZeroSized(dy) || ZeroSized(x) || ZeroSized(w)) {
    // oneDNN has separate primitives; the zero-size cases are handled there
    ConvBackwardData(g, dy, w, req_dx, dx);
    ConvBackwardWeight(g, dy, x, req_dw, dw, db, req_db);
    return;
  }
  portable::ConvBackward(g, dy, x, w, req_dx, dx, req_dw, dw, db, req_db);
}

}  // namespace nn_cpu
}  // namespace weft
