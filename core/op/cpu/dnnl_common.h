// Shared plumbing of the oneDNN kernels (dnnl_conv.cc, dnnl_pooling.cc): the
// CPU engine, thread count, plain memory descriptors, cached primitives and
// reorders into and out of the layouts a primitive prefers. Included only by
// files compiled with WEFT_USE_DNNL.
#pragma once
#include <dnnl.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/op/tensor_view.h"

namespace weft {
namespace dnnl_cpu {

using dnnl::memory;

dnnl::engine& CpuEngine();
// A stream of the calling thread, with oneDNN's OpenMP thread count set to
// WEFT_OMP_THREADS (default: all cores) for this thread.
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

// Memory over `data` in the primitive's layout: the user's buffer itself, or
// a reordered copy in thread scratch `slot` (inputs are reordered here).
memory InputMemory(const ArgLayout& a, void* data, int slot);
// Memory the primitive writes: the user's buffer, or thread scratch `slot`
// that FinishOutput reorders back into `data`.
memory OutputMemory(const ArgLayout& a, void* data, int slot);
void FinishOutput(const ArgLayout& a, const memory& m, void* data);

// The scratchpad a primitive asks for, in thread scratch `slot`.
memory Scratchpad(const dnnl::primitive_desc_base& pd, int slot);

// Buffer for an output written with kAddTo: the primitive writes into scratch
// (slot), then AddInto adds it to the user's buffer.
void* AddToBuffer(const TensorView& v, int slot);
void AddInto(const TensorView& v, const void* src);

}  // namespace dnnl_cpu
}  // namespace weft
