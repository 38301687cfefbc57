/* DLPack tensor exchange structs, as far as Weft uses them.
 *
 * This restates the public binary layout of the DLPack specification
 * (https://dmlc.github.io/dlpack/latest/, C header "dlpack.h", versions 0.8
 * and 1.0); it is not a copy of that header. Only the layout matters: these
 * structs cross library boundaries (NumPy, PyTorch, CuPy), so field order,
 * types and enum values must stay exactly as the specification fixes them.
 * Names carry a weft_ prefix so this header can sit beside the official one. */
#ifndef WEFT_DLPACK_H_
#define WEFT_DLPACK_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* DLDeviceType: the values used by Weft and those named in its messages. */
enum weft_dl_device_type {
  WEFT_DL_CPU = 1,          /* kDLCPU <-> weft cpu(0) */
  WEFT_DL_CUDA = 2,         /* kDLCUDA <-> weft gpu(i) */
  WEFT_DL_CUDA_HOST = 3,    /* kDLCUDAHost <-> weft cpu_pinned(0) */
  WEFT_DL_OPENCL = 4,
  WEFT_DL_VULKAN = 7,
  WEFT_DL_METAL = 8,
  WEFT_DL_VPI = 9,
  WEFT_DL_ROCM = 10,
  WEFT_DL_ROCM_HOST = 11,
  WEFT_DL_EXT_DEV = 12,
  WEFT_DL_CUDA_MANAGED = 13,
  WEFT_DL_ONEAPI = 14
};

/* DLDataTypeCode */
enum weft_dl_type_code {
  WEFT_DL_INT = 0,
  WEFT_DL_UINT = 1,
  WEFT_DL_FLOAT = 2,
  WEFT_DL_OPAQUE_HANDLE = 3,
  WEFT_DL_BFLOAT = 4,
  WEFT_DL_COMPLEX = 5,
  WEFT_DL_BOOL = 6
};

/* DLDevice */
typedef struct {
  int32_t device_type; /* a weft_dl_device_type value (a C enum, int-sized) */
  int32_t device_id;
} weft_dl_device;

/* DLDataType */
typedef struct {
  uint8_t code;   /* a weft_dl_type_code value */
  uint8_t bits;
  uint16_t lanes; /* 1 for scalars; Weft accepts nothing else */
} weft_dl_data_type;

/* DLTensor. The element at index i lies at
 * (char*)data + byte_offset + sizeof(element) * sum(i[d] * strides[d]);
 * strides are in elements and may be NULL (compact row-major). */
typedef struct {
  void* data;
  weft_dl_device device;
  int32_t ndim;
  weft_dl_data_type dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} weft_dl_tensor;

/* DLManagedTensor (the unversioned form, Python capsule name "dltensor"):
 * the consumer calls deleter(self) once when it no longer needs dl_tensor. */
typedef struct weft_dl_managed_tensor {
  weft_dl_tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct weft_dl_managed_tensor* self);
} weft_dl_managed_tensor;

/* DLPackVersion and DLManagedTensorVersioned (DLPack 1.0, capsule name
 * "dltensor_versioned"). Weft exports this form too (weft_ndarray_to_dlpack_versioned);
 * it imports the unversioned form only. */
typedef struct {
  uint32_t major;
  uint32_t minor;
} weft_dl_pack_version;

#define WEFT_DL_FLAG_READ_ONLY (UINT64_C(1) << 0)
#define WEFT_DL_FLAG_IS_COPIED (UINT64_C(1) << 1)

typedef struct weft_dl_managed_tensor_versioned {
  weft_dl_pack_version version;
  void* manager_ctx;
  void (*deleter)(struct weft_dl_managed_tensor_versioned* self);
  uint64_t flags;
  weft_dl_tensor dl_tensor;
} weft_dl_managed_tensor_versioned;

#ifdef __cplusplus
}
#endif
#endif /* WEFT_DLPACK_H_ */
