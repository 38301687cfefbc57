// NDArray: a lazy, typed view over a chunk of device memory. The chunk owns the
// storage and one engine var; every operation on the array is pushed to the
// engine tagged with that var (docs/DESIGN.md "NDArray"). Views (reshape, slice on
// axis 0, At) share the chunk and therefore the var.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/context.h"
#include "core/base/dtype.h"
#include "core/base/shape.h"
#include "core/engine/engine.h"
#include "core/opdef/tensor_view.h"
#include "core/storage/storage.h"

namespace weft {

struct Node;

// Storage + var. Destroying the last reference frees both after pending ops.
struct Chunk {
  StorageHandle storage;
  VarHandle var = nullptr;
  Context ctx;
  // Set when the memory belongs to someone else (a DLPack import): then the
  // storage is not ours to free; dropping the owner releases it instead.
  std::shared_ptr<void> external_owner;
  // Set once the memory is shared with code outside the engine (a DLPack
  // import or export), whose writes no write stamp sees (Note [Write stamps]).
  std::atomic<bool> shared_outside{false};
  Chunk(size_t bytes, Context ctx);
  // Wraps bytes at dptr on ctx without allocating; owner is released after
  // the last pending op on the chunk.
  Chunk(void* dptr, size_t bytes, Context ctx, std::shared_ptr<void> owner);
  ~Chunk();
  Chunk(const Chunk&) = delete;
  Chunk& operator=(const Chunk&) = delete;
};

class NDArray {
 public:
  NDArray() = default;  // a "none" array
  // Allocates (uninitialised) storage for shape x dtype on ctx.
  NDArray(const Shape& shape, Context ctx, DType dtype);
  // A compact row-major array over memory owned elsewhere (no copy); `owner`
  // keeps that memory alive and is released when the chunk dies (DLPack import).
  static NDArray WrapExternal(void* dptr, const Shape& shape, DType dtype, Context ctx,
                              std::shared_ptr<void> owner);

  bool is_none() const { return chunk_ == nullptr; }
  const Shape& shape() const { return shape_; }
  DType dtype() const { return dtype_; }
  Context ctx() const { return chunk_ ? chunk_->ctx : Context(); }
  VarHandle var() const { return chunk_ ? chunk_->var : nullptr; }
  int64_t Size() const { return shape_.Size(); }
  // Within int64 for every array (its constructor and ViewAs check the product).
  size_t Bytes() const { return static_cast<size_t>(Size()) * DTypeSize(dtype_); }
  // The most dimensions an array may have (MXNet's .params format stores at most 32).
  static constexpr int kMaxNDim = 32;
  // Throws kShape for a shape with more than kMaxNDim dimensions.
  static void CheckNDim(const Shape& shape);
  int64_t byte_offset() const { return byte_offset_; }
  const std::shared_ptr<Chunk>& chunk() const { return chunk_; }
  // True when both arrays are views of the same chunk.
  bool SharesChunk(const NDArray& o) const { return chunk_ && chunk_ == o.chunk_; }

  // Raw pointer; valid only inside an engine op that lists var(), or after a wait.
  void* data() const;
  TensorView View() const { return TensorView{data(), dtype_, shape_}; }
  // Note [Write stamps] in core/engine/engine.h: the stamp of the chunk's var,
  // or 0 (unknown) for a none array and for memory shared outside the engine.
  // Call from an op that reads the array.
  uint64_t WriteStamp() const {
    if (!chunk_ || chunk_->shared_outside.load(std::memory_order_relaxed)) return 0;
    return Engine::Get()->WriteStamp(chunk_->var);
  }
  // Marks the memory as shared outside the engine (DLPack export).
  void MarkSharedOutside() const {
    if (chunk_) chunk_->shared_outside.store(true, std::memory_order_relaxed);
  }

  // Views sharing the chunk and var. Reshape keeps the element count (throws
  // kShape otherwise); Slice takes rows [begin, end) of axis 0; At(i) drops axis 0.
  NDArray Reshape(const Shape& shape) const;
  NDArray Slice(int64_t begin, int64_t end) const;
  NDArray At(int64_t index) const;
  // Same bytes seen as another dtype of equal size (used by loaders).
  NDArray AsType(DType t) const;
  // The first shape x dtype bytes of this array's memory (same chunk and var);
  // the executor places planned entries in shared buffers this way.
  NDArray ViewAs(const Shape& shape, DType dtype) const;

  // Waits until all pending writes (WaitToRead) or reads and writes (WaitToWrite)
  // have finished; rethrows a stored op error.
  void WaitToRead() const;
  void WaitToWrite() const;
  // Blocking copies between this array and host memory; nbytes must equal Bytes().
  void SyncCopyFromHost(const void* src, size_t nbytes) const;
  void SyncCopyToHost(void* dst, size_t nbytes) const;
  // Pushes a copy into a new array on ctx (the copy lane when devices differ).
  NDArray CopyTo(Context ctx) const;
  // Pushes a copy of `from` into `to`; shapes must match; dtype is converted.
  static void Copy(const NDArray& from, const NDArray& to);

  // Autograd (MXNet's NDArray::entry_): the recorded node output this array
  // is, or none. Set by Autograd when an op is recorded or a variable marked;
  // views and copies made by the methods above start without one.
  const std::shared_ptr<Node>& ag_node() const { return ag_node_; }
  uint32_t ag_index() const { return ag_index_; }
  void set_ag_entry(std::shared_ptr<Node> node, uint32_t index) {
    ag_node_ = std::move(node);
    ag_index_ = index;
  }
  NDArray Detach() const {
    NDArray r = *this;
    r.ag_node_.reset();
    return r;
  }

 private:
  std::shared_ptr<Chunk> chunk_;
  Shape shape_;
  DType dtype_ = DType::kFloat32;
  int64_t byte_offset_ = 0;
  std::shared_ptr<Node> ag_node_;
  uint32_t ag_index_ = 0;
};

}  // namespace weft
