// GPU kernel of _fused_elemwise (core/op/fused/fused_elemwise.cc): the program of
// Note [Fused elementwise programs] (core/op/fused/fused_elemwise_cpu.h), parsed on
// the host by the CPU's parser, runs per element on the device.
//
// Note [Fused programs on GPU]
// A program that fits kFusedMaxInstr instructions, kFusedMaxInputs inputs and
// kFusedMaxSlots live values travels by value in the kernel's arguments, and
// each index evaluates the whole chain in registers: one read of each input,
// one write of the output. A larger program runs one launch per instruction
// with its values in scratch buffers of n elements (the CPU's slots, so
// buffers are reused as there), which gives the same results. Either way the
// output is written only by the last instruction, after every read of the
// index, so it may alias any input.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/op/fused/fused_elemwise_cpu.h"
#include "core/op/elemwise/elemwise_math.cuh"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

using fused_cpu::FusedProgram;
using fused_cpu::InstrKind;

static_assert(int(nnx_cpu::ActKind::kReLU) == elem::kActReLU && int(nnx_cpu::ActKind::kSigmoid) == elem::kActSigmoid &&
                  int(nnx_cpu::ActKind::kLogSigmoid) == elem::kActLogSigmoid &&
                  int(nnx_cpu::ActKind::kMish) == elem::kActMish && int(nnx_cpu::ActKind::kTanh) == elem::kActTanh &&
                  int(nnx_cpu::ActKind::kSoftReLU) == elem::kActSoftReLU &&
                  int(nnx_cpu::ActKind::kSoftSign) == elem::kActSoftSign,
              "elem::ActCode must follow nnx_cpu::ActKind");

constexpr int kFusedMaxInstr = 32;
constexpr int kFusedMaxInputs = 16;
constexpr int kFusedMaxSlots = 16;

// One instruction as a kernel argument.
struct GpuInstr {
  int kind;     // InstrKind
  int code;     // UnaryKind, BinaryKind or ActKind
  int args[3];  // value ids
  int num_args;
  int slot;  // the register / buffer of the value it defines
  double scalar;
  bool left;
};

// The result of one instruction at one element, computed in elem::Acc<T>
// and stored in T like the op it replaces; b and c are unused operands for
// instructions with fewer.
template <typename T>
WEFT_HD inline T EvalInstr(const GpuInstr& op, T a, T b, T c) {
  using C = elem::Acc<T>;
  const C ca = static_cast<C>(a), cb = static_cast<C>(b), cc = static_cast<C>(c);
  switch (static_cast<InstrKind>(op.kind)) {
    case InstrKind::kUnary: return static_cast<T>(elem::UnaryOp<C>(op.code, ca));
    case InstrKind::kBinary: return static_cast<T>(elem::BinaryOp<C>(op.code, ca, cb));
    case InstrKind::kScalar: {
      const C s = static_cast<C>(static_cast<T>(op.scalar));  // DType(scalar), as the _*_scalar ops
      return static_cast<T>(op.left ? elem::BinaryOp<C>(op.code, s, ca) : elem::BinaryOp<C>(op.code, ca, s));
    }
    case InstrKind::kAct: return static_cast<T>(elem::ActForward<C>(op.code, ca));
    case InstrKind::kActGrad: return static_cast<T>(elem::ActBackward<C>(op.code, ca, cb, cc));
    default: return a;  // kCopy
  }
}

template <typename T>
WEFT_HD inline void StoreOut(T* out, int64_t i, bool add, T v) {
  out[i] = add ? static_cast<T>(static_cast<elem::Acc<T>>(out[i]) + static_cast<elem::Acc<T>>(v)) : v;
}

template <typename T>
struct RegisterProgram {
  const T* in[kFusedMaxInputs];
  GpuInstr code[kFusedMaxInstr];
  int num_inputs;
  int num_instr;
};

template <typename T>
void RunInRegisters(const OpContext& ctx, const RegisterProgram<T>& prog, T* out, int64_t n, bool add) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    T vals[kFusedMaxSlots] = {};  // every slot is written before it is read (SSA order)
    const int ni = prog.num_inputs;
    auto value = [&](int v) -> T { return v < ni ? prog.in[v][i] : vals[prog.code[v - ni].slot]; };
    for (int k = 0; k < prog.num_instr; ++k) {
      const GpuInstr& op = prog.code[k];
      const T a = value(op.args[0]);
      const T b = op.num_args > 1 ? value(op.args[1]) : T(0);
      const T c = op.num_args > 2 ? value(op.args[2]) : T(0);
      const T r = EvalInstr(op, a, b, c);
      if (k + 1 == prog.num_instr) StoreOut(out, i, add, r);
      else vals[op.slot] = r;
    }
  });
}

