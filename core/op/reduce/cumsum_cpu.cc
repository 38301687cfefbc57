// CPU kernel of _np_cumsum (core/op/reduce/cumsum_cpu.h): the row rule of
// cumsum_rules.h over threads.
#include "core/op/reduce/cumsum_cpu.h"

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor_cpu {
namespace {

template <typename T>
void Rows(const tensor::CumsumRows& r, bool reverse, const T* in, bool add, T* out) {
  ParallelFor(r.outer * r.inner, r.n * 2, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) tensor::CumsumRow(r, row, reverse, in, add, out);
  });
}

}  // namespace

void Cumsum(const char* op, const tensor::CumsumRows& rows, bool reverse, const TensorView& in, OpReq req,
            const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const void* src = in.data;
  if (in.dtype != out.dtype) {
    WEFT_CHECK(req != OpReq::kAddTo, kInvalidArgument)
        << op << ": accumulating (grad_req add) into an output of another dtype than the input is not supported";
    ConvertCopy(in, OpReq::kWriteTo, out);  // then the running sum in place
    src = out.data;
  }
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    Rows<T>(rows, reverse, static_cast<const T*>(src), req == OpReq::kAddTo, out.ptr<T>());
  });
}

}  // namespace tensor_cpu
}  // namespace weft
