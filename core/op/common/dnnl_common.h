// Shared plumbing of the oneDNN kernels (dnnl_conv.cc, dnnl_pooling.cc): the
// CPU engine, thread count, plain memory descriptors, cached primitives and
// reorders into and out of the layouts a primitive prefers. Included only by
// files compiled with WEFT_USE_DNNL.
#pragma once
#include <dnnl.hpp>

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace dnnl_cpu {

using dnnl::memory;

// The CPU engine. Both set the calling thread's OpenMP thread count to
// KernelThreads() (the thread budget's kernel_threads) the first time the
// thread calls them: oneDNN fixes a primitive's team when it is created
// (Note [oneDNN threads are fixed at creation] in dnnl_common.cc).
dnnl::engine& CpuEngine();
// A stream of the calling thread.
dnnl::stream& ThreadStream();

// Plain row-major descriptor of `dims` (ncw/nchw/ncdhw, x, oihw, goihw, ...).
memory::desc PlainDesc(const memory::dims& dims);

// Primitives built once per key and reused (they are immutable and may run
// on several threads at once; scratchpads are per call). make() is called
// under the cache lock the first time a key is seen.
std::shared_ptr<void> CachedObject(const std::string& key, const std::function<std::shared_ptr<void>()>& make);
template <typename T>
std::shared_ptr<T> Cached(const std::string& key, const std::function<std::shared_ptr<T>()>& make) {
  return std::static_pointer_cast<T>(CachedObject(key, [&]() { return std::static_pointer_cast<void>(make()); }));
}

// A primitive's view of one argument: its preferred descriptor and, when it
// differs from the plain one, the reorder between them (direction fixed at
// creation: into the primitive for inputs, out of it for outputs).
struct ArgLayout {
  memory::desc plain, prim;
  std::shared_ptr<dnnl::reorder> reorder;  // null: the primitive takes the plain layout
  ArgLayout() = default;
  ArgLayout(const memory::desc& plain_md, const memory::desc& prim_md, bool is_input);
};

// Scratch of one kernel call: every buffer the call needs at once (reordered
// arguments, the primitive's scratchpad, an add-to output, small per-channel
// arrays), carved out of one grow-only block owned by the calling thread.
// See Note [One scratch block per call] in dnnl_common.cc. One per thread at a
// time (a second one while the first lives is an internal error); the
// pointers are valid while it lives.
class CallScratch {
 public:
  static constexpr size_t kMaxParts = 8;
  // One part per entry of `bytes` (0 is allowed: a valid pointer to no bytes).
  explicit CallScratch(std::initializer_list<size_t> bytes);
  ~CallScratch();
  CallScratch(const CallScratch&) = delete;
  CallScratch& operator=(const CallScratch&) = delete;
  void* operator[](size_t i) const { return parts_[i]; }
  float* floats(size_t i) const { return static_cast<float*>(parts_[i]); }

 private:
  void* parts_[kMaxParts] = {};
};

// Bytes argument `a` needs in scratch: its reordered copy, or none.
size_t ScratchBytes(const ArgLayout& a);
// Bytes of the scratchpad a primitive asks for.
size_t ScratchpadBytes(const dnnl::primitive_desc_base& pd);

// Memory over `data` in the primitive's layout: the user's buffer itself, or
// a reordered copy in `scratch` (ScratchBytes(a) bytes; inputs are reordered here).
memory InputMemory(const ArgLayout& a, void* data, void* scratch);
// Memory the primitive writes: the user's buffer, or `scratch` (ScratchBytes(a)
// bytes) that FinishOutput reorders back into `data`.
memory OutputMemory(const ArgLayout& a, void* data, void* scratch);
void FinishOutput(const ArgLayout& a, const memory& m, void* data);

// The scratchpad a primitive asks for, at `scratch` (ScratchpadBytes(pd) bytes).
memory Scratchpad(const dnnl::primitive_desc_base& pd, void* scratch);

// Bytes of a float32 output written with kAddTo (or kNull) through scratch:
// the primitive writes there, then AddInto adds it to the user's buffer.
size_t AddToBytes(const TensorView& v, OpReq req);
void AddInto(const TensorView& v, const void* src);

}  // namespace dnnl_cpu
}  // namespace weft
