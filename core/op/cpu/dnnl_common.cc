#if WEFT_USE_DNNL
#include "core/op/cpu/dnnl_common.h"

#include <dlfcn.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "core/base/env.h"
#include "core/base/error.h"
#include "core/op/cpu/nn_blas.h"
#include "core/op/op_util.h"

namespace weft {
namespace dnnl_cpu {
namespace {

// oneDNN's Debian build uses OpenMP, whose thread count is per calling
// thread; libgomp is already loaded with libdnnl, so look the setter up
// rather than link OpenMP into every object.
void SetOmpThreads() {
  using SetFn = void (*)(int);
  static const SetFn set = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  // The same count as every other kernel (op_util.h): OMP_NUM_THREADS=1 must
  // mean one thread here too.
  if (set != nullptr) set(KernelThreads());
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
  return eng;
}

dnnl::stream& ThreadStream() {
  thread_local dnnl::stream s(CpuEngine());
  thread_local bool threads_set = false;
  if (!threads_set) {
    SetOmpThreads();
    threads_set = true;
  }
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

memory InputMemory(const ArgLayout& a, void* data, int slot) {
  memory user(a.plain, CpuEngine(), data);
  if (!a.reorder) return user;
  memory m(a.prim, CpuEngine(), nn_cpu::ThreadScratch(slot, a.prim.get_size()));
  a.reorder->execute(ThreadStream(), user, m);
  return m;
}

memory OutputMemory(const ArgLayout& a, void* data, int slot) {
  if (!a.reorder) return memory(a.plain, CpuEngine(), data);
  return memory(a.prim, CpuEngine(), nn_cpu::ThreadScratch(slot, a.prim.get_size()));
}

void FinishOutput(const ArgLayout& a, const memory& m, void* data) {
  if (!a.reorder) return;
  memory user(a.plain, CpuEngine(), data), src = m;
  a.reorder->execute(ThreadStream(), src, user);
}

memory Scratchpad(const dnnl::primitive_desc_base& pd, int slot) {
  memory::desc md = pd.scratchpad_desc();
  return memory(md, CpuEngine(), nn_cpu::ThreadScratch(slot, std::max<size_t>(md.get_size(), 1)));
}

void* AddToBuffer(const TensorView& v, int slot) {
  return nn_cpu::ThreadScratch(slot, static_cast<size_t>(v.Size()) * sizeof(float));
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
