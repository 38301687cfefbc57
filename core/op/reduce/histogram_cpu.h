// CPU kernel of _histogram (core/op/reduce/histogram.cc).
#pragma once
#include "core/op/reduce/histogram_rules.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace tensor_cpu {

// counts (int64, bins.count) and edges (data's dtype, bins.count + 1) of data
// over uniform bins; with `edges_in` (not null) the bins are its edges instead.
void HistogramCPU(const TensorView& data, const tensor::UniformBins& bins, const TensorView* edges_in,
                  const TensorView& counts, const TensorView& edges);

}  // namespace tensor_cpu
}  // namespace weft
