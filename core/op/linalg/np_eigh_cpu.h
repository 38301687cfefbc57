// The CPU kernels of _npi_eigh/_npi_eigvalsh (np_eigh.cc) and of
// _npi_pinv/_npi_pinv_scalar_rcond and their backward ops (np_pinv.cc), which their GPU kernels
// (np_linalg_host.cu) run on host copies, and the dtype rule the four share
// (Note [np.linalg dtypes of eigh and pinv]).
#pragma once
#include <string>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace linalg {

void EighCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out);
void PinvCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out);
void PinvBackwardCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out);

// The output dtype for input `arg` of dtype `in`: float32 stays float32,
// float64 and every integer or bool dtype give float64; float16 and bfloat16
// throw kDType naming `op` and `arg` (Note [np.linalg dtypes of eigh and pinv]).
DType NpLinalgResultType(const std::string& op, const char* arg, DType in);

// The `count` elements of `src` (any dtype) converted to `to` (float32 or
// float64) into `dst`.
void CopyAsFloat(const TensorView& src, int64_t offset, int64_t count, DType to, void* dst);

}  // namespace linalg
}  // namespace weft
