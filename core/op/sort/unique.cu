// GPU kernel of _npi_unique: one thread sorts the slices and writes the
// outputs (Note [Unique by one stable sort], unique_rules.h), its order and
// merge buffer in the op's scratch memory.
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/sort/unique_gpu.h"
#include "core/op/sort/unique_rules.h"

namespace weft {
namespace cuda {
namespace {

void UniqueForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  for (OpReq r : req) {
    WEFT_CHECK(r != OpReq::kAddTo, kInvalidArgument) << "_npi_unique: accumulating (grad_req add) into its "
                                                     << "outputs is not supported";
  }
  const tensor::UniqueGeom g = tensor::UniqueGeomOf(p, in[0].shape);
  if (g.n == 0) return;
  size_t k = 1;
  int64_t* index = p.GetBool("return_index") ? out[k++].ptr<int64_t>() : nullptr;
  int64_t* inverse = p.GetBool("return_inverse") ? out[k++].ptr<int64_t>() : nullptr;
  int64_t* counts = p.GetBool("return_counts") ? out[k++].ptr<int64_t>() : nullptr;
  const int64_t u = p.IsNone("axis") ? out[0].shape[0]
                                     : out[0].shape[tensor::NormalizeAxis(p.GetInt("axis"), in[0].ndim(),
                                                                          "_npi_unique", "data")];
  int64_t* order = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(2 * g.n) * sizeof(int64_t)));
  int64_t* tmp = order + g.n;
  const bool write_vals = req[0] != OpReq::kNull;
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_npi_unique", T, {
    const T* x = in[0].ptr<T>();
    T* vals = write_vals ? out[0].ptr<T>() : nullptr;
    Launch(ctx, 1, [=] WEFT_HD(int64_t) {
      tensor::UniqueSort(x, g, order, tmp);
      tensor::UniqueWrite(x, g, order, u, vals, index, inverse, counts);
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(UniqueGpu, UniqueForward)

}  // namespace cuda
}  // namespace weft
