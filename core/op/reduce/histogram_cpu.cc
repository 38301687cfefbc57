// CPU kernel of _histogram.
#include "core/op/reduce/histogram_cpu.h"

#include <algorithm>

namespace weft {
namespace tensor_cpu {

void HistogramCPU(const TensorView& data, const tensor::UniformBins& bins, const TensorView* edges_in,
                  const TensorView& counts, const TensorView& edges) {
  int64_t* c = counts.ptr<int64_t>();
  const int64_t nb = counts.Size();
  std::fill(c, c + nb, int64_t(0));
  WEFT_DTYPE_SWITCH(data.dtype, T, {
    const T* x = data.ptr<T>();
    T* e = edges.ptr<T>();
    const int64_t n = data.Size();
    if (edges_in) {
      const T* ei = edges_in->ptr<T>();
      for (int64_t k = 0; k <= nb; ++k) e[k] = ei[k];
      for (int64_t i = 0; i < n; ++i) {
        const int64_t k = tensor::BinOfEdges(ei, nb, static_cast<double>(x[i]));
        if (k >= 0) ++c[k];
      }
    } else {
      for (int64_t k = 0; k <= nb; ++k) e[k] = static_cast<T>(bins.Edge(k));
      for (int64_t i = 0; i < n; ++i) {
        const int64_t k = bins.BinOf(static_cast<double>(x[i]));
        if (k >= 0) ++c[k];
      }
    }
  });
}

}  // namespace tensor_cpu
}  // namespace weft
