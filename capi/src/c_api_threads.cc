// C ABI: the process's thread budget (weft.runtime.thread_budget).
#include "capi/src/c_api_common.h"
#include "core/base/thread_budget.h"

using namespace weft;  // NOLINT: C ABI implementation file

extern "C" {

int weft_thread_budget(int* usable_cpus, int* cpu_workers, int* kernel_threads, int* blas_threads,
                       const char** cpu_workers_from, const char** kernel_threads_from,
                       const char** blas_threads_from, const char** wait_policy) {
  WEFT_API_BEGIN();
  // The budget is a function-local static: its strings live as long as the process.
  const ThreadBudget& b = ProcessThreadBudget();
  if (usable_cpus != nullptr) *usable_cpus = b.usable_cpus;
  if (cpu_workers != nullptr) *cpu_workers = b.cpu_workers;
  if (kernel_threads != nullptr) *kernel_threads = b.kernel_threads;
  if (blas_threads != nullptr) *blas_threads = b.blas_threads;
  if (cpu_workers_from != nullptr) *cpu_workers_from = b.cpu_workers_from.c_str();
  if (kernel_threads_from != nullptr) *kernel_threads_from = b.kernel_threads_from.c_str();
  if (blas_threads_from != nullptr) *blas_threads_from = b.blas_threads_from.c_str();
  if (wait_policy != nullptr) *wait_policy = b.wait_policy.c_str();
  WEFT_API_END();
}

}  // extern "C"
