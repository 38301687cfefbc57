#include "core/ndarray/ndarray.h"

#include "core/base/checked_math.h"

#include <cstring>

#include "core/base/error.h"
#include "core/engine/inline_push.h"
#include "core/gpu/device_api.h"

namespace weft {

Chunk::Chunk(size_t bytes, Context c) : ctx(c) {
  storage = Storage::Alloc(bytes, c);
  var = Engine::Get()->NewVar();
}

Chunk::Chunk(void* dptr, size_t bytes, Context c, std::shared_ptr<void> owner)
    : ctx(c), external_owner(std::move(owner)) {
  storage.dptr = dptr;
  storage.size = bytes;
  storage.ctx = c;
  var = Engine::Get()->NewVar();
}

Chunk::~Chunk() {
  StorageHandle h = storage;
  // Memory goes back to the pool (or to its external owner) only after every
  // op pushed on the var is done.
  if (external_owner) {
    Engine::Get()->DeleteVar([owner = std::move(external_owner)]() mutable { owner.reset(); }, ctx, var);
    return;
  }
  // Host memory goes back to the pool on this thread when nothing is pending
  // on it (Note [Small ops run at push]): handing that to a worker cost more
  // than the free itself.
  RunIfReadyScope at_push(ctx.dev_type == DevType::kCPU);
  Engine::Get()->DeleteVar([h] { Storage::Free(h); }, ctx, var);
}

void NDArray::CheckNDim(const Shape& shape) {
  WEFT_CHECK(shape.ndim() <= kMaxNDim, kShape)
      << "shape " << shape.ToString() << " has " << shape.ndim() << " dimensions; arrays have at most " << kMaxNDim
      << " (the .params format's limit, so every array can be saved and loaded again)";
}

NDArray::NDArray(const Shape& shape, Context ctx, DType dtype) : shape_(shape), dtype_(dtype) {
  CheckNDim(shape);
  for (int i = 0; i < shape.ndim(); ++i)
    WEFT_CHECK(shape[i] >= 0, kShape) << "negative dimension in shape " << shape.ToString();
  WEFT_CHECK(DTypeSize(dtype) > 0, kDType) << "invalid dtype " << static_cast<int>(dtype);
  // Checked product: a huge shape must be an error, not a wrapped small size.
  int64_t bytes = static_cast<int64_t>(DTypeSize(dtype));
  for (int i = 0; i < shape.ndim(); ++i) {
    WEFT_CHECK(!__builtin_mul_overflow(bytes, shape[i], &bytes), kOutOfMemory)
        << "array of shape " << shape.ToString() << " and dtype " << DTypeName(dtype)
        << " is larger than the address space";
  }
  chunk_ = std::make_shared<Chunk>(static_cast<size_t>(bytes), ctx);
}

NDArray NDArray::WrapExternal(void* dptr, const Shape& shape, DType dtype, Context ctx,
                              std::shared_ptr<void> owner) {
  WEFT_CHECK(DTypeSize(dtype) > 0, kDType) << "invalid dtype " << static_cast<int>(dtype);
  NDArray r;
  r.shape_ = shape;
  r.dtype_ = dtype;
  r.chunk_ = std::make_shared<Chunk>(dptr, static_cast<size_t>(shape.Size()) * DTypeSize(dtype), ctx,
                                     std::move(owner));
  r.MarkSharedOutside();
  return r;
}

void* NDArray::data() const {
  if (!chunk_ || !chunk_->storage.dptr) return nullptr;
  return static_cast<char*>(chunk_->storage.dptr) + byte_offset_;
}

NDArray NDArray::Reshape(const Shape& shape) const {
  WEFT_CHECK(!is_none(), kInvalidArgument) << "reshape of a none array";
  WEFT_CHECK(shape.Size() == shape_.Size(), kShape)
      << "cannot reshape array of shape " << shape_.ToString() << " (" << shape_.Size()
      << " elements) to " << shape.ToString() << " (" << shape.Size() << " elements)";
  NDArray r = Detach();
  r.shape_ = shape;
  return r;
}

NDArray NDArray::Slice(int64_t begin, int64_t end) const {
  WEFT_CHECK(!is_none() && shape_.ndim() > 0, kShape) << "slice of a 0-d or none array";
  WEFT_CHECK(0 <= begin && begin <= end && end <= shape_[0], kShape)
      << "slice [" << begin << ", " << end << ") out of range for axis 0 of length " << shape_[0];
  NDArray r = Detach();
  int64_t row = shape_.ProdRange(1, shape_.ndim());
  r.shape_[0] = end - begin;
  r.byte_offset_ += begin * row * static_cast<int64_t>(DTypeSize(dtype_));
  return r;
}

NDArray NDArray::At(int64_t index) const {
  WEFT_CHECK(!is_none() && shape_.ndim() > 0, kShape) << "indexing a 0-d or none array";
  WEFT_CHECK(0 <= index && index < shape_[0], kShape)
      << "index " << index << " out of range for axis 0 of length " << shape_[0];
  NDArray r = Slice(index, index + 1);
  r.shape_ = Shape(shape_.dims().begin() + 1, shape_.dims().end());
  if (r.shape_.ndim() == 0) r.shape_ = Shape({1});  // MXNet legacy: a[i] of a 1-D array is (1,)
  return r;
}

NDArray NDArray::AsType(DType t) const {
  WEFT_CHECK(DTypeSize(t) == DTypeSize(dtype_), kDType)
      << "cannot view " << DTypeName(dtype_) << " as " << DTypeName(t);
  NDArray r = Detach();
  r.dtype_ = t;
  return r;
}

NDArray NDArray::ViewAs(const Shape& shape, DType dtype) const {
  WEFT_CHECK(!is_none(), kInvalidArgument) << "view of a none array";
  CheckNDim(shape);
  const int64_t need = CheckedBytes(shape.Size(), DTypeSize(dtype), "view of " + shape.ToString());
  WEFT_CHECK(need <= static_cast<int64_t>(Bytes()), kShape)
      << "view of " << shape.ToString() << " " << DTypeName(dtype) << " needs " << need << " bytes, buffer has "
      << Bytes();
  NDArray r = Detach();
  r.shape_ = shape;
  r.dtype_ = dtype;
  return r;
}

void NDArray::WaitToRead() const {
  if (chunk_) Engine::Get()->WaitForVar(chunk_->var);
}

void NDArray::WaitToWrite() const {
  if (!chunk_) return;
  // A no-op write orders us after every pending read and write of the var.
  Engine::Get()->Push([](RunContext) {}, ctx(), {}, {chunk_->var}, FnProperty::kNormal, 0, "wait_to_write");
  Engine::Get()->WaitForVar(chunk_->var);
}

void NDArray::SyncCopyFromHost(const void* src, size_t nbytes) const {
  WEFT_CHECK(!is_none(), kInvalidArgument) << "copy into a none array";
  WEFT_CHECK(nbytes == Bytes(), kShape) << "copy from host: got " << nbytes << " bytes, array of shape "
                                        << shape_.ToString() << " and dtype " << DTypeName(dtype_)
                                        << " needs " << Bytes();
  NDArray self = *this;
  // On a GPU the copy is queued on the copy lane's stream; the wait below
  // returns once the stream has run it, so src may be released afterwards.
  // On the CPU, an array nothing is reading or writing is copied right here
  // (Note [Small ops run at push]) rather than by the copy lane while this
  // thread waits: a served prediction's input is such an array, and the hand-off
  // to the lane and back cost two thread wake-ups per request in weft-serve.
  RunIfReadyScope at_push(ctx().dev_type == DevType::kCPU);
  Engine::Get()->Push(
      [self, src, nbytes](RunContext rctx) {
        if (nbytes == 0) return;
        if (rctx.stream != nullptr) {
          gpu::MemcpyAsync(self.data(), src, nbytes, rctx.stream);
        } else {
          std::memcpy(self.data(), src, nbytes);
        }
      },
      ctx(), {}, {chunk_->var}, FnProperty::kCopy, 0, "copy_from_host");
  Engine::Get()->WaitForVar(chunk_->var);
}

void NDArray::SyncCopyToHost(void* dst, size_t nbytes) const {
  WEFT_CHECK(!is_none(), kInvalidArgument) << "copy from a none array";
  WEFT_CHECK(nbytes == Bytes(), kShape) << "copy to host: got a buffer of " << nbytes
                                        << " bytes, array of shape " << shape_.ToString()
                                        << " and dtype " << DTypeName(dtype_) << " needs " << Bytes();
  WaitToRead();
  if (nbytes == 0) return;
  if (ctx().dev_type == DevType::kGPU) {
    gpu::MemcpySync(dst, data(), nbytes);  // the writer's stream is done: WaitToRead
  } else {
    std::memcpy(dst, data(), nbytes);
  }
}

namespace {
void CastCopy(const TensorView& src, const TensorView& dst) {
  int64_t n = src.Size();
  if (src.dtype == dst.dtype) {
    if (n) std::memmove(dst.data, src.data, static_cast<size_t>(n) * DTypeSize(src.dtype));
    return;
  }
  WEFT_DTYPE_SWITCH(src.dtype, S, {
    const S* s = src.ptr<S>();
    WEFT_DTYPE_SWITCH(dst.dtype, D, {
      D* d = dst.ptr<D>();
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<D>(static_cast<double>(s[i]));
    });
  });
}
}  // namespace

void NDArray::Copy(const NDArray& from, const NDArray& to) {
  WEFT_CHECK(!from.is_none() && !to.is_none(), kInvalidArgument) << "copy with a none array";
  WEFT_CHECK(from.shape() == to.shape(), kShape)
      << "copy: source shape " << from.shape().ToString() << " differs from destination shape "
      << to.shape().ToString();
  if (from.SharesChunk(to) && from.byte_offset_ == to.byte_offset_ && from.dtype_ == to.dtype_) return;
  FnProperty prop = from.ctx() == to.ctx() ? FnProperty::kNormal : FnProperty::kCopy;
  const bool on_gpu = from.ctx().dev_type == DevType::kGPU || to.ctx().dev_type == DevType::kGPU;
  if (!on_gpu) {
    Engine::Get()->Push([from, to](RunContext) { CastCopy(from.View(), to.View()); }, to.ctx(),
                        {from.var()}, {to.var()}, prop, 0, "copy");
    return;
  }
  // A copy that touches a GPU runs on that GPU's lane (the destination's when
  // both are GPUs) and is one queued memcpy; unified addressing picks the
  // direction. Casting is a kernel (Cast), not a copy.
  WEFT_CHECK(from.dtype() == to.dtype(), kDType)
      << "copy from " << from.ctx().ToString() << " to " << to.ctx().ToString() << " needs equal dtypes, got "
      << DTypeName(from.dtype()) << " and " << DTypeName(to.dtype()) << "; cast on one device first";
  const Context run_on = to.ctx().dev_type == DevType::kGPU ? to.ctx() : from.ctx();
  Engine::Get()->Push(
      [from, to](RunContext rctx) { gpu::MemcpyAsync(to.data(), from.data(), from.Bytes(), rctx.stream); },
      run_on, {from.var()}, {to.var()}, prop, 0, "copy");
}

NDArray NDArray::CopyTo(Context c) const {
  WEFT_CHECK(!is_none(), kInvalidArgument) << "copy of a none array";
  NDArray out(shape_, c, dtype_);
  Copy(*this, out);
  return out;
}

}  // namespace weft
