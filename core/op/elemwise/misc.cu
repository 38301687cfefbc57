// GPU kernels of the other elementwise operators: Cast and the converting
// copies (_backward_Cast, _copyto, and the loss family's BlockGrad, make_loss,
// MakeLoss, whose CPU kernels are common/copy_cpu's), clip, where and add_n.
// Each mirrors its CPU kernel (elemwise_cpu.cc, add_n_cpu.cc,
// core/op/common/copy_cpu.cc).
#include <string>
#include <type_traits>
#include <vector>

#include "core/op/elemwise/elemwise_math.cuh"
#include "core/op/common/gpu_kernel.h"
#include "core/op/elemwise/elemwise_gpu.h"

namespace weft {
namespace cuda {
namespace {

using elem::Acc;
using elem::ToStorage;

bool IsGpuDType(DType dt) {
  switch (dt) {
    case DType::kFloat32: case DType::kFloat64: case DType::kFloat16: case DType::kBFloat16:
    case DType::kUint8: case DType::kInt8:
    case DType::kInt32: case DType::kInt64: case DType::kBool:
      return true;
    default:
      return false;
  }
}

// ---- Cast and converting copies ----

// out[i] (req)= in[i] converted to D. copy_rule selects the kAddTo rule of
// tensor_cpu::ConvertCopy (between two dtypes: the sum in double, then
// converted) instead of CastKernel's (convert, then add in D).
template <typename S, typename D>
WEFT_HD inline void ConvertOne(const S* in, void* out_v, int64_t i, OpReq req, bool copy_rule) {
  D* out = static_cast<D*>(out_v);
  const Acc<S> s = static_cast<Acc<S>>(in[i]);
  if (req != OpReq::kAddTo) {
    out[i] = ToStorage<D>(s);
  } else if (copy_rule && !std::is_same<S, D>::value) {
    out[i] = ToStorage<D>(static_cast<double>(static_cast<Acc<D>>(out[i])) + static_cast<double>(s));
  } else {
    out[i] = elem::AddWrap(out[i], ToStorage<D>(s));
  }
}

// One kernel per source dtype; the destination dtype is a runtime switch
// (Note [Elementwise GPU instantiations]). dst was checked by the caller.
template <typename S>
void ConvertLaunch(const OpContext& ctx, const S* in, void* out, DType dst, int64_t n, OpReq req, bool copy_rule) {
  const int code = static_cast<int>(dst);
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    switch (static_cast<DType>(code)) {
      case DType::kFloat32: ConvertOne<S, float>(in, out, i, req, copy_rule); break;
      case DType::kFloat64: ConvertOne<S, double>(in, out, i, req, copy_rule); break;
      case DType::kFloat16: ConvertOne<S, gpu_half>(in, out, i, req, copy_rule); break;
      case DType::kBFloat16: ConvertOne<S, gpu_bf16>(in, out, i, req, copy_rule); break;
      case DType::kUint8: ConvertOne<S, uint8_t>(in, out, i, req, copy_rule); break;
      case DType::kInt8: ConvertOne<S, int8_t>(in, out, i, req, copy_rule); break;
      case DType::kInt32: ConvertOne<S, int32_t>(in, out, i, req, copy_rule); break;
      case DType::kInt64: ConvertOne<S, int64_t>(in, out, i, req, copy_rule); break;
      default: ConvertOne<S, bool>(in, out, i, req, copy_rule); break;
    }
  });
}

void ConvertGPU(const OpContext& ctx, const char* op, const TensorView& in, OpReq req, const TensorView& out,
                bool copy_rule) {
  WEFT_CHECK(in.Size() == out.Size(), kInternal)
      << op << ": input of " << in.Size() << " elements for an output of " << out.Size();
  if (req == OpReq::kNull || out.Size() == 0) return;
  if (!IsGpuDType(out.dtype)) UnsupportedDType(op, out.dtype);
  if (in.dtype == out.dtype && req != OpReq::kAddTo) {
    if (!IsGpuDType(in.dtype)) UnsupportedDType(op, in.dtype);
    const size_t bytes = static_cast<size_t>(out.Size()) * DTypeSize(out.dtype);
    if (in.data != out.data) gpu::MemcpyAsync(out.data, in.data, bytes, ctx.stream);
    return;
  }
  WEFT_GPU_ALL_SWITCH(in.dtype, op, S,
                      { ConvertLaunch<S>(ctx, in.ptr<S>(), out.data, out.dtype, out.Size(), req, copy_rule); });
}

// tensor_cpu::ConvertCopy's rules.
void CopyCompute(const OpContext& ctx, const char* op, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  ConvertGPU(ctx, op, in[0], req[0], out[0], true);
}

// ---- clip ----

template <typename T>
void ClipLaunch(const OpContext& ctx, const T* in, T* out, int64_t n, OpReq req, Acc<T> lo, Acc<T> hi) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    const Acc<T> x = static_cast<Acc<T>>(in[i]);
    elem::Put(out, i, req, ToStorage<T>(x > hi ? hi : (x < lo ? lo : x)));  // MXNet's order: a_max wins
  });
}

