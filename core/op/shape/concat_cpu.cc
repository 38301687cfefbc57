#include "core/op/shape/concat_cpu.h"

#include "core/op/common/copy_cpu.h"

namespace weft {
namespace tensor_cpu {

void ConcatCPU(const std::vector<TensorView>& parts, int64_t outer, OpReq req, const TensorView& out) {
  if (outer == 0) return;
  const int64_t row = out.Size() / outer;
  const size_t es = DTypeSize(out.dtype);
  WriteWithReq(req, out, [&](const TensorView& o) {
    int64_t off = 0;
    for (const TensorView& p : parts) {
      const int64_t inner = p.Size() / outer;
      StridedCopy(es, {outer, inner}, p.data, 0, {inner, 1}, o.data, off, {row, 1});
      off += inner;
    }
  });
}

void SplitCPU(const TensorView& in, int64_t outer, const std::vector<OpReq>& req, const std::vector<TensorView>& outs) {
  if (outer == 0) return;
  const int64_t row = in.Size() / outer;
  const size_t es = DTypeSize(in.dtype);
  int64_t off = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    const int64_t inner = outs[i].Size() / outer;
    WriteWithReq(req[i], outs[i], [&](const TensorView& o) {
      StridedCopy(es, {outer, inner}, in.data, off, {row, 1}, o.data, 0, {inner, 1});
    });
    off += inner;
  }
}

}  // namespace tensor_cpu
}  // namespace weft
