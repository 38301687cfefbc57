// _shuffle (alias shuffle), as MXNet 1.x: a random permutation of `data` along
// its first axis (each sub-array moves whole). The permutation is drawn from
// the device generator (set_needs_rng), Fisher-Yates from the last row down,
// so weft.random.seed(n) reproduces it. In place allowed; not differentiable
// (MXNet registers no gradient). GPU kernel: core/op/random/multinomial_shuffle.cu.
#include <cstring>
#include <random>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/random/multinomial_shuffle_gpu.h"
#include "core/op/random/shuffle_perm.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

void ShuffleCPU(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << "_shuffle: called without a random generator";
  const int64_t n = in[0].ndim() == 0 ? 1 : in[0].shape[0];
  const std::vector<int64_t> perm = random_perm::Permutation(ctx.rng->engine(), n);
  if (req[0] == OpReq::kNull) return;
  const size_t row = n > 0 ? static_cast<size_t>(in[0].Size() / n) * DTypeSize(in[0].dtype) : 0;
  // A copy of the input first: the output may be the input itself.
  const char* src = static_cast<const char*>(in[0].data);
  std::vector<char> copy(src, src + row * static_cast<size_t>(n));
  tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
    char* dst = static_cast<char*>(o.data);
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + static_cast<size_t>(i) * row, copy.data() + static_cast<size_t>(perm[i]) * row, row);
  });
}

WEFT_REGISTER_OP("_shuffle")
    .describe("Randomly shuffle the elements.\n\nThis shuffles the array along the first axis. The order of the "
              "elements in each subarray does not change. For example, if a 2D array is given, the order of the "
              "rows randomly changes, but the order of the elements in each row does not change.")
    .add_input("data")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return SameShapeInfer(*p.op(), p, in, out);
    })
    .set_compute_cpu(ShuffleCPU)
    .set_compute_gpu(WEFT_GPU(cuda::ShuffleGpu))
    .set_needs_rng()
    .add_inplace(0, 0)
    .add_alias("shuffle");

}  // namespace
}  // namespace weft