void Clip(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const double a_min = p.GetFloat("a_min"), a_max = p.GetFloat("a_max");
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "clip", T, {
    // The bounds are converted to the data type first, as MXNet's DType(a_min).
    ClipLaunch<T>(ctx, in[0].ptr<T>(), out[0].ptr<T>(), out[0].Size(), req[0],
                  static_cast<Acc<T>>(ToStorage<T>(a_min)), static_cast<Acc<T>>(ToStorage<T>(a_max)));
  });
}

// ---- where ----

// Whether cond[j] is nonzero, cond of any GPU dtype (checked by the caller).
WEFT_HD inline bool CondAt(const void* cond, int code, int64_t j) {
  switch (static_cast<DType>(code)) {
    case DType::kFloat32: return static_cast<const float*>(cond)[j] != 0.0f;
    case DType::kFloat64: return static_cast<const double*>(cond)[j] != 0.0;
    case DType::kFloat16: return static_cast<float>(static_cast<const gpu_half*>(cond)[j]) != 0.0f;
    case DType::kBFloat16: return static_cast<float>(static_cast<const gpu_bf16*>(cond)[j]) != 0.0f;
    case DType::kUint8: return static_cast<const uint8_t*>(cond)[j] != 0;
    case DType::kInt8: return static_cast<const int8_t*>(cond)[j] != 0;
    case DType::kInt32: return static_cast<const int32_t*>(cond)[j] != 0;
    case DType::kInt64: return static_cast<const int64_t*>(cond)[j] != 0;
    default: return static_cast<const bool*>(cond)[j];
  }
}

// inner: elements per condition value (1, or a row when cond is 1-D).
template <typename T>
void WhereLaunch(const OpContext& ctx, const void* cond, DType cond_dtype, const T* x, const T* y, T* out, int64_t n,
                 int64_t inner, OpReq req) {
  const int code = static_cast<int>(cond_dtype);
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    elem::Put(out, i, req, CondAt(cond, code, i / inner) ? x[i] : y[i]);
  });
}

void Where(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t n = out[0].Size(), rows = in[0].Size();
  if (n == 0 || rows == 0) return;
  if (!IsGpuDType(in[0].dtype)) UnsupportedDType("where", in[0].dtype);
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "where", T, {
    WhereLaunch<T>(ctx, in[0].data, in[0].dtype, in[1].ptr<T>(), in[2].ptr<T>(), out[0].ptr<T>(), n, n / rows,
                   req[0]);
  });
}

// ---- add_n ----

// Inputs summed per launch; more are summed in several launches through a
// scratch accumulator, in the same order as the CPU (one sum per element,
// left to right, then one store).
constexpr int kAddNPerLaunch = 16;

template <typename T>
struct AddNArgs {
  const T* in[kAddNPerLaunch];
  int count;
};

// The CPU's sum type: integers wrap through uint64, floats add in AccT<T>
// (float for the 16-bit types).
template <typename T>
using AddNSum = typename std::conditional<std::is_integral<T>::value, uint64_t, AccT<T>>::type;

template <typename T>
void AddNLaunch(const OpContext& ctx, AddNArgs<T> args, AddNSum<T>* acc, bool first, bool last, T* out, int64_t n,
                OpReq req) {
  using S = AddNSum<T>;
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    S sum = first ? S(0) : acc[i];
    for (int k = 0; k < args.count; ++k) sum += static_cast<S>(args.in[k][i]);
    if (!last) {
      acc[i] = sum;
    } else if (req == OpReq::kAddTo) {
      out[i] = static_cast<T>(static_cast<S>(out[i]) + sum);
    } else {
      out[i] = static_cast<T>(sum);
    }
  });
}

template <typename T>
void AddNT(const OpContext& ctx, const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const int64_t n = out.Size();
  const int num = static_cast<int>(in.size());
  AddNSum<T>* acc = nullptr;
  if (num > kAddNPerLaunch) acc = static_cast<AddNSum<T>*>(Scratch(ctx, static_cast<size_t>(n) * sizeof(AddNSum<T>)));
  for (int b = 0; b < num; b += kAddNPerLaunch) {
    AddNArgs<T> args{};
    args.count = num - b < kAddNPerLaunch ? num - b : kAddNPerLaunch;
    for (int k = 0; k < args.count; ++k) args.in[k] = in[static_cast<size_t>(b + k)].ptr<T>();
    AddNLaunch<T>(ctx, args, acc, b == 0, b + args.count == num, out.ptr<T>(), n, req);
  }
}

void AddN(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  WEFT_CHECK(out[0].dtype != DType::kBool, kDType) << "add_n: bool inputs are not supported";
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "add_n", T, {
    if constexpr (!std::is_same<T, bool>::value) AddNT<T>(ctx, in, req[0], out[0]);
  });
}

}  // namespace

WEFT_GPU_KERNEL_DECL(CastGpu) { ConvertGPU(ctx, "Cast", in[0], req[0], out[0], false); }

FCompute CopyGpu(const char* name) {
  return [name](const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    CopyCompute(ctx, name, in, req, out);
  };
}

WEFT_GPU_KERNEL_EXPORT(ClipGpu, Clip)
WEFT_GPU_KERNEL_EXPORT(WhereGpu, Where)
WEFT_GPU_KERNEL_EXPORT(AddNGpu, AddN)

}  // namespace cuda
}  // namespace weft
