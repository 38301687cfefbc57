#include "core/ndarray/dlpack.h"

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/gpu/device_api.h"

namespace weft {

namespace {

// X(DType, DLPack code, bits)
#define WEFT_DL_DTYPE_LIST(X)      \
  X(kFloat32, WEFT_DL_FLOAT, 32)   \
  X(kFloat64, WEFT_DL_FLOAT, 64)   \
  X(kFloat16, WEFT_DL_FLOAT, 16)   \
  X(kBFloat16, WEFT_DL_BFLOAT, 16) \
  X(kUint8, WEFT_DL_UINT, 8)       \
  X(kInt8, WEFT_DL_INT, 8)         \
  X(kInt32, WEFT_DL_INT, 32)       \
  X(kInt64, WEFT_DL_INT, 64)       \
  X(kBool, WEFT_DL_BOOL, 8)

weft_dl_data_type ToDLType(DType t) {
  switch (t) {
#define WEFT_X(e, c, b) \
  case DType::e:              \
    return weft_dl_data_type{static_cast<uint8_t>(c), b, 1};
    WEFT_DL_DTYPE_LIST(WEFT_X)
#undef WEFT_X
    default:
      break;
  }
  WEFT_THROW(kDType) << "to_dlpack: dtype " << DTypeName(t) << " has no DLPack equivalent";
}

// "complex128", "uint16", "float32x4": the DLPack type the way NumPy names it.
std::string DLTypeName(weft_dl_data_type t) {
  static const char* const kCodes[] = {"int", "uint", "float", "opaque_handle", "bfloat", "complex", "bool"};
  std::ostringstream os;
  if (t.code < sizeof(kCodes) / sizeof(kCodes[0])) os << kCodes[t.code];
  else os << "type code " << static_cast<int>(t.code) << " ";
  os << static_cast<int>(t.bits);
  if (t.lanes != 1) os << "x" << t.lanes;
  return os.str();
}

DType FromDLType(weft_dl_data_type t) {
  if (t.lanes == 1) {
#define WEFT_X(e, c, b) \
  if (t.code == c && t.bits == b) return DType::e;
    WEFT_DL_DTYPE_LIST(WEFT_X)
#undef WEFT_X
  }
  WEFT_THROW(kDType) << "from_dlpack: unsupported dtype " << DLTypeName(t)
                     << " (weft supports float16/32/64, bfloat16, int8/32/64, uint8 and bool, one lane)";
}

const char* DLDeviceName(int32_t type) {
  switch (type) {
    case WEFT_DL_CPU: return "kDLCPU";
    case WEFT_DL_CUDA: return "kDLCUDA";
    case WEFT_DL_CUDA_HOST: return "kDLCUDAHost";
    case WEFT_DL_OPENCL: return "kDLOpenCL";
    case WEFT_DL_VULKAN: return "kDLVulkan";
    case WEFT_DL_METAL: return "kDLMetal";
    case WEFT_DL_VPI: return "kDLVPI";
    case WEFT_DL_ROCM: return "kDLROCM";
    case WEFT_DL_ROCM_HOST: return "kDLROCMHost";
    case WEFT_DL_EXT_DEV: return "kDLExtDev";
    case WEFT_DL_CUDA_MANAGED: return "kDLCUDAManaged";
    case WEFT_DL_ONEAPI: return "kDLOneAPI";
    default: return "an unknown DLPack device type";
  }
}

weft_dl_device ToDLDevice(Context c) {
  switch (c.dev_type) {
    case DevType::kGPU: return {WEFT_DL_CUDA, c.dev_id};
    case DevType::kCPUPinned: return {WEFT_DL_CUDA_HOST, 0};
    // Every weft cpu(i) (and cpu_shared) is host memory: DLPack has one CPU device.
    case DevType::kCPU:
    case DevType::kCPUShared: break;
  }
  return {WEFT_DL_CPU, 0};
}

Context FromDLDevice(weft_dl_device d) {
  if (d.device_type == WEFT_DL_CPU) return Context::CPU(0);
  if (d.device_type == WEFT_DL_CUDA_HOST) return Context{DevType::kCPUPinned, 0};
  if (d.device_type == WEFT_DL_CUDA) {
    try {
      Context c = Context::Make(static_cast<int>(DevType::kGPU), d.device_id);
      gpu::CheckDevice(c);
      return c;
    } catch (const Error& e) {  // e.g. a build without CUDA: say where the tensor came from
      WEFT_THROW(kInvalidArgument) << "from_dlpack: tensor on kDLCUDA device " << d.device_id << ": "
                                   << e.what();
    }
  }
  WEFT_THROW(kInvalidArgument) << "from_dlpack: unsupported device " << DLDeviceName(d.device_type) << " ("
                               << d.device_type << ") id " << d.device_id
                               << " (weft accepts kDLCPU, kDLCUDAHost and kDLCUDA)";
}

std::vector<int64_t> RowMajorStrides(const Shape& shape) {
  std::vector<int64_t> s(static_cast<size_t>(shape.ndim()));
  int64_t acc = 1;
  for (int i = shape.ndim() - 1; i >= 0; --i) {
    s[static_cast<size_t>(i)] = acc;
    acc *= shape[i];
  }
  return s;
}

std::string DimsText(const int64_t* v, int n) {
  std::ostringstream os;
  os << "(";
  for (int i = 0; i < n; ++i) os << (i ? ", " : "") << v[i];
  os << (n == 1 ? ",)" : ")");
  return os.str();
}

// Compact row-major: each axis longer than 1 has the product of the later
// axes as stride. Size-1 axes may carry any stride (producers disagree on
// them) and an empty tensor has no element whose position strides decide.
void CheckCompact(const weft_dl_tensor& t, const Shape& shape) {
  if (t.strides == nullptr || shape.Size() == 0) return;
  int64_t expected = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    WEFT_CHECK(shape[i] == 1 || t.strides[i] == expected, kInvalidArgument)
        << "from_dlpack: only compact row-major tensors are supported; shape " << shape.ToString()
        << " has strides " << DimsText(t.strides, t.ndim) << " (in elements), expected "
        << DimsText(RowMajorStrides(shape).data(), t.ndim) << ". Make it contiguous first (e.g. .contiguous() "
        << "in PyTorch, numpy.ascontiguousarray)";
    expected *= shape[i];
  }
}

// What an exported tensor owns: a view of the array (keeps the chunk alive)
// and the shape/stride arrays the DLTensor points into. One of the two
// managed structs is handed out, by ToDLPack or ToDLPackVersioned.
struct ExportContext {
  NDArray arr;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  weft_dl_managed_tensor managed{};
  weft_dl_managed_tensor_versioned versioned{};
};

// Called by foreign code (maybe a C caller): nothing may escape.
void DeleteExportContext(void* ctx) {
  try {
    delete static_cast<ExportContext*>(ctx);
  } catch (...) {
  }
}
void DeleteExport(weft_dl_managed_tensor* self) {
  if (self != nullptr) DeleteExportContext(self->manager_ctx);
}
void DeleteExportVersioned(weft_dl_managed_tensor_versioned* self) {
  if (self != nullptr) DeleteExportContext(self->manager_ctx);
}

ExportContext* NewExport(const NDArray& arr) {
  WEFT_CHECK(!arr.is_none(), kInvalidArgument) << "to_dlpack: the array is none";
  weft_dl_data_type dl_type = ToDLType(arr.dtype());
  arr.WaitToRead();  // the consumer reads the memory outside the engine
  arr.MarkSharedOutside();  // ... and may write it: no write stamp would see that
  auto ctx = std::make_unique<ExportContext>();
  ctx->arr = arr.Detach();
  ctx->shape = arr.shape().dims();
  ctx->strides = RowMajorStrides(arr.shape());
  weft_dl_tensor t{};
  t.data = arr.data();
  t.device = ToDLDevice(arr.ctx());
  t.ndim = arr.shape().ndim();
  t.dtype = dl_type;
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byte_offset = 0;  // data already points at the first element (not all consumers add byte_offset)
  ctx->managed.dl_tensor = t;
  ctx->versioned.dl_tensor = t;
  return ctx.release();
}

// Owner of an imported tensor, held by the chunk. `armed` is set only once the
// NDArray exists, so a failure before that leaves the tensor to the caller.
struct ImportOwner {
  weft_dl_managed_tensor* managed = nullptr;
  bool armed = false;
  ~ImportOwner() {
    if (armed && managed->deleter != nullptr) managed->deleter(managed);
  }
};

}  // namespace

