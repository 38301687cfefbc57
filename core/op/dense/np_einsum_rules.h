// The index rule of MXNet 1.9.1's _npi_einsum and its backward op, written
// once for the CPU kernels (np_einsum.cc) and the GPU kernels (np_einsum.cu).
//
// Note [Einsum as one gather per output element]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every einsum is the same loop: each label (a subscript letter, or one
// dimension covered by `...`) has a length; an element of the target array
// fixes the labels its dimensions carry, and its value is the sum, over every
// value of the labels it does not carry, of the product of the inputs at the
// positions those label values name. An input's position is a sum of one
// element stride per label: a label repeated in one operand (a diagonal,
// 'ii->i') has the sum of its dimensions' strides, an absent label or a
// dimension of length 1 broadcast against a longer one (MXNet broadcasts any
// label so) stride 0. So one plan -- the target's labels, the summed labels,
// and each input's stride per label -- serves:
//  * the forward: target the output, inputs the operands;
//  * the gradient of operand i: target operand i (a label it repeats fixes
//    only its diagonal: its other elements are 0; a dimension it broadcast
//    carries no label, so the label is summed), inputs out_grad (with the
//    output's labels) and the other operands. d(sum(og * out))/d(x_i) at a
//    position is the sum of og times the other operands over every label
//    value that reads that position, which is this gather.
// One index per target element writes only that element (Note [GPU kernel
// style]), so the same body runs on both devices, with no atomics. The cost is
// the product of all label lengths per target, without NumPy's pairwise
// contraction order (`optimize` is accepted and, as MXNet's own fallback path,
// does not change values).
//
// The plan is captured by value by the GPU lambda, so its arrays are bounded:
// kEinsumMaxInputs inputs (MXNet itself refuses 16 or more operands) and
// kEinsumMaxLabels distinct labels and target dimensions; larger einsums are
// refused by name at shape inference.
#pragma once
#include <cstdint>

#include "core/op/common/half_hd.h"
#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

constexpr int kEinsumMaxInputs = 16;
constexpr int kEinsumMaxLabels = 20;

struct EinsumGather {
  int nin = 0;                              // inputs read
  int ndim = 0;                             // the target's dimensions
  int64_t dims[kEinsumMaxLabels] = {};      // their lengths
  int dim_label[kEinsumMaxLabels] = {};     // the label each fixes, -1 for none (broadcast, length 1)
  int nlabels = 0;
  int nsum = 0;                             // labels summed: those no target dimension fixes
  int sum_label[kEinsumMaxLabels] = {};
  int64_t sum_len[kEinsumMaxLabels] = {};
  int64_t stride[kEinsumMaxInputs][kEinsumMaxLabels] = {};  // input k's element stride per label
};

// The inputs' data pointers, captured with the plan.
template <typename T>
struct EinsumInputs {
  const T* p[kEinsumMaxInputs] = {};
};

// The value of target element i: 0 off a repeated label's diagonal, else the
// sum of products (accumulated in AccT<T>; bool data gives OR of ANDs).
template <typename T>
WEFT_HD inline AccT<T> EinsumGatherAt(const EinsumGather& g, const EinsumInputs<T>& in, int64_t i) {
  using Acc = AccT<T>;
  int64_t val[kEinsumMaxLabels];
  for (int l = 0; l < g.nlabels; ++l) val[l] = -1;
  int64_t rem = i;
  for (int d = g.ndim - 1; d >= 0; --d) {
    const int64_t v = rem % g.dims[d];
    rem /= g.dims[d];
    const int l = g.dim_label[d];
    if (l < 0) continue;
    if (val[l] >= 0 && val[l] != v) return Acc(0);  // off the diagonal of a repeated label
    val[l] = v;
  }
  int64_t off[kEinsumMaxInputs];
  for (int k = 0; k < g.nin; ++k) {
    int64_t o = 0;
    for (int l = 0; l < g.nlabels; ++l)
      if (val[l] > 0) o += val[l] * g.stride[k][l];
    off[k] = o;
  }
  for (int s = 0; s < g.nsum; ++s)
    if (g.sum_len[s] == 0) return Acc(0);  // an empty sum
  int64_t cnt[kEinsumMaxLabels];
  for (int s = 0; s < g.nsum; ++s) cnt[s] = 0;
  Acc acc = Acc(0);
  for (;;) {
    Acc prod = static_cast<Acc>(in.p[0][off[0]]);
    for (int k = 1; k < g.nin; ++k) prod = static_cast<Acc>(prod * static_cast<Acc>(in.p[k][off[k]]));
    acc = static_cast<Acc>(acc + prod);
    int s = g.nsum - 1;
    for (; s >= 0; --s) {  // the odometer over the summed labels, last fastest
      const int l = g.sum_label[s];
      if (++cnt[s] < g.sum_len[s]) {
        for (int k = 0; k < g.nin; ++k) off[k] += g.stride[k][l];
        break;
      }
      for (int k = 0; k < g.nin; ++k) off[k] -= (g.sum_len[s] - 1) * g.stride[k][l];
      cnt[s] = 0;
    }
    if (s < 0) break;
  }
  return acc;
}

}  // namespace tensor
}  // namespace weft
