#include "core/op/op_util.h"
#include "core/op/out_grad_check.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include "core/base/thread_budget.h"

namespace weft {

bool ShapeOfInput(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, size_t like) {
  if (!(*in)[like].known()) return false;
  AssignShape(out, 0, (*in)[like], p.op()->name + ": output");
  return (*in)[0].known();
}

bool TypeOfInput(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t src) {
  if ((*in)[src] == DType::kUnknown) return false;
  AssignType(out, 0, (*in)[src], p.op()->name + ": output");
  for (DType t : *in)
    if (t == DType::kUnknown) return false;
  return true;
}

std::vector<std::string> GradAndArgs(const Params& p) {
  std::vector<std::string> n = {"out_grad"};
  for (int64_t i = 0; i < p.GetInt("num_args"); ++i) n.push_back("arg" + std::to_string(i));
  return n;
}

std::vector<std::string> ArgGrads(const Params& p) {
  std::vector<std::string> n;
  for (int64_t i = 0; i < p.GetInt("num_args"); ++i) n.push_back("arg" + std::to_string(i) + "_grad");
  return n;
}

bool ShapesOfArgs(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  WEFT_CHECK(p.GetInt("num_args") >= 1, kInvalidArgument)
      << p.op()->name << ": parameter 'num_args' must be at least 1, got " << p.GetInt("num_args");
  bool known = (*in)[0].known();
  for (size_t i = 1; i < in->size(); ++i) {
    known = known && (*in)[i].known();
    AssignShape(out, i - 1, (*in)[i], p.op()->name + ": output " + std::to_string(i - 1));
  }
  return known;
}

void CheckOutGradOfForward(const Params& p, const char* forward, std::vector<Shape> fwd_in, const Shape& out_grad) {
  const OpDef* op = OpRegistry::Get()->Find(forward);
  WEFT_CHECK(op != nullptr, kInternal) << p.op()->name << ": forward op '" << forward << "' is not registered";
  const Params fp = Params::Parse(*op, p.raw());
  std::vector<Shape> outs(static_cast<size_t>(op->NumOutputs(fp)), Shape::Unknown());
  WEFT_CHECK(op->InferShape(fp, &fwd_in, &outs) && !outs.empty() && outs[0].known(), kShape)
      << p.op()->name << ": cannot infer " << forward << "'s output for the inputs given";
  WEFT_CHECK(outs[0] == out_grad, kShape) << p.op()->name << ": out_grad has shape " << out_grad.ToString() << ", "
                                          << forward << "'s output for these inputs has " << outs[0].ToString();
}


// The team size comes from the process's budget (Note [Thread budget] in
// core/base/thread_budget.cc): workers x team fit the usable CPUs.
int KernelThreads() { return ProcessThreadBudget().kernel_threads; }

// Note [ParallelFor threads]
// Where OpenMP is compiled in (the normal build: oneDNN runs on libgomp),
// ParallelFor runs on the calling thread's OpenMP team, the same threads
// oneDNN's convolutions use. Starting std::threads instead cost a thread
// start per call, and, worse, the new threads competed for the cores with
// the OpenMP workers still spinning after the previous convolution: on 2
// cores, ResNet-18 at batch 1 ran 20-30% slower with 2 threads than with 1.
// The dependency-free build has no OpenMP and starts threads.
//
// The per-op threshold (issue 38): a kernel passes its cost hint, the items
// times the work per item (1 for an add, more for transcendental math or an
// inner loop), and gets one thread per kWorkPerThread units, up to the team.
// A fork-join costs a few microseconds with spinning team threads and tens of
// microseconds with sleeping ones (Note [OpenMP wait policy] in
// weft/base.py), so each thread must get ~100 us of work: elementwise calls
// under 512k elements stay on the calling thread. (MXNet's grain is smaller,
// but its threads spin for 200 ms, KMP_BLOCKTIME.) This is the one place that
// decides; kernels never test sizes themselves.
constexpr int64_t kWorkPerThread = int64_t{1} << 18;

void ParallelFor(int64_t n, int64_t cost_per_item, const std::function<void(int64_t, int64_t)>& fn) {
  const int max_threads = KernelThreads();
  // Saturating: a huge n * cost must not wrap into a small (or negative) count.
  const int64_t cost = std::max<int64_t>(cost_per_item, 1);
  const int64_t most = std::numeric_limits<int64_t>::max();
  const int64_t work = n > most / cost ? most : n * cost;
  int threads = static_cast<int>(std::min<int64_t>(max_threads, work / kWorkPerThread));
  if (threads <= 1 || n < 2) {
    if (n > 0) fn(0, n);
    return;
  }
  threads = static_cast<int>(std::min<int64_t>(threads, n));
#if defined(_OPENMP)
  // The thread's own OpenMP limit caps it: the fork handler sets it to 1 in a
  // forked child (core/engine/fork_handlers.cc), whose inherited team is dead.
  threads = std::min(threads, omp_get_max_threads());
  if (threads <= 1) {
    fn(0, n);
    return;
  }
  const int64_t chunk = (n + threads - 1) / threads;
  // An exception must not leave an OpenMP region (that terminates the
  // process): the first one is kept and rethrown on the calling thread.
  std::exception_ptr error;
  std::mutex error_mu;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int t = 0; t < threads; ++t) {
    const int64_t b = t * chunk, e = std::min(n, b + chunk);
    if (b >= e) continue;
    try {
      fn(b, e);
    } catch (...) {
      std::lock_guard<std::mutex> lk(error_mu);
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
#else
  const int64_t chunk = (n + threads - 1) / threads;
  std::exception_ptr error;
  std::mutex error_mu;
  auto run = [&](int64_t b, int64_t e) {
    try {
      fn(b, e);
    } catch (...) {
      std::lock_guard<std::mutex> lk(error_mu);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    int64_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back(run, b, e);
  }
  run(0, std::min(n, chunk));
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
#endif
}

}  // namespace weft
