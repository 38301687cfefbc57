// FullyConnected kernels: three BLAS GEMMs and a column sum. oneDNN's inner
// product is not used: measured against OpenBLAS on the LeNet and ResNet-18
// shapes it was not a clear win (see Note [NN kernel paths] in core/op/common/nn_path.cc).
#include <algorithm>
#include <vector>

#include "core/base/error.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/layer/layer_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nn_cpu {
namespace {

template <typename T>
void ForwardT(const FCGeom& g, const T* x, const T* w, const T* b, OpReq req, T* y) {
  Gemm(false, true, g.rows, g.hidden, g.in_dim, x, g.in_dim, w, g.in_dim, req == OpReq::kAddTo ? T(1) : T(0), y,
       g.hidden);
  if (b == nullptr) return;
  ParallelFor(g.rows, g.hidden, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      T* row = y + r * g.hidden;
      for (int64_t j = 0; j < g.hidden; ++j) row[j] += b[j];
    }
  });
}

template <typename T>
void ColumnSum(const T* dy, int64_t rows, int64_t cols, OpReq req, T* db) {
  std::vector<T> acc(static_cast<size_t>(cols), T(0));
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = dy + r * cols;
    for (int64_t j = 0; j < cols; ++j) acc[j] += row[j];
  }
  for (int64_t j = 0; j < cols; ++j) StoreReq(req, db + j, acc[j]);
}

template <typename T>
void BackwardT(const FCGeom& g, const T* dy, const T* x, const T* w, OpReq req_dx, T* dx, OpReq req_dw, T* dw,
               T* db, OpReq req_db) {
  if (req_dx != OpReq::kNull)
    Gemm(false, false, g.rows, g.in_dim, g.hidden, dy, g.hidden, w, g.in_dim, req_dx == OpReq::kAddTo ? T(1) : T(0),
         dx, g.in_dim);
  if (req_dw != OpReq::kNull) {
    if (g.rows == 0) {
      if (req_dw != OpReq::kAddTo) std::fill(dw, dw + g.hidden * g.in_dim, T(0));
    } else {
      Gemm(true, false, g.hidden, g.in_dim, g.rows, dy, g.hidden, x, g.in_dim, req_dw == OpReq::kAddTo ? T(1) : T(0),
           dw, g.in_dim);
    }
  }
  if (db != nullptr && req_db != OpReq::kNull) ColumnSum(dy, g.rows, g.hidden, req_db, db);
}

void CheckFloat(DType t) {
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << "FullyConnected: only float32 and float64 are supported, got " << DTypeName(t);
}

template <typename T>
T* Ptr(const TensorView* v) { return v == nullptr ? nullptr : v->ptr<T>(); }

}  // namespace

void FCForward(const FCGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
               const TensorView& y) {
  if (req == OpReq::kNull) return;
  CheckFloat(x.dtype);
  if (x.dtype == DType::kFloat64) ForwardT(g, x.ptr<double>(), w.ptr<double>(), Ptr<double>(b), req, y.ptr<double>());
  else ForwardT(g, x.ptr<float>(), w.ptr<float>(), Ptr<float>(b), req, y.ptr<float>());
}

void FCBackward(const FCGeom& g, const TensorView& dy, const TensorView& x, const TensorView& w, OpReq req_dx,
                const TensorView& dx, OpReq req_dw, const TensorView& dw, const TensorView* db, OpReq req_db) {
  CheckFloat(dy.dtype);
  if (dy.dtype == DType::kFloat64)
    BackwardT(g, dy.ptr<double>(), x.ptr<double>(), w.ptr<double>(), req_dx, dx.ptr<double>(), req_dw,
              dw.ptr<double>(), Ptr<double>(db), req_db);
  else
    BackwardT(g, dy.ptr<float>(), x.ptr<float>(), w.ptr<float>(), req_dx, dx.ptr<float>(), req_dw, dw.ptr<float>(),
              Ptr<float>(db), req_db);
}

}  // namespace nn_cpu
}  // namespace weft
