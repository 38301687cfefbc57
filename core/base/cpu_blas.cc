// What the linked BLAS is, and (for the wheel's OpenBLAS) its threads on the
// OpenMP team.
//
// Note [BLAS threads]
// Note [One OpenMP team] in CMakeLists.txt: oneDNN, ParallelFor and the BLAS
// must share one set of threads, or the BLAS's idle threads, spinning for
// ~0.1 s after each call, fight the OpenMP workers for the cores. Debian's
// OpenMP build of OpenBLAS runs on libgomp itself. The scipy-openblas32 wheel
// is a pthreads build, so at load the library hands OpenBLAS a threads
// callback (openblas_set_threads_callback_function, OpenBLAS >= 0.3.27): a
// parallel BLAS call gives its per-thread jobs to RunJobs, which runs them on
// the calling thread's OpenMP team, and OpenBLAS's own pool never gets work.
// The thread count is set through the API to the budget's BLAS count: the
// kernels' team size, or OPENBLAS_NUM_THREADS when the user set it (Note
// [Thread budget] in core/base/thread_budget.cc).
// OpenBLAS's level-3 jobs wait on each other's packed panels, so all of a
// call's jobs must run at once: when the team cannot have that many threads
// (the call comes from inside a ParallelFor region, or a forked child whose
// OpenMP is limited to one thread, core/engine/fork_handlers.cc) they run on
// short-lived std::threads instead -- correct, if slower.
#if !WEFT_PORTABLE  // the dependency-free build has no BLAS
#include "core/base/cpu_blas.h"

#include <dlfcn.h>

#include <string>
#include <thread>
#include <vector>

#include "core/base/thread_budget.h"

#if defined(_OPENMP)
#include <omp.h>
#endif

#if defined(WEFT_BLAS_SYMBOL_PREFIX_SCIPY)
#define WEFT_OPENBLAS(name) scipy_openblas_##name
#else
extern "C" {
// In every OpenBLAS's cblas.h; declared here for the older headers that lack them.
char* openblas_get_config(void);
char* openblas_get_corename(void);
int openblas_get_num_threads(void);
void openblas_set_num_threads(int);
}
#define WEFT_OPENBLAS(name) openblas_##name
#endif

namespace weft {
namespace cpu_blas {
namespace {

#if defined(WEFT_BLAS_SYMBOL_PREFIX_SCIPY) && defined(_OPENMP)
void RunOnThreads(openblas_dojob_callback dojob, int numjobs, char* jobs, size_t size, int data) {
  std::vector<std::thread> helpers;
  helpers.reserve(numjobs - 1);
  for (int i = 1; i < numjobs; ++i) helpers.emplace_back([=] { dojob(i, jobs + i * size, data); });
  dojob(0, jobs, data);
  for (auto& t : helpers) t.join();
}

// OpenBLAS's threads callback: run jobs [0, numjobs) concurrently, job i as
// dojob(i, jobdata + i * elsize, dojob_data), and return when all are done
// (`sync`: OpenBLAS only calls it synchronously).
void RunJobs(int sync, openblas_dojob_callback dojob, int numjobs, size_t elsize, void* jobdata, int dojob_data) {
  (void)sync;
  char* jobs = static_cast<char*>(jobdata);
  if (numjobs <= 1) {
    if (numjobs == 1) dojob(0, jobs, dojob_data);
    return;
  }
  if (!omp_in_parallel() && omp_get_max_threads() >= numjobs) {
    bool short_team = false;
#pragma omp parallel num_threads(numjobs)
    {
      if (omp_get_num_threads() == numjobs) {
        int i = omp_get_thread_num();
        dojob(i, jobs + i * elsize, dojob_data);
      } else if (omp_get_thread_num() == 0) {
        short_team = true;  // none ran: the team is too small to run them at once
      }
    }
    if (!short_team) return;
  }
  RunOnThreads(dojob, numjobs, jobs, elsize, dojob_data);
}
#endif

// At load, before any kernel calls the BLAS (the callback must be set first).
const bool g_threads_set = [] {
#if defined(WEFT_BLAS_SYMBOL_PREFIX_SCIPY) && defined(_OPENMP)
  WEFT_OPENBLAS(set_threads_callback_function)(RunJobs);
#endif
  // OPENBLAS_NUM_THREADS, when set, wins; else the kernels' team size (Note [Thread budget]).
  WEFT_OPENBLAS(set_num_threads)(ProcessThreadBudget().blas_threads);
  return true;
}();

std::string LibraryPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cblas_sgemm), &info) != 0 && info.dli_fname != nullptr) return info.dli_fname;
  return "";
}

}  // namespace

Info GetInfo() {
  (void)g_threads_set;
  static const std::string library = LibraryPath();
  Info i{};
  i.name = "OpenBLAS";
  i.config = WEFT_OPENBLAS(get_config)();
  i.kernel = WEFT_OPENBLAS(get_corename)();
  i.library = library.c_str();
#if defined(WEFT_BLAS_SYMBOL_PREFIX_SCIPY) && defined(_OPENMP)
  i.threading = "openmp-callback";
#else
  i.threading = std::string(i.config).find("USE_OPENMP") != std::string::npos ? "openmp" : "pthreads";
#endif
  i.threads = WEFT_OPENBLAS(get_num_threads)();
  return i;
}

}  // namespace cpu_blas
}  // namespace weft
#endif  // !WEFT_PORTABLE
