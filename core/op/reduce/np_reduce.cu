// GPU kernel of _npi_argmax, _npi_argmin, _np_all, _np_any, _npi_std and
// _npi_var: one thread per output element running the rules of
// np_reduce_rules.h (Note [NumPy reductions as one loop per output]); the
// moments go through a float64 scratch row and one converting store, as the
// CPU's.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/reduce/np_reduce_rules.h"
#include "core/op/reduce/np_reduce_gpu.h"

namespace weft {
namespace cuda {
namespace {

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
  if (k == tensor::NpReduceKind::kArgmax || k == tensor::NpReduceKind::kArgmin) {
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
