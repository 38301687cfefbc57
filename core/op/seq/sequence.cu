// GPU kernels of the sequence ops (core/op/seq/sequence.cc: SequenceMask,
// SequenceLast and their gradients). The rules follow core/op/seq/sequence_cpu.cc;
// sequence lengths of any dtype are first converted to float64 in scratch memory.
#include <cstdint>
#include <string>
#include <vector>

#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

// ---- sequences ----

// data is (T, B, rest...) for axis 0, (B, T, rest...) for axis 1.
struct SeqLayout {
  int64_t steps, batch, rest;
  int axis;
  WEFT_HD int64_t Offset(int64_t t, int64_t b) const { return (axis == 0 ? t * batch + b : b * steps + t) * rest; }
  // The (t, b) of element e of data.
  WEFT_HD void StepOf(int64_t e, int64_t* t, int64_t* b) const {
    const int64_t q = e / rest;
    if (axis == 0) {
      *t = q / batch;
      *b = q % batch;
    } else {
      *b = q / steps;
      *t = q % steps;
    }
  }
};

int SeqAxis(const Params& p) {
  const int64_t a = p.GetInt("axis");
  WEFT_CHECK(a == 0 || a == 1, kInvalidArgument) << p.op()->name << ": parameter 'axis' must be 0 or 1, got " << a;
  return static_cast<int>(a);
}

SeqLayout LayoutOf(const Shape& s, int axis) {
  return SeqLayout{s[axis], s[1 - axis], s.ProdRange(2, s.ndim()), axis};
}

// Sequence b's length: the whole axis without lengths, else truncated toward
// zero and clipped to [0, steps] (LengthOf in the CPU kernels).
WEFT_HD inline int64_t LengthOf(const double* lengths, int64_t b, int64_t steps) {
  if (lengths == nullptr) return steps;
  const double v = lengths[b];
  if (!(v > 0)) return 0;
  return v >= static_cast<double>(steps) ? steps : static_cast<int64_t>(v);
}

// The lengths as float64 in scratch, or null when use_sequence_length is off.
const double* Lengths(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in) {
  if (!p.GetBool("use_sequence_length")) return nullptr;
  const TensorView& l = in.back();
  double* d = static_cast<double*>(Scratch(ctx, static_cast<size_t>(l.Size() > 0 ? l.Size() : 1) * sizeof(double)));
  ValuesToDoubleGPU(ctx, l, d);
  return d;
}

// The gradient of sequence_length is zero.
void ZeroLengthGrad(const OpContext& ctx, const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (out.size() > 1 && req[1] != OpReq::kNull && req[1] != OpReq::kAddTo && out[1].Size() > 0)
    gpu::MemsetAsync(out[1].data, 0, static_cast<size_t>(out[1].Size()) * DTypeSize(out[1].dtype), StreamOf(ctx));
}

template <typename T>
void SequenceMaskT(const OpContext& ctx, int64_t size, SeqLayout l, const double* lengths, const T* x, T value,
                   OpReq req, T* y) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    int64_t t, b;
    l.StepOf(e, &t, &b);
    Assign(y, e, req, t < LengthOf(lengths, b, l.steps) ? x[e] : value);
  });
}

void SequenceMaskRun(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, double value,
                     OpReq req, const TensorView& y) {
  if (req == OpReq::kNull || y.Size() == 0) return;
  const SeqLayout l = LayoutOf(in[0].shape, SeqAxis(p));
  const double* lengths = Lengths(ctx, p, in);
  WEFT_GPU_REAL_SWITCH(y.dtype, p.op()->name.c_str(), T, {
    SequenceMaskT<T>(ctx, y.Size(), l, lengths, in[0].ptr<T>(), static_cast<T>(value), req, y.ptr<T>());
  });
}

void SequenceMask(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  SequenceMaskRun(ctx, p, in, p.GetFloat("value"), req[0], out[0]);
}

void SequenceMaskBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  SequenceMaskRun(ctx, p, in, 0.0, req[0], out[0]);
  ZeroLengthGrad(ctx, req, out);
}

// y[b, r] (req)= x at step length[b] - 1 (at least 0).
template <typename T>
void SequenceLastT(const OpContext& ctx, int64_t size, SeqLayout l, const double* lengths, const T* x, OpReq req,
                   T* y) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    const int64_t b = e / l.rest, len = LengthOf(lengths, b, l.steps);
    Assign(y, e, req, x[l.Offset(len > 1 ? len - 1 : 0, b) + e % l.rest]);
  });
}

void SequenceLast(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const SeqLayout l = LayoutOf(in[0].shape, SeqAxis(p));
  const double* lengths = Lengths(ctx, p, in);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "SequenceLast", T, {
    SequenceLastT<T>(ctx, out[0].Size(), l, lengths, in[0].ptr<T>(), req[0], out[0].ptr<T>());
  });
}

// gx (req)= gy at each sequence's last step, zero elsewhere.
template <typename T>
void SequenceLastBackwardT(const OpContext& ctx, int64_t size, SeqLayout l, const double* lengths, const T* gy,
                           OpReq req, T* gx) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    int64_t t, b;
    l.StepOf(e, &t, &b);
    const int64_t len = LengthOf(lengths, b, l.steps);
    Assign(gx, e, req, t == (len > 1 ? len - 1 : 0) ? gy[b * l.rest + e % l.rest] : T(0));
  });
}

void SequenceLastBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] != OpReq::kNull && out[0].Size() > 0) {
    const SeqLayout l = LayoutOf(out[0].shape, SeqAxis(p));
    const double* lengths = Lengths(ctx, p, in);
    WEFT_GPU_REAL_SWITCH(out[0].dtype, "_backward_SequenceLast", T, {
      SequenceLastBackwardT<T>(ctx, out[0].Size(), l, lengths, in[0].ptr<T>(), req[0], out[0].ptr<T>());
    });
  }
  ZeroLengthGrad(ctx, req, out);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(SequenceMaskGpu, SequenceMask)  // SequenceMask
WEFT_GPU_KERNEL_EXPORT(BackwardSequenceMaskGpu, SequenceMaskBackward)  // _backward_SequenceMask
WEFT_GPU_KERNEL_EXPORT(SequenceLastGpu, SequenceLast)  // SequenceLast
WEFT_GPU_KERNEL_EXPORT(BackwardSequenceLastGpu, SequenceLastBackward)  // _backward_SequenceLast

}  // namespace cuda
}  // namespace weft