weft_dl_managed_tensor* ToDLPack(const NDArray& arr) {
  ExportContext* ctx = NewExport(arr);
  ctx->managed.manager_ctx = ctx;
  ctx->managed.deleter = DeleteExport;
  return &ctx->managed;
}

weft_dl_managed_tensor_versioned* ToDLPackVersioned(const NDArray& arr) {
  ExportContext* ctx = NewExport(arr);
  ctx->versioned.version = weft_dl_pack_version{1, 0};
  ctx->versioned.manager_ctx = ctx;
  ctx->versioned.deleter = DeleteExportVersioned;
  ctx->versioned.flags = 0;  // writable, not a copy
  return &ctx->versioned;
}

NDArray FromDLPack(weft_dl_managed_tensor* managed) {
  WEFT_CHECK(managed != nullptr, kInvalidArgument) << "from_dlpack: the managed tensor is NULL";
  if (managed->deleter == DeleteExport) {
    // Weft's own export comes back as a view of the same chunk: a second chunk
    // over that memory would have its own var, and the engine would no longer
    // order the two arrays' ops.
    NDArray view = static_cast<ExportContext*>(managed->manager_ctx)->arr;
    managed->deleter(managed);
    return view;
  }
  const weft_dl_tensor& t = managed->dl_tensor;
  WEFT_CHECK(t.ndim >= 0 && t.ndim <= 32, kShape) << "from_dlpack: ndim " << t.ndim << " out of range [0, 32]";
  WEFT_CHECK(t.ndim == 0 || t.shape != nullptr, kInvalidArgument) << "from_dlpack: shape is NULL";
  DType dtype = FromDLType(t.dtype);
  Context ctx = FromDLDevice(t.device);
  Shape shape(t.shape, t.shape + t.ndim);
  int64_t bytes = static_cast<int64_t>(DTypeSize(dtype));
  for (int i = 0; i < t.ndim; ++i) {
    WEFT_CHECK(shape[i] >= 0, kShape) << "from_dlpack: negative dimension in shape " << DimsText(t.shape, t.ndim);
    WEFT_CHECK(!__builtin_mul_overflow(bytes, shape[i], &bytes), kShape)
        << "from_dlpack: shape " << shape.ToString() << " is larger than the address space";
  }
  CheckCompact(t, shape);
  WEFT_CHECK(t.data != nullptr || bytes == 0, kInvalidArgument)
      << "from_dlpack: data is NULL for a tensor of shape " << shape.ToString();
  char* data = t.data ? static_cast<char*>(t.data) + t.byte_offset : nullptr;
  // Kernels access elements through typed pointers: a misaligned one is undefined behaviour.
  WEFT_CHECK(reinterpret_cast<uintptr_t>(data) % DTypeSize(dtype) == 0, kInvalidArgument)
      << "from_dlpack: data + byte_offset (" << t.byte_offset << ") is not aligned to the "
      << DTypeSize(dtype) << "-byte elements of " << DTypeName(dtype);
  auto owner = std::make_shared<ImportOwner>();
  owner->managed = managed;
  NDArray arr = NDArray::WrapExternal(data, shape, dtype, ctx, owner);
  if (ctx.dev_type == DevType::kGPU) {
    // The producer ordered its writes before the legacy default stream (the
    // Python binding passes stream=1). Weft's worker streams are non-blocking
    // and never wait on it, so the array's first op does, on a GPU worker.
    Engine::Get()->Push([](RunContext) { gpu::StreamSync(nullptr); }, ctx, {}, {arr.var()}, FnProperty::kNormal,
                        0, "from_dlpack_sync");
  }
  owner->armed = true;  // nothing below can fail
  return arr;
}

}  // namespace weft
