// _npi_eig and _npi_eigvals (np.linalg.eig / eigvals, MXNet 1.9.1's registered
// names): eigenvalues and right eigenvectors of general square matrices,
// batched over the leading axes, over LAPACK's geev. The GPU kernels run this
// CPU kernel on host copies (np_eig_cpu.h).
//
// Note [Real eigenvalues only]
// MXNet 1.9.1's np arrays have no complex dtype, and its eig/eigvals refuse a
// matrix whose eigenvalues are not all real rather than drop the imaginary
// parts. So do these ops (an error naming the op and the matrix); NumPy would
// return complex arrays.
#include "core/op/linalg/np_eig_cpu.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/linalg/lapack_cpu.h"
#include "core/op/linalg/linalg_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/op_util.h"

namespace weft {
namespace linalg {
namespace {

// Note [Row-major LAPACK] (lapack_cpu.cc): the row-major buffer is column-major
// A^T, whose left eigenvectors (u^T A^T = w u^T) are A's right eigenvectors:
// geev's VL columns, written transposed into the row-major output.
template <typename T>
void EigBatch(const std::string& op, const TensorView& a, OpReq wreq, T* W, OpReq vreq, T* V) {
  const int64_t n = a.shape[a.ndim() - 1], batch = a.Size() / (n * n);
  const bool vectors = V != nullptr && vreq != OpReq::kNull;
  ParallelFor(batch, n * n * n, [&](int64_t begin, int64_t end) {
    std::vector<T> work(static_cast<size_t>(n * n)), wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n)),
        vl(vectors ? static_cast<size_t>(n * n) : 0);
    for (int64_t b = begin; b < end; ++b) {
      std::memcpy(work.data(), a.ptr<T>() + b * n * n, sizeof(T) * work.size());
      // LAPACK's geev aborts the process on an infinite entry (its balancing
      // step calls xerbla); NumPy refuses such input too.
      for (const T x : work)
        WEFT_CHECK(std::isfinite(static_cast<double>(x)), kInvalidArgument)
            << op << ": input 'A' (matrix " << b << " of the batch) contains inf or NaN";
      const int info = lapack::Geev(n, work.data(), n, wr.data(), wi.data(), vectors ? vl.data() : nullptr);
      WEFT_CHECK(info == 0, kInvalidArgument) << op << ": the eigenvalue algorithm did not converge for input 'A' "
                                              << "(matrix " << b << " of the batch; LAPACK geev info " << info << ")";
      for (int64_t i = 0; i < n; ++i)
        WEFT_CHECK(wi[static_cast<size_t>(i)] == T(0), kInvalidArgument)
            << op << ": input 'A' (matrix " << b << " of the batch) has complex eigenvalues ("
            << wr[static_cast<size_t>(i)] << (wi[static_cast<size_t>(i)] < 0 ? " - " : " + ")
            << std::fabs(static_cast<double>(wi[static_cast<size_t>(i)]))
            << "i); complex results are not supported (as in MXNet 1.9.1)";
      if (wreq != OpReq::kNull)
        for (int64_t i = 0; i < n; ++i) StoreReq(wreq, W + b * n + i, wr[static_cast<size_t>(i)]);
      if (vectors)
        for (int64_t r = 0; r < n; ++r)
          for (int64_t c = 0; c < n; ++c)
            StoreReq(vreq, V + (b * n + r) * n + c, vl[static_cast<size_t>(r + c * n)]);
    }
  });
}

bool EigShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  CheckSquare(p.op()->name, "A", a);
  AssignShape(out, 0, Shape(a.dims().begin(), a.dims().end() - 1), p.op()->name + ": output 'w'");
  if (out->size() > 1) AssignShape(out, 1, a, p.op()->name + ": output 'v'");
  return true;
}

}  // namespace

void EigCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  if (in[0].Size() == 0) return;
  const bool vectors = out.size() > 1;
  if (in[0].dtype == DType::kFloat64)
    EigBatch<double>(p.op()->name, in[0], req[0], out[0].ptr<double>(), vectors ? req[1] : OpReq::kNull,
                     vectors ? out[1].ptr<double>() : nullptr);
  else
    EigBatch<float>(p.op()->name, in[0], req[0], out[0].ptr<float>(), vectors ? req[1] : OpReq::kNull,
                    vectors ? out[1].ptr<float>() : nullptr);
}

namespace {

// Added with OpRegistry::Add, not WEFT_REGISTER_OP: the output names below need the reference.
WEFT_REGISTER_OP(reg_eig, "_npi_eig")
    .describe("Eigenvalues and right eigenvectors of a general square matrix (np.linalg.eig, MXNet 1.9.1's "
              "_npi_eig): A (..., M, M) gives w (..., M) and v (..., M, M) with A v[:, i] = w[i] v[:, i], each "
              "column of unit length (LAPACK geev). Batched over the leading axes. Real eigenvalues only: a "
              "matrix with complex ones is an error (Note [Real eigenvalues only]). No gradient (as MXNet). "
              "float32 and float64 only.")
    .add_input("A")
    .set_num_outputs(2)
    .set_infer_shape(EigShape)
    .set_infer_type(FloatTypeInfer)
    .set_compute_cpu(EigCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpEigGpu));

WEFT_REGISTER_OP("_npi_eigvals")
    .describe("Eigenvalues of a general square matrix (np.linalg.eigvals, MXNet 1.9.1's _npi_eigvals): A (..., "
              "M, M) gives w (..., M), as _npi_eig without the eigenvectors. Real eigenvalues only (Note [Real "
              "eigenvalues only]). No gradient (as MXNet). float32 and float64 only.")
    .add_input("A")
    .set_infer_shape(EigShape)
    .set_infer_type(FloatTypeInfer)
    .set_compute_cpu(EigCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpEigGpu));

[[maybe_unused]] bool eig_names = [] {
  reg_eig.list_output_names = [](const Params&) { return std::vector<std::string>{"w", "v"}; };
  return true;
}();

}  // namespace
}  // namespace linalg
}  // namespace weft
