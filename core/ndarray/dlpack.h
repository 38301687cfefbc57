// Zero-copy exchange with other array libraries through DLPack (NumPy,
// PyTorch, CuPy). The structs are the public ABI restated in weft/dlpack.h.
#pragma once
#include "core/ndarray/ndarray.h"
#include "weft/dlpack.h"

namespace weft {

// A DLManagedTensor viewing arr's memory. It holds a reference to arr's chunk,
// so the memory lives until the consumer calls its deleter (exactly once).
// Waits for arr's pending writes first: the consumer reads the memory directly,
// outside the engine. Device mapping: cpu(i) and cpu_shared -> kDLCPU,
// cpu_pinned -> kDLCUDAHost, gpu(i) -> kDLCUDA i. Strides are always given
// (compact row-major).
weft_dl_managed_tensor* ToDLPack(const NDArray& arr);
// The same as a DLPack 1.0 DLManagedTensorVersioned (version 1.0, flags 0:
// writable). NumPy makes arrays from unversioned tensors read-only.
weft_dl_managed_tensor_versioned* ToDLPackVersioned(const NDArray& arr);

// An NDArray over the tensor's memory, without a copy. On success the array
// owns `managed`: its deleter runs when the last view of the array is gone and
// every pending op on it has finished. On failure (a weft::Error naming the
// unsupported dtype, device or strides) `managed` is untouched and still the
// caller's. Accepts compact row-major tensors only (size-1 axes may have any
// stride) with lanes == 1 and elements aligned to their size. A tensor made by
// ToDLPack in this process gives back a view of the same chunk (and var).
NDArray FromDLPack(weft_dl_managed_tensor* managed);

}  // namespace weft
