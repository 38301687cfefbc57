/* libweft_mpi.so: the allreduce KVStore's MPI calls (weft_mpi_api.h). Built
 * only when CMake finds MPI (cmake/allreduce.cmake); loaded by libweft.so on
 * demand. Collectives are the nonblocking ones (MPI_Iallreduce, ...) polled
 * with MPI_Test, so a wait can time out: MPI's blocking calls cannot, and a
 * rank stuck in one would hang the job forever when a peer stops calling. */
#include <arpa/inet.h>
#include <limits.h>
#include <mpi.h>
#include <netdb.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft_mpi_api.h"

static MPI_Comm g_comm = MPI_COMM_NULL; /* a duplicate of WORLD: the user's own MPI traffic never mixes with ours */
static int g_rank = 0, g_size = 1;
static int g_we_initialised = 0;
static unsigned long long g_calls = 0; /* collectives issued: named in a timeout message */

static void set_err(char* err, int errlen, const char* what, int rc) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (rc != MPI_SUCCESS) MPI_Error_string(rc, text, &len);
  if (err && errlen > 0) snprintf(err, (size_t)errlen, "%s: %s", what, rc == MPI_SUCCESS ? "failed" : text);
}

static void finalize_at_exit(void) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (g_comm != MPI_COMM_NULL) MPI_Comm_free(&g_comm);
  MPI_Finalize();
}

static void abort_job(const char* reason, int code) {
  fprintf(stderr, "weft allreduce: rank %d of %d: %s; ending the job on every rank\n", g_rank, g_size, reason);
  fflush(stderr);
  MPI_Abort(g_comm != MPI_COMM_NULL ? g_comm : MPI_COMM_WORLD, code);
  _Exit(code); /* MPI_Abort does not return; if it did, this rank still must not go on */
}

/* Note [Collectives transport]: only the job talks to the job (issue 22).
 * Open MPI 4.1's TCP transport (btl tcp) listens on the wildcard address
 * whatever btl_tcp_if_include says (it only chooses the interfaces it
 * advertises and dials), so a job whose ranks all run on one host is given
 * the shared-memory transport alone (btl self,vader): then no rank listens on
 * any network socket at all (tests/python/test_kvstore_allreduce.py checks
 * /proc/net/tcp). A job across hosts keeps TCP on the configured interface:
 * WEFT_NODE_HOST's IPv4 address (the one the parameter server binds to) as
 * btl_tcp_if_include ADDR/32. A choice of the user's (mpirun --mca, or an
 * OMPI_MCA_ variable) always wins; both only take effect before MPI_Init. */
static void choose_transport(void) {
  const char* world = getenv("OMPI_COMM_WORLD_SIZE");
  const char* local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (!getenv("OMPI_MCA_btl") && world && local && strcmp(world, local) == 0) setenv("OMPI_MCA_btl", "self,vader", 0);
  const char* host = getenv("WEFT_NODE_HOST");
  if (!host || !*host || getenv("OMPI_MCA_btl_tcp_if_include") || getenv("OMPI_MCA_btl_tcp_if_exclude")) return;
  struct in_addr addr;
  char ip[INET_ADDRSTRLEN] = {0};
  if (inet_pton(AF_INET, host, &addr) == 1) {
    snprintf(ip, sizeof ip, "%s", host);
  } else {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    if (getaddrinfo(host, NULL, &hints, &res) != 0 || res == NULL) return; /* MPI's own choice, as before */
    inet_ntop(AF_INET, &((struct sockaddr_in*)res->ai_addr)->sin_addr, ip, sizeof ip);
    freeaddrinfo(res);
  }
  char cidr[INET_ADDRSTRLEN + 4];
  snprintf(cidr, sizeof cidr, "%s/32", ip);
  setenv("OMPI_MCA_btl_tcp_if_include", cidr, 0);
}

