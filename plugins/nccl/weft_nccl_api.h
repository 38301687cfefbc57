/* The table of NCCL operations for GPU gradients (the CUDA build's
 * libweft_nccl.so, weft_nccl.cu), the GPU twin of weft_mpi_api.h: loaded on
 * demand, so libweft.so never links NCCL (Note [MPI as a plugin] in
 * docs/ARCHITECTURE.md). The unique id that makes the ranks one communicator
 * travels over the MPI plugin (rank 0 makes it, bcast gives it to all).
 *
 * Every call returns 0 or -1 with a message in err (errlen bytes). */
#ifndef WEFT_NCCL_API_H_
#define WEFT_NCCL_API_H_
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_NCCL_API_VERSION 1
#define WEFT_NCCL_UNIQUE_ID_BYTES 128

/* dtype codes: those of weft_mpi_api.h (WEFT_MPI_F32 ...) plus 5 = float16, 6 = bfloat16. */
struct weft_nccl_api {
  int version;
  /* Rank 0: the id every rank passes to comm_init (WEFT_NCCL_UNIQUE_ID_BYTES bytes). */
  int (*get_unique_id)(void* id, char* err, int errlen);
  /* Joins the communicator of `size` ranks on CUDA device `device`. */
  int (*comm_init)(const void* id, int rank, int size, int device, void** comm, char* err, int errlen);
  /* Queues the in-place sum of buf (device memory) on `stream` (a cudaStream_t) and returns. */
  int (*allreduce_sum)(void* comm, void* buf, int64_t count, int dtype, void* stream, char* err, int errlen);
  /* Waits for stream; a peer's failure (ncclCommGetAsyncError) or timeout_s passing aborts
   * the communicator and returns -1, so a dead rank never hangs the others' GPUs. */
  int (*wait)(void* comm, void* stream, double timeout_s, char* err, int errlen);
  int (*comm_destroy)(void* comm);
};

typedef int (*weft_nccl_get_api_fn)(int version, struct weft_nccl_api* api);
int weft_nccl_get_api(int version, struct weft_nccl_api* api);

#ifdef __cplusplus
}
#endif
#endif
