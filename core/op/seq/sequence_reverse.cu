// GPU kernel of SequenceReverse (core/op/seq/sequence_reverse.cc): one index per
// output element, the index rule of sequence_reverse_rules.h; the lengths (any
// dtype) are first converted to float64 in scratch memory.
#include <cstdint>
#include <vector>

#include "core/op/common/req_hd.h"
#include "core/op/common/tensor_util.cuh"
#include "core/op/seq/sequence_reverse_rules.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void ReverseT(const OpContext& ctx, int64_t n, nnm::ReverseLayout l, const double* lengths, const T* x, OpReq req,
              T* y) {
  Launch(ctx, n, [=] WEFT_HD(int64_t e) { nnm::Put(y, e, req, x[nnm::ReverseSource(e, l, lengths)]); });
}

void SequenceReverse(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape& s = in[0].shape;
  const nnm::ReverseLayout l{s[0], s[1], s.ProdRange(2, s.ndim())};
  const double* lengths = nullptr;
  if (p.GetBool("use_sequence_length")) {
    const TensorView& len = in[1];
    double* d = static_cast<double*>(Scratch(ctx, static_cast<size_t>(len.Size() > 0 ? len.Size() : 1) * sizeof(double)));
    ValuesToDoubleGPU(ctx, len, d);
    lengths = d;
  }
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "SequenceReverse", T, {
    ReverseT<T>(ctx, out[0].Size(), l, lengths, in[0].ptr<T>(), req[0], out[0].ptr<T>());
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(SequenceReverseGpu, SequenceReverse)  // SequenceReverse

}  // namespace cuda
}  // namespace weft