static int init(int* rank, int* size, char* err, int errlen) {
  int initialised = 0, provided = 0, rc;
  MPI_Initialized(&initialised);
  if (!initialised) {
    choose_transport();
    rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
    if (rc != MPI_SUCCESS) {
      set_err(err, errlen, "MPI_Init_thread", rc);
      return -1;
    }
    g_we_initialised = 1;
    atexit(finalize_at_exit);
  } else {
    MPI_Query_thread(&provided);
  }
  if (provided < MPI_THREAD_SERIALIZED) {
    if (err && errlen > 0)
      snprintf(err, (size_t)errlen, "MPI was initialised with thread level %d; weft calls MPI from its "
               "communication thread and needs MPI_THREAD_SERIALIZED or more", provided);
    return -1;
  }
  if (g_comm == MPI_COMM_NULL) {
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &g_comm);
    if (rc != MPI_SUCCESS) {
      set_err(err, errlen, "MPI_Comm_dup", rc);
      return -1;
    }
    MPI_Comm_set_errhandler(g_comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(g_comm, &g_rank);
    MPI_Comm_size(g_comm, &g_size);
  }
  *rank = g_rank;
  *size = g_size;
  return 0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Polls req until done. Spins for the first 200 us (small messages finish
 * there), then yields the core between polls (ranks may share cores with the
 * engine's compute threads), then sleeps 50 us between polls after 20 ms. */
static int wait_request(MPI_Request* req, double timeout_s, const char* what, int64_t bytes) {
  const double start = now_s();
  int flag = 0;
  unsigned long polls = 0;
  for (;;) {
    int rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    if (flag) return MPI_SUCCESS;
    ++polls;
    if ((polls & 63) != 0) continue;
    double waited = now_s() - start;
    if (timeout_s > 0 && waited > timeout_s) {
      char reason[512];
      snprintf(reason, sizeof reason,
               "%s #%llu (%lld bytes) did not complete within %.0f s (WEFT_ALLREDUCE_TIMEOUT): another rank "
               "died, hangs, or stopped calling the same collectives", what, g_calls, (long long)bytes, timeout_s);
      abort_job(reason, 3);
    }
    if (waited > 0.02) {
      struct timespec pause = {0, 50000};
      nanosleep(&pause, NULL);
    } else if (waited > 0.0002) {
      sched_yield();
    }
  }
}

static MPI_Datatype mpi_type(int dtype, int* esize) {
  switch (dtype) {
    case WEFT_MPI_F32: *esize = 4; return MPI_FLOAT;
    case WEFT_MPI_F64: *esize = 8; return MPI_DOUBLE;
    case WEFT_MPI_I32: *esize = 4; return MPI_INT32_T;
    case WEFT_MPI_I64: *esize = 8; return MPI_INT64_T;
    case WEFT_MPI_U8: *esize = 1; return MPI_UINT8_T;
    default: *esize = 0; return MPI_DATATYPE_NULL;
  }
}

/* MPI counts are int: longer buffers go in pieces of at most 1 Gi elements. */
#define WEFT_MPI_MAX_COUNT ((int64_t)1 << 30)

static int allreduce_sum(void* buf, int64_t count, int dtype, double timeout_s, char* err, int errlen) {
  int esize = 0;
  MPI_Datatype t = mpi_type(dtype, &esize);
  if (t == MPI_DATATYPE_NULL) {
    if (err && errlen > 0) snprintf(err, (size_t)errlen, "allreduce: unsupported dtype code %d", dtype);
    return -1;
  }
  for (int64_t done = 0; done < count;) {
    int n = (int)(count - done < WEFT_MPI_MAX_COUNT ? count - done : WEFT_MPI_MAX_COUNT);
    MPI_Request req;
    ++g_calls;
    int rc = MPI_Iallreduce(MPI_IN_PLACE, (char*)buf + done * esize, n, t, MPI_SUM, g_comm, &req);
    if (rc == MPI_SUCCESS) rc = wait_request(&req, timeout_s, "allreduce", (int64_t)n * esize);
    if (rc != MPI_SUCCESS) {
      set_err(err, errlen, "MPI_Iallreduce", rc);
      return -1;
    }
    done += n;
  }
  return 0;
}

static int bcast(void* buf, int64_t bytes, int root, double timeout_s, char* err, int errlen) {
  for (int64_t done = 0; done < bytes;) {
    int n = (int)(bytes - done < WEFT_MPI_MAX_COUNT ? bytes - done : WEFT_MPI_MAX_COUNT);
    MPI_Request req;
    ++g_calls;
    int rc = MPI_Ibcast((char*)buf + done, n, MPI_BYTE, root, g_comm, &req);
    if (rc == MPI_SUCCESS) rc = wait_request(&req, timeout_s, "broadcast", n);
    if (rc != MPI_SUCCESS) {
      set_err(err, errlen, "MPI_Ibcast", rc);
      return -1;
    }
    done += n;
  }
  return 0;
}

static int allgather(const void* send, void* recv, int64_t bytes, double timeout_s, char* err, int errlen) {
  if (bytes > INT_MAX) {
    if (err && errlen > 0) snprintf(err, (size_t)errlen, "allgather: %lld bytes per rank is too many", (long long)bytes);
    return -1;
  }
  MPI_Request req;
  ++g_calls;
  int rc = MPI_Iallgather(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, g_comm, &req);
  if (rc == MPI_SUCCESS) rc = wait_request(&req, timeout_s, "allgather", bytes);
  if (rc != MPI_SUCCESS) {
    set_err(err, errlen, "MPI_Iallgather", rc);
    return -1;
  }
  return 0;
}

static int barrier(double timeout_s, char* err, int errlen) {
  MPI_Request req;
  ++g_calls;
  int rc = MPI_Ibarrier(g_comm, &req);
  if (rc == MPI_SUCCESS) rc = wait_request(&req, timeout_s, "barrier", 0);
  if (rc != MPI_SUCCESS) {
    set_err(err, errlen, "MPI_Ibarrier", rc);
    return -1;
  }
  return 0;
}

int weft_mpi_get_api(int version, struct weft_mpi_api* api) {
  if (version != WEFT_MPI_API_VERSION || api == NULL) return -1;
  api->version = WEFT_MPI_API_VERSION;
  api->init = init;
  api->allreduce_sum = allreduce_sum;
  api->bcast = bcast;
  api->allgather = allgather;
  api->barrier = barrier;
  api->abort_job = abort_job;
  return 0;
}
