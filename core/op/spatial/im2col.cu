// GPU kernels of im2col, col2im and _backward_im2col (core/op/spatial/im2col.cc):
// one index per output element, by im2col_rules.h (col2im gathers the column
// entries of each image element, so no two indices write one place).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/req_hd.h"
#include "core/op/spatial/im2col_gpu.h"

namespace weft {
namespace cuda {
namespace {

void Im2colRun(const OpContext& ctx, const nnm::ColGeom& g, const TensorView& x, OpReq req, const TensorView& y,
               const char* op) {
  if (req == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(y.dtype, op, T, {
    const T* xp = x.ptr<T>();
    T* yp = y.ptr<T>();
    Launch(ctx, y.Size(), [=] WEFT_HD(int64_t e) { nnm::Put(yp, e, req, nnm::Im2colValue(e, g, xp)); });
  });
}

void Col2imRun(const OpContext& ctx, const nnm::ColGeom& g, const TensorView& col, OpReq req, const TensorView& y,
               const char* op) {
  if (req == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(y.dtype, op, T, {
    const T* cp = col.ptr<T>();
    T* yp = y.ptr<T>();
    Launch(ctx, y.Size(), [=] WEFT_HD(int64_t e) { nnm::Put(yp, e, req, nnm::Col2imValue<T, AccT<T>>(e, g, cp)); });
  });
}

void Im2col(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  Im2colRun(ctx, nnm::ColGeomOf(p, in[0].shape), in[0], req[0], out[0], p.op()->name.c_str());
}

void Col2im(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  Col2imRun(ctx, nnm::ColGeomOf(p, out[0].shape), in[0], req[0], out[0], "col2im");
}

void BackwardIm2col(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Col2imRun(ctx, nnm::ColGeomOf(p, in[1].shape), in[0], req[0], out[0], "_backward_im2col");
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(Im2colGpu, Im2col)  // im2col
WEFT_GPU_KERNEL_EXPORT(Col2imGpu, Col2im)  // col2im
WEFT_GPU_KERNEL_EXPORT(BackwardIm2colGpu, BackwardIm2col)  // _backward_im2col

}  // namespace cuda
}  // namespace weft