// One instruction over n elements: operands and destination are arrays.
template <typename T>
void RunOne(const OpContext& ctx, GpuInstr op, const T* a, const T* b, const T* c, T* dst, int64_t n, bool add) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    StoreOut(dst, i, add, EvalInstr(op, a[i], b ? b[i] : T(0), c ? c[i] : T(0)));
  });
}

GpuInstr ToGpuInstr(const FusedProgram& p, size_t k) {
  const fused_cpu::FusedInstr& f = p.code[k];
  GpuInstr g{};
  g.kind = static_cast<int>(f.kind);
  g.code = f.code;
  g.num_args = f.num_args;
  for (int a = 0; a < 3; ++a) g.args[a] = f.args[a];
  g.slot = p.slot[k];
  g.scalar = f.scalar;
  g.left = f.scalar_left;
  return g;
}

template <typename T>
void FusedT(const OpContext& ctx, const FusedProgram& p, const std::vector<TensorView>& in, bool add,
            const TensorView& out) {
  const int64_t n = out.Size();
  const int num_instr = static_cast<int>(p.code.size());
  if (num_instr <= kFusedMaxInstr && p.num_inputs <= kFusedMaxInputs && p.num_slots <= kFusedMaxSlots) {
    RegisterProgram<T> prog{};
    prog.num_inputs = p.num_inputs;
    prog.num_instr = num_instr;
    for (int v = 0; v < p.num_inputs; ++v) prog.in[v] = in[static_cast<size_t>(v)].ptr<T>();
    for (int k = 0; k < num_instr; ++k) prog.code[k] = ToGpuInstr(p, static_cast<size_t>(k));
    RunInRegisters<T>(ctx, prog, out.ptr<T>(), n, add);
    return;
  }
  // Note [Fused programs on GPU]: one launch per instruction.
  T* buffers = static_cast<T*>(Scratch(ctx, static_cast<size_t>(p.num_slots) * static_cast<size_t>(n) * sizeof(T)));
  auto value = [&](int v) -> const T* {
    return v < p.num_inputs ? in[static_cast<size_t>(v)].ptr<T>()
                            : buffers + static_cast<int64_t>(p.slot[static_cast<size_t>(v - p.num_inputs)]) * n;
  };
  for (int k = 0; k < num_instr; ++k) {
    const GpuInstr op = ToGpuInstr(p, static_cast<size_t>(k));
    const bool last = k + 1 == num_instr;
    T* dst = last ? out.ptr<T>() : buffers + static_cast<int64_t>(op.slot) * n;
    RunOne<T>(ctx, op, value(op.args[0]), op.num_args > 1 ? value(op.args[1]) : nullptr,
              op.num_args > 2 ? value(op.args[2]) : nullptr, dst, n, last && add);
  }
}

// Programs parsed once per thread, as the CPU kernel's cache.
const FusedProgram& CachedProgram(const Params& p) {
  thread_local std::unordered_map<std::string, std::unique_ptr<FusedProgram>> cache;
  const std::string& text = p.GetString("program");
  const int num_inputs = static_cast<int>(p.GetInt("num_args"));
  auto it = cache.find(text);
  if (it != cache.end() && it->second->num_inputs == num_inputs) return *it->second;
  if (cache.size() >= 256) cache.clear();
  auto prog = std::make_unique<FusedProgram>(fused_cpu::ParseFusedProgram(text, num_inputs));
  return *(cache[text] = std::move(prog));
}

void FusedElemwise(const OpContext& ctx, const Params& params, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const FusedProgram& p = CachedProgram(params);
  WEFT_CHECK(static_cast<int>(in.size()) == p.num_inputs, kInvalidArgument)
      << "_fused_elemwise: " << in.size() << " inputs for a program over " << p.num_inputs;
  const bool add = req[0] == OpReq::kAddTo;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_fused_elemwise", T, { FusedT<T>(ctx, p, in, add, out[0]); });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(FusedElemwiseGpu, FusedElemwise)  // _fused_elemwise

}  // namespace cuda
}  // namespace weft
