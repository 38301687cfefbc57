// khatri_rao: the column-wise Khatri-Rao (Kronecker) product of num_args
// matrices (MXNet's contrib krprod; no gradient there, none here). The element
// rule is khatri_rao_rules.h; GPU kernel: khatri_rao.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/linalg/khatri_rao_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

template <typename T>
void KhatriRaoT(const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const linalg::KhatriRaoArgs<T> k = linalg::KhatriRaoArgsOf<T>(in, out);
  T* o = out.ptr<T>();
  ParallelFor(out.Size(), k.n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) StoreReq(req, o + i, linalg::KhatriRaoValue(k, i));
  });
}

WEFT_REGISTER_OP("khatri_rao")
    .describe("Computes the Khatri-Rao product of the input matrices: A_1 (M_1, N), ..., A_n (M_n, N) give X "
              "(M_1 * ... * M_n, N) whose column k is the Kronecker product of the inputs' columns k (the "
              "first input's row index varies slowest). float32 and float64.")
    .set_variadic("num_args")
    .add_required_param("num_args", ParamType::kInt, "Number of input matrices.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      WEFT_CHECK(!in->empty() && in->size() <= static_cast<size_t>(linalg::kMaxKhatriRaoInputs), kInvalidArgument)
          << "khatri_rao: num_args must be between 1 and " << linalg::kMaxKhatriRaoInputs << ", got " << in->size();
      int64_t rows = 1, cols = -1;
      for (size_t i = 0; i < in->size(); ++i) {
        const Shape& s = (*in)[i];
        if (!s.known()) return false;
        WEFT_CHECK(s.ndim() == 2, kShape) << "khatri_rao: input 'arg" << i << "' must be a matrix, got shape "
                                          << s.ToString();
        if (cols < 0) cols = s[1];
        WEFT_CHECK(s[1] == cols, kShape) << "khatri_rao: input 'arg" << i << "' " << s.ToString() << " has "
                                         << s[1] << " columns; every input must have " << cols;
        rows *= s[0];
      }
      AssignShape(out, 0, Shape{rows, cols}, "khatri_rao: output");
      return true;
    })
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      if (req[0] == OpReq::kNull) return;
      if (out[0].dtype == DType::kFloat64) KhatriRaoT<double>(in, req[0], out[0]);
      else KhatriRaoT<float>(in, req[0], out[0]);
    })
    .set_compute_gpu(WEFT_GPU(cuda::KhatriRaoGpu));

}  // namespace
}  // namespace weft
