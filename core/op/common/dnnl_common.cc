#if WEFT_USE_DNNL
#include "core/op/common/dnnl_common.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "core/base/error.h"
#include "core/op/op_util.h"

namespace weft {
namespace dnnl_cpu {
namespace {

// Note [oneDNN threads are fixed at creation]
// oneDNN's Debian build uses OpenMP, whose thread count is an ICV of each
// calling thread (libgomp is already loaded with libdnnl, so the setter is
// looked up rather than OpenMP linked into every object). oneDNN reads it
// when a primitive (descriptor) is created, not when it runs: a convolution
// made on a thread whose count was never set keeps libgomp's default -- every
// CPU -- and opens a team that large at every execution, wherever it runs and
// whatever the budget says. Primitives are shared between threads
// (CachedObject), and the first is made before the first execution asks for
// ThreadStream, so the count is set on a thread before it makes anything
// (CpuEngine) as well as before it runs something (ThreadStream). Measured in
// weft-serve (digits CNN, 2 CPUs, kernel_threads 1): every convolution opened
// a 2-thread team on the engine worker, a futex wake and a barrier per call;
// the worker's CPU per request was 0.27 ms against 0.09 ms with
// OMP_NUM_THREADS=1, and the server's context switches 20 against 10-14.
void SetOmpThreadsOnce() {
  thread_local bool done = false;
  if (done) return;
  using SetFn = void (*)(int);
  static const SetFn set = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  // The same count as every other kernel (op_util.h): OMP_NUM_THREADS=1 must
  // mean one thread here too.
  if (set != nullptr) set(KernelThreads());
  done = true;
}

memory::format_tag PlainTag(size_t ndims) {
  using tag = memory::format_tag;
  switch (ndims) {
    case 1: return tag::a;
    case 2: return tag::ab;
    case 3: return tag::abc;
    case 4: return tag::abcd;
    case 5: return tag::abcde;
    case 6: return tag::abcdef;
    default: break;
  }
  WEFT_THROW(kInternal) << "oneDNN: no plain layout for " << ndims << " dims";
  return tag::undef;
}

}  // namespace

dnnl::engine& CpuEngine() {
  static dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  SetOmpThreadsOnce();  // before the caller makes a primitive: Note [oneDNN threads are fixed at creation]
  return eng;
}

dnnl::stream& ThreadStream() {
  thread_local dnnl::stream s(CpuEngine());
  SetOmpThreadsOnce();
  return s;
}

memory::desc PlainDesc(const memory::dims& dims) {
  return memory::desc(dims, memory::data_type::f32, PlainTag(dims.size()));
}

std::shared_ptr<void> CachedObject(const std::string& key, const std::function<std::shared_ptr<void>()>& make) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::shared_ptr<void>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  if (cache.size() >= 1024) cache.clear();  // a bound for programs with ever-changing shapes
  std::shared_ptr<void> obj = make();
  cache.emplace(key, obj);
  return obj;
}

ArgLayout::ArgLayout(const memory::desc& plain_md, const memory::desc& prim_md, bool is_input)
    : plain(plain_md), prim(prim_md) {
  if (plain == prim) return;
  auto pd = is_input ? dnnl::reorder::primitive_desc(CpuEngine(), plain, CpuEngine(), prim)
                     : dnnl::reorder::primitive_desc(CpuEngine(), prim, CpuEngine(), plain);
  reorder = std::make_shared<dnnl::reorder>(pd);
}

// Note [One scratch block per call]
// Reordered arguments, scratchpads and add-to outputs used to live in
// per-role thread buffers (nn_cpu::ThreadScratch slots: source, weights,
// destination, ...; the portable im2col path still uses them), each
// growing to the largest request ever made in its role. A thread then kept
// the SUM of the per-role maxima, although no call needs more than its own
// parts at once. ResNet-18 training at batch 16 (AVX2) kept three 49 MB
// slots: conv0's blocked output, the max-pool's blocked input and conv0's
// blocked output gradient (weight-gradient pass), all the size of one
// 16x64x112x112 activation, 148 MB with the rest, where the largest single
// call (the max-pool forward: input and output reorders) needs 61 MB.
// Each call now sizes all its parts up front and carves them out of one
// block per thread, grown only when a call needs more than any call before
// (freed before the larger one is taken, so growing does not hold both).
// No part outlives its call, so calls can share the block; CallScratch
// checks that a thread holds one call's parts at a time.
namespace {

struct ScratchBlock {
  void* data = nullptr;
  size_t size = 0;
  bool busy = false;
  ~ScratchBlock() { std::free(data); }
};

ScratchBlock& ThreadBlock() {
  thread_local ScratchBlock block;
  return block;
}

constexpr size_t kPartAlign = 64;  // a cache line; more than any oneDNN buffer asks

size_t RoundUp(size_t bytes) { return (bytes + kPartAlign - 1) / kPartAlign * kPartAlign; }

}  // namespace

CallScratch::CallScratch(std::initializer_list<size_t> bytes) {
  WEFT_CHECK(bytes.size() <= kMaxParts, kInternal)
      << "oneDNN call scratch: " << bytes.size() << " parts, at most " << kMaxParts;
  ScratchBlock& b = ThreadBlock();
  WEFT_CHECK(!b.busy, kInternal) << "oneDNN call scratch: this thread already holds another call's scratch";
  size_t total = 0;
  for (size_t n : bytes) total += RoundUp(n);
  total = std::max(total, kPartAlign);
  if (b.size < total) {
    std::free(b.data);  // first: the old and the new block are never held together
    b.data = nullptr;
    b.size = 0;
    void* p = std::aligned_alloc(kPartAlign, total);
    WEFT_CHECK(p != nullptr, kOutOfMemory) << "out of memory allocating " << total << " bytes of oneDNN scratch";
    b.data = p;
    b.size = total;
  }
  b.busy = true;
  char* at = static_cast<char*>(b.data);
  size_t i = 0;
  for (size_t n : bytes) {
    parts_[i++] = at;
    at += RoundUp(n);
  }
}

CallScratch::~CallScratch() { ThreadBlock().busy = false; }

size_t ScratchBytes(const ArgLayout& a) { return a.reorder ? a.prim.get_size() : 0; }

size_t ScratchpadBytes(const dnnl::primitive_desc_base& pd) { return pd.scratchpad_desc().get_size(); }

memory InputMemory(const ArgLayout& a, void* data, void* scratch) {
  memory user(a.plain, CpuEngine(), data);
  if (!a.reorder) return user;
  memory m(a.prim, CpuEngine(), scratch);
  a.reorder->execute(ThreadStream(), user, m);
  return m;
}

memory OutputMemory(const ArgLayout& a, void* data, void* scratch) {
  if (!a.reorder) return memory(a.plain, CpuEngine(), data);
  return memory(a.prim, CpuEngine(), scratch);
}

void FinishOutput(const ArgLayout& a, const memory& m, void* data) {
  if (!a.reorder) return;
  memory user(a.plain, CpuEngine(), data), src = m;
  a.reorder->execute(ThreadStream(), src, user);
}

memory Scratchpad(const dnnl::primitive_desc_base& pd, void* scratch) {
  return memory(pd.scratchpad_desc(), CpuEngine(), scratch);
}

size_t AddToBytes(const TensorView& v, OpReq req) {
  if (req == OpReq::kWriteTo || req == OpReq::kWriteInplace) return 0;
  return static_cast<size_t>(v.Size()) * sizeof(float);
}

void AddInto(const TensorView& v, const void* src) {
  const float* s = static_cast<const float*>(src);
  float* d = v.ptr<float>();
  ParallelFor(v.Size(), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) d[i] += s[i];
  });
}

}  // namespace dnnl_cpu
}  // namespace weft
#endif  // WEFT_USE_DNNL
