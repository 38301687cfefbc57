// _npx_nonzero (npx.nonzero, MXNet 1.9.1's registered name; np.nonzero,
// np.flatnonzero and np.argwhere are built on it): the indices of the
// nonzero elements of x as an int64 (N, x.ndim) array, one row per element in
// row-major order (NumPy's argwhere). A 0-d x counts as one element of shape
// (1,): (1, 1) [[0]] when nonzero, (0, 1) when not -- MXNet 1.9.1's result
// (checked there); NumPy 2's argwhere gives (N, 0) and its nonzero raises. N is known only from x's values: Note
// [Data-dependent output shapes] (core/opdef/dynamic_shape.h) -- imperative and
// hybridized calls size the output after x is ready; bind refuses it, as
// MXNet does. No gradient (integer output, as in MXNet). GPU kernel:
// nonzero.cu.
#include <cstdint>
#include <vector>

#include "core/op/index/nonzero_gpu.h"
#include "core/op/index/nonzero_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

constexpr const char* kNonzeroOp = "_npx_nonzero";

// The shape the rows index: a 0-d x is read as the 1-d (1,) (MXNet 1.9.1).
Shape IndexedShape(const Shape& x) { return x.ndim() == 0 ? Shape{1} : x; }

int64_t CountNonzero(const TensorView& x) {
  int64_t count = 0;
  WEFT_DTYPE_SWITCH(x.dtype, T, {
    const T* v = x.ptr<T>();
    for (int64_t i = 0, n = x.Size(); i < n; ++i) count += tensor::NonzeroAt(v[i]);
  });
  return count;
}

void NonzeroCpu(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape s = IndexedShape(in[0].shape);
  const int nd = s.ndim();
  int64_t* y = out[0].ptr<int64_t>();
  const bool add = req[0] == OpReq::kAddTo;
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);  // the row-major index of element i
  int64_t row = 0;
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    const T* v = in[0].ptr<T>();
    for (int64_t i = 0, n = in[0].Size(); i < n; ++i) {
      if (tensor::NonzeroAt(v[i])) {
        for (int d = 0; d < nd; ++d) y[row * nd + d] = (add ? y[row * nd + d] : 0) + idx[static_cast<size_t>(d)];
        ++row;
      }
      for (int d = nd - 1; d >= 0 && ++idx[static_cast<size_t>(d)] == s[d]; --d) idx[static_cast<size_t>(d)] = 0;
    }
  });
}

WEFT_REGISTER_OP(kNonzeroOp)
    .describe("Return the indices of the elements that are non-zero, as an int64 array of shape (N, x.ndim): "
              "row i holds the index of the i-th nonzero element in row-major order (NumPy's argwhere).\n\n"
              "Example::\n\n   nonzero([[1, 0], [0, 2]]) = [[0, 0], [1, 1]]")
    .add_input("x")
    .set_infer_shape([](const Params&, std::vector<Shape>*, std::vector<Shape>*) {
      return false;  // N is known only from x's values
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      AssignType(out, 0, DType::kInt64, p.op()->name + ": output");
      return (*in)[0] != DType::kUnknown;
    })
    .set_compute_cpu(NonzeroCpu)
    .set_compute_gpu(WEFT_GPU(cuda::NonzeroGpu))
    .set_dynamic_shape(DynamicShapeRule{{0}, [](const Params&, const std::vector<Shape>& in,
                                                const std::vector<TensorView>& v) {
                                          return std::vector<Shape>{Shape(std::vector<int64_t>{
                                              CountNonzero(v[0]), IndexedShape(in[0]).ndim()})};
                                        }});

}  // namespace
}  // namespace weft
