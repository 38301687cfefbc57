/* The table of MPI operations the allreduce KVStore calls (core/kvstore/
 * kvstore_allreduce.h). libweft_mpi.so (weft_mpi.c) is the only code linked
 * against MPI; libweft.so dlopens it when a store of type 'allreduce' is
 * created, so `import weft` never needs libmpi (Note [MPI as a plugin] in
 * docs/ARCHITECTURE.md). Plain C, no weft headers: the plugin depends only on
 * MPI and the core only on this file.
 *
 * Every call returns 0 or -1 with a message in err (errlen bytes). A
 * collective that does not complete within timeout_s seconds (<= 0: never
 * times out) does not return: it aborts the whole job (MPI_Abort) after
 * printing which rank waited for what, so a dead or stuck rank never leaves
 * the others hanging. Buffers are reduced in place. */
#ifndef WEFT_MPI_API_H_
#define WEFT_MPI_API_H_
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_MPI_API_VERSION 1

enum weft_mpi_dtype { WEFT_MPI_F32 = 0, WEFT_MPI_F64 = 1, WEFT_MPI_I32 = 2, WEFT_MPI_I64 = 3, WEFT_MPI_U8 = 4 };

struct weft_mpi_api {
  int version;
  /* MPI_Init_thread(SERIALIZED) unless MPI is already initialised; safe to call again. */
  int (*init)(int* rank, int* size, char* err, int errlen);
  /* Sum over all ranks, in place. */
  int (*allreduce_sum)(void* buf, int64_t count, int dtype, double timeout_s, char* err, int errlen);
  /* Rank root's bytes to every rank. */
  int (*bcast)(void* buf, int64_t bytes, int root, double timeout_s, char* err, int errlen);
  /* recv (size * bytes) gets every rank's `bytes` from send, in rank order. */
  int (*allgather)(const void* send, void* recv, int64_t bytes, double timeout_s, char* err, int errlen);
  int (*barrier)(double timeout_s, char* err, int errlen);
  /* Prints reason to stderr and ends every rank of the job (does not return). */
  void (*abort_job)(const char* reason, int code);
};

/* Fills *api; returns 0, or -1 when the plugin and the caller disagree on WEFT_MPI_API_VERSION. */
typedef int (*weft_mpi_get_api_fn)(int version, struct weft_mpi_api* api);
int weft_mpi_get_api(int version, struct weft_mpi_api* api);

#ifdef __cplusplus
}
#endif
#endif
