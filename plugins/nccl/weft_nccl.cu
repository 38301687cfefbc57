// libweft_nccl.so: NCCL collectives for GPU gradients (weft_nccl_api.h),
// built only in the CUDA build (cmake/allreduce.cmake) against the
// nvidia-nccl-cu13 wheel's nccl.h and libnccl.so.2.
#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "weft_nccl_api.h"

static_assert(WEFT_NCCL_UNIQUE_ID_BYTES == NCCL_UNIQUE_ID_BYTES, "NCCL's unique id size changed");

namespace {

void SetErr(char* err, int errlen, const char* what, const char* why) {
  if (err != nullptr && errlen > 0) std::snprintf(err, static_cast<size_t>(errlen), "%s: %s", what, why);
}

bool NcclType(int dtype, ncclDataType_t* t) {
  switch (dtype) {
    case 0: *t = ncclFloat32; return true;
    case 1: *t = ncclFloat64; return true;
    case 2: *t = ncclInt32; return true;
    case 3: *t = ncclInt64; return true;
    case 4: *t = ncclUint8; return true;
    case 5: *t = ncclFloat16; return true;
    case 6: *t = ncclBfloat16; return true;
    default: return false;
  }
}

int GetUniqueId(void* id, char* err, int errlen) {
  ncclUniqueId uid;
  ncclResult_t rc = ncclGetUniqueId(&uid);
  if (rc != ncclSuccess) {
    SetErr(err, errlen, "ncclGetUniqueId", ncclGetErrorString(rc));
    return -1;
  }
  std::memcpy(id, &uid, sizeof uid);
  return 0;
}

int CommInit(const void* id, int rank, int size, int device, void** comm, char* err, int errlen) {
  cudaError_t ce = cudaSetDevice(device);
  if (ce != cudaSuccess) {
    SetErr(err, errlen, "cudaSetDevice", cudaGetErrorString(ce));
    return -1;
  }
  ncclUniqueId uid;
  std::memcpy(&uid, id, sizeof uid);
  ncclComm_t c = nullptr;
  ncclResult_t rc = ncclCommInitRank(&c, size, uid, rank);
  if (rc != ncclSuccess) {
    SetErr(err, errlen, "ncclCommInitRank", ncclGetErrorString(rc));
    return -1;
  }
  *comm = c;
  return 0;
}

int AllreduceSum(void* comm, void* buf, int64_t count, int dtype, void* stream, char* err, int errlen) {
  ncclDataType_t t;
  if (!NcclType(dtype, &t)) {
    SetErr(err, errlen, "ncclAllReduce", "unsupported dtype");
    return -1;
  }
  ncclResult_t rc = ncclAllReduce(buf, buf, static_cast<size_t>(count), t, ncclSum, static_cast<ncclComm_t>(comm),
                                  static_cast<cudaStream_t>(stream));
  if (rc != ncclSuccess) {
    SetErr(err, errlen, "ncclAllReduce", ncclGetErrorString(rc));
    return -1;
  }
  return 0;
}

int Wait(void* comm, void* stream, double timeout_s, char* err, int errlen) {
  auto c = static_cast<ncclComm_t>(comm);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    cudaError_t q = cudaStreamQuery(static_cast<cudaStream_t>(stream));
    if (q == cudaSuccess) return 0;
    if (q != cudaErrorNotReady) {
      SetErr(err, errlen, "cudaStreamQuery", cudaGetErrorString(q));
      return -1;
    }
    ncclResult_t async = ncclSuccess;
    ncclCommGetAsyncError(c, &async);
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (async != ncclSuccess || (timeout_s > 0 && waited > timeout_s)) {
      ncclCommAbort(c);  // unblocks the kernels waiting for a peer that is gone
      SetErr(err, errlen, "NCCL allreduce",
             async != ncclSuccess ? ncclGetErrorString(async) : "did not complete within WEFT_ALLREDUCE_TIMEOUT");
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

int CommDestroy(void* comm) { return ncclCommDestroy(static_cast<ncclComm_t>(comm)) == ncclSuccess ? 0 : -1; }

}  // namespace

extern "C" int weft_nccl_get_api(int version, struct weft_nccl_api* api) {
  if (version != WEFT_NCCL_API_VERSION || api == nullptr) return -1;
  api->version = WEFT_NCCL_API_VERSION;
  api->get_unique_id = GetUniqueId;
  api->comm_init = CommInit;
  api->allreduce_sum = AllreduceSum;
  api->wait = Wait;
  api->comm_destroy = CommDestroy;
  return 0;
}
