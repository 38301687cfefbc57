// GPU kernel of _npi_argmax, _npi_argmin, _np_all, _np_any, _npi_std,
// _npi_var, _np_sum, _npi_mean, _np_prod, _np_max and _np_min: one thread per
// output element running the rules of np_reduce_rules.h (Note [NumPy
// reductions as one loop per output]); the moments go through a float64
// scratch row and one converting store, as the CPU's; the sums read their
// input converted to the output dtype first (Note [NumPy sums and their
// dtypes] in np_reduce.cc).
#include <type_traits>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/reduce/np_reduce_rules.h"
#include "core/op/reduce/np_reduce_gpu.h"

namespace weft {
namespace cuda {
namespace {

// y[o] (r)= v in T: bool as a logical or for kAddTo, as _np_all's store.
template <typename T, typename V>
WEFT_HD inline void PutValue(T* y, int64_t o, OpReq r, V v) {
  if constexpr (std::is_same<T, bool>::value) {
    const bool b = v != 0;
    y[o] = r == OpReq::kAddTo ? (y[o] || b) : b;
  } else {
    Assign(y, o, r, v);
  }
}

void NpValue(const OpContext& ctx, const Params& p, tensor::NpReduceKind k, const TensorView& in, OpReq r,
             const TensorView& out, const tensor::NpReduceGeom& g) {
  const std::string& op = p.op()->name;
  TensorView x = in;
  if (in.dtype != out.dtype && in.Size() > 0) {
    x = TensorView{Scratch(ctx, static_cast<size_t>(in.Size()) * DTypeSize(out.dtype)), out.dtype, in.shape};
    CopyGpu("_np_sum")(ctx, p, {in}, {OpReq::kWriteTo}, {x});
  } else {
    x.dtype = out.dtype;
  }
  const int64_t n = g.out_size;
  WEFT_GPU_ALL_SWITCH(out.dtype, op.c_str(), T, {
    const T* xp = x.ptr<T>();
    T* y = out.ptr<T>();
    switch (k) {
      case tensor::NpReduceKind::kSum:
      case tensor::NpReduceKind::kProd: {
        const bool is_sum = k == tensor::NpReduceKind::kSum;
        Launch(ctx, n, [=] WEFT_HD(int64_t o) { PutValue(y, o, r, tensor::NpSumProdAt<T>(g, o, is_sum, xp)); });
        break;
      }
      case tensor::NpReduceKind::kMean:
        Launch(ctx, n, [=] WEFT_HD(int64_t o) { PutValue(y, o, r, tensor::NpMeanAt<T>(g, o, xp)); });
        break;
      default: {
        const bool is_max = k == tensor::NpReduceKind::kMax;
        Launch(ctx, n, [=] WEFT_HD(int64_t o) { PutValue(y, o, r, tensor::NpExtremeAt<T>(g, o, is_max, xp)); });
      }
    }
  });
}

void NpReduce(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const std::string& op = p.op()->name;
  const tensor::NpReduceKind k = tensor::NpReduceKindOf(op);
  std::vector<bool> red;
  tensor::NpReduceShape(p, in[0].shape, &red);
  const tensor::NpReduceGeom g = tensor::NpReduceGeomOf(in[0].shape, red, op);
  const OpReq r = req[0];
  const int64_t n = g.out_size;
  if (k >= tensor::NpReduceKind::kSum) {
    NpValue(ctx, p, k, in[0], r, out[0], g);
  } else if (k == tensor::NpReduceKind::kArgmax || k == tensor::NpReduceKind::kArgmin) {
    const bool is_max = k == tensor::NpReduceKind::kArgmax;
    int64_t* y = out[0].ptr<int64_t>();
    WEFT_GPU_ALL_SWITCH(in[0].dtype, op.c_str(), T, {
      const T* x = in[0].ptr<T>();
      Launch(ctx, n, [=] WEFT_HD(int64_t o) { Assign(y, o, r, tensor::NpArgAt<T>(g, o, is_max, x)); });
    });
  } else if (k == tensor::NpReduceKind::kAll || k == tensor::NpReduceKind::kAny) {
    const bool is_all = k == tensor::NpReduceKind::kAll;
    bool* y = out[0].ptr<bool>();
    WEFT_GPU_ALL_SWITCH(in[0].dtype, op.c_str(), T, {
      const T* x = in[0].ptr<T>();
      Launch(ctx, n, [=] WEFT_HD(int64_t o) {
        const bool v = tensor::NpAllAnyAt<T>(g, o, is_all, x);
        y[o] = r == OpReq::kAddTo ? (y[o] || v) : v;
      });
    });
  } else {
    const bool is_std = k == tensor::NpReduceKind::kStd;
    const int64_t ddof = p.GetInt("ddof");
    double* m = static_cast<double*>(Scratch(ctx, static_cast<size_t>(n) * sizeof(double)));
    WEFT_GPU_ALL_SWITCH(in[0].dtype, op.c_str(), T, {
      const T* x = in[0].ptr<T>();
      Launch(ctx, n, [=] WEFT_HD(int64_t o) { m[o] = tensor::NpMomentAt<T>(g, o, is_std, ddof, x); });
    });
    WEFT_GPU_ALL_SWITCH(out[0].dtype, op.c_str(), U, {
      U* y = out[0].ptr<U>();
      Launch(ctx, n, [=] WEFT_HD(int64_t o) { Assign(y, o, r, m[o]); });
    });
  }
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpReduceGpu, NpReduce)

}  // namespace cuda
}  // namespace weft
