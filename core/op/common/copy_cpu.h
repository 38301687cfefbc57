// Data-movement kernels shared by the tensor ops: write-mode handling for ops
// that only move bytes, dtype-converting copies, strided copies and fills.
// Movement kernels work on element size, not dtype, so each is compiled a few
// times rather than once per dtype (docs/STYLE.md "Kernels").
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// Runs `write` so that req is honoured: kNull skips; kWriteTo/kWriteInplace
// let it write into out; kAddTo gives it a temporary of out's shape and dtype
// and adds the temporary into out. Lets movement kernels ignore req.
void WriteWithReq(OpReq req, const TensorView& out, const std::function<void(const TensorView&)>& write);

// dst += src element-wise (same dtype, same size).
void AddInto(const TensorView& src, const TensorView& dst);

// out (req)= in converted to out's dtype; sizes must match.
void ConvertCopy(const TensorView& in, OpReq req, const TensorView& out);

// dst[dst_off + sum i_k*dst_stride_k] = src[src_off + sum i_k*src_stride_k]
// for every index i of `shape`; offsets and strides count elements of
// elem_size bytes. Collapses dims and uses memcpy for unit-stride rows.
void StridedCopy(size_t elem_size, std::vector<int64_t> shape, const void* src, int64_t src_off,
                 std::vector<int64_t> src_stride, void* dst, int64_t dst_off, std::vector<int64_t> dst_stride);

// A strided copy's dims with the unit dims dropped and the dims contiguous in
// both layouts merged (at least one dim, (1) for a single element). Shared by
// StridedCopy and the GPU's StridedCopyGPU (core/op/common/tensor_util.cu) so
// both walk the same dims. Host code: called before any copy runs.
struct CopyDims {
  std::vector<int64_t> shape, src_stride, dst_stride;
};
// False, and *out untouched, when shape has a zero dim (nothing to copy).
bool MergeCopyDims(const std::vector<int64_t>& shape, const std::vector<int64_t>& src_stride,
                   const std::vector<int64_t>& dst_stride, CopyDims* out);

// dst[dst_off + sum i_k*stride_k] = value (converted to dtype) for every index of shape.
void StridedFill(DType dtype, double value, const std::vector<int64_t>& shape, void* dst, int64_t dst_off,
                 const std::vector<int64_t>& stride);

// Row-major strides of shape, in elements.
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape);

// out (req)= value everywhere.
void FillCPU(const TensorView& out, OpReq req, double value);

}  // namespace tensor_cpu
}  // namespace weft
