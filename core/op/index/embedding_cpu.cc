#include "core/op/index/embedding_cpu.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {

namespace {

std::vector<int64_t> ClippedIndices(const TensorView& data, int64_t rows) {
  std::vector<double> v = ToDoubles(data);
  std::vector<int64_t> idx(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const double d = v[i];
    idx[i] = !(d > 0) ? 0 : d >= static_cast<double>(rows - 1) ? rows - 1 : static_cast<int64_t>(d);
  }
  return idx;
}

}  // namespace

void EmbeddingForward(const TensorView& data, const TensorView& weight, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const int64_t rows = weight.shape[0], dim = weight.shape[1];
  const std::vector<int64_t> idx = ClippedIndices(data, rows);
  const size_t es = DTypeSize(out.dtype);
  const char* w = static_cast<const char*>(weight.data);
  char* o = static_cast<char*>(out.data);
  if (req != OpReq::kAddTo) {
    ParallelFor(static_cast<int64_t>(idx.size()), dim, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i)
        std::memcpy(o + static_cast<size_t>(i * dim) * es, w + static_cast<size_t>(idx[static_cast<size_t>(i)] * dim) * es,
                    static_cast<size_t>(dim) * es);
    });
    return;
  }
  for (size_t i = 0; i < idx.size(); ++i) {
    const Shape row{dim};
    tensor_cpu::ConvertCopy(TensorView{const_cast<char*>(w) + static_cast<size_t>(idx[i] * dim) * es, weight.dtype, row},
                            OpReq::kAddTo, TensorView{o + i * static_cast<size_t>(dim) * es, out.dtype, row});
  }
}

void EmbeddingBackward(const TensorView& gout, const TensorView& data, OpReq req, const TensorView& gweight) {
  if (req == OpReq::kNull) return;
  const int64_t rows = gweight.shape[0], dim = gweight.shape[1];
  if (req != OpReq::kAddTo) gweight.ZeroFill();
  if (rows == 0) return;
  const std::vector<int64_t> idx = ClippedIndices(data, rows);
  WEFT_NNX_FLOAT_SWITCH(gweight.dtype, "_backward_Embedding", T, {
    using A = Acc<T>;
    const T* g = gout.ptr<T>();
    T* w = gweight.ptr<T>();
    // Threads own column ranges, so rows hit by several indices never race.
    ParallelFor(dim, static_cast<int64_t>(idx.size()), [&](int64_t b, int64_t e) {
      for (size_t i = 0; i < idx.size(); ++i) {
        T* wr = w + idx[i] * dim;
        const T* gr = g + static_cast<int64_t>(i) * dim;
        for (int64_t d = b; d < e; ++d) wr[d] = static_cast<T>(static_cast<A>(wr[d]) + static_cast<A>(gr[d]));
      }
    });
  })
}

}  // namespace nnx_cpu
}  // namespace weft
