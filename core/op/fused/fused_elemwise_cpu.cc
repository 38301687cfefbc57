// The fused elementwise interpreter: parsing (Note [Fused elementwise
// programs]) and the tiled kernel (Note [Fused elementwise tiles]).
#include "core/op/fused/fused_elemwise_cpu.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/base/error.h"
#include "core/op/act/activation_cpu.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace fused_cpu {
namespace {

using elemwise_cpu::BinaryKind;
using elemwise_cpu::UnaryKind;
using nnx_cpu::ActKind;

struct Named {
  const char* name;
  int code;
  int cost;  // rough work per element, for ParallelFor
};

const Named kActNames[] = {
    {"relu", int(ActKind::kReLU), 1},          {"sigmoid", int(ActKind::kSigmoid), 8},
    {"log_sigmoid", int(ActKind::kLogSigmoid), 12}, {"mish", int(ActKind::kMish), 16},
    {"tanh", int(ActKind::kTanh), 8},          {"softrelu", int(ActKind::kSoftReLU), 12},
    {"softsign", int(ActKind::kSoftSign), 2},
};

template <size_t N>
const Named* FindName(const Named (&table)[N], const std::string& s) {
  for (const Named& n : table)
    if (s == n.name) return &n;
  return nullptr;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t b = 0;
  while (true) {
    size_t e = s.find(sep, b);
    parts.push_back(s.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  return parts;
}

class Parser {
 public:
  Parser(const std::string& op, int num_inputs) : op_(op), num_inputs_(num_inputs) {}

  FusedInstr Parse(const std::string& text, int index) {
    text_ = text;
    const std::vector<std::string> f = Split(text, ':');
    const int defined = num_inputs_ + index;  // values an operand may name
    FusedInstr in;
    auto arity = [&](size_t lo, size_t hi) {
      if (f.size() < lo || f.size() > hi) Fail("wrong number of fields");
    };
    auto value = [&](const std::string& s) {
      const int v = static_cast<int>(Int(s));
      if (v < 0 || v >= defined) Fail("operand " + s + " names no earlier value");
      return v;
    };
    const std::string& k = f[0];
    if (k == "u" || k == "a") {
      arity(3, 3);
      in.kind = k == "u" ? InstrKind::kUnary : InstrKind::kAct;
      if (k == "u") {
        UnaryKind u;
        if (!elemwise_cpu::UnaryKindByName(f[1], &u)) Fail("unknown function '" + f[1] + "'");
        in.code = int(u);
        cost_ = elemwise_cpu::KindCost(u);
      } else {
        const Named* n = FindName(kActNames, f[1]);
        if (n == nullptr) Fail("unknown function '" + f[1] + "'");
        in.code = n->code;
        cost_ = n->cost;
      }
      in.args[0] = value(f[2]);
      in.num_args = 1;
    } else if (k == "b") {
      arity(4, 4);
      BinaryKind bk;
      if (!elemwise_cpu::BinaryKindByName(f[1], &bk)) Fail("unknown function '" + f[1] + "'");
      in.kind = InstrKind::kBinary;
      in.code = int(bk);
      cost_ = elemwise_cpu::KindCost(bk);
      in.args[0] = value(f[2]);
      in.args[1] = value(f[3]);
      in.num_args = 2;
    } else if (k == "s") {
      arity(5, 5);
      BinaryKind bk;
      if (!elemwise_cpu::BinaryKindByName(f[1], &bk)) Fail("unknown function '" + f[1] + "'");
      in.kind = InstrKind::kScalar;
      in.code = int(bk);
      cost_ = elemwise_cpu::KindCost(bk);
      in.args[0] = value(f[2]);
      in.num_args = 1;
      in.scalar = Float(f[3]);
      if (f[4] != "0" && f[4] != "1") Fail("scalar side must be 0 or 1");
      in.scalar_left = f[4] == "1";
    } else if (k == "g") {
      arity(4, 5);
      const Named* n = FindName(kActNames, f[1]);
      if (n == nullptr) Fail("unknown function '" + f[1] + "'");
      const bool needs_x = n->code == int(ActKind::kSoftSign) || n->code == int(ActKind::kMish);
      if (needs_x != (f.size() == 5)) Fail(needs_x ? "needs operands gy, y and x" : "needs operands gy and y");
      in.kind = InstrKind::kActGrad;
      in.code = n->code;
      cost_ = n->cost + 1;
      in.num_args = static_cast<int>(f.size()) - 2;
      for (int i = 0; i < in.num_args; ++i) in.args[i] = value(f[static_cast<size_t>(i) + 2]);
    } else if (k == "c") {
      arity(2, 2);
      in.kind = InstrKind::kCopy;
      cost_ = 1;
      in.args[0] = value(f[1]);
      in.num_args = 1;
    } else {
      Fail("unknown instruction kind '" + k + "'");
    }
    return in;
  }
  int cost() const { return cost_; }

 private:
  [[noreturn]] void Fail(const std::string& why) const {
    WEFT_THROW(kInvalidArgument) << op_ << ": bad program instruction '" << text_ << "': " << why
                                 << " (see Note [Fused elementwise programs])";
  }
  int64_t Int(const std::string& s) const {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
      Fail("expected a value number, got '" + s + "'");
    return std::atoll(s.c_str());
  }
  double Float(const std::string& s) const {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) Fail("expected a number, got '" + s + "'");
    return v;
  }

  std::string op_;
  int num_inputs_;
  std::string text_;
  int cost_ = 1;
};

// Run of one tile: operand pointers and the block loops.
template <typename T>
struct TileRunner {
  const FusedProgram& p;
  const std::vector<TensorView>& in;
  T* buf;
  DType dtype;
  TensorView v0, v1, v2, vo;  // reused views for the Activation kernels (no per-tile allocation)

  TileRunner(const FusedProgram& prog, const std::vector<TensorView>& inputs, T* buffers, DType dt)
      : p(prog), in(inputs), buf(buffers), dtype(dt) {
    for (TensorView* v : {&v0, &v1, &v2, &vo}) *v = TensorView{nullptr, dt, Shape{kFusedTile}};
  }

  T* Value(int v, int64_t off) const {
    return v < p.num_inputs ? in[static_cast<size_t>(v)].ptr<T>() + off
                            : buf + static_cast<int64_t>(p.slot[static_cast<size_t>(v - p.num_inputs)]) * kFusedTile;
  }

  // Evaluates the tile [off, off + n); the result goes to `dst` (the output,
  // or the last value's buffer for kAddTo). Returns where it is.
  void Run(int64_t off, int64_t n, T* out_tile) {
    if (vo.shape[0] != n)
      for (TensorView* v : {&v0, &v1, &v2, &vo}) v->shape[0] = n;
    const size_t last = p.code.size() - 1;
    for (size_t k = 0; k < p.code.size(); ++k) {
      const FusedInstr& ins = p.code[k];
      T* dst = k == last && out_tile != nullptr ? out_tile : Value(p.num_inputs + static_cast<int>(k), off);
      const T* a = Value(ins.args[0], off);
      switch (ins.kind) {
        case InstrKind::kUnary:
          elemwise_cpu::UnaryBlock(static_cast<UnaryKind>(ins.code), dtype, a, dst, n);
          break;
        case InstrKind::kBinary:
          elemwise_cpu::BinaryBlock(static_cast<BinaryKind>(ins.code), dtype, a, 1, Value(ins.args[1], off), 1, dst,
                                    n);
          break;
        case InstrKind::kScalar: {
          const T s = static_cast<T>(ins.scalar);  // DType(scalar), as the _*_scalar ops
          if (ins.scalar_left)
            elemwise_cpu::BinaryBlock(static_cast<BinaryKind>(ins.code), dtype, &s, 0, a, 1, dst, n);
          else
            elemwise_cpu::BinaryBlock(static_cast<BinaryKind>(ins.code), dtype, a, 1, &s, 0, dst, n);
          break;
        }
        case InstrKind::kAct:
          v0.data = const_cast<T*>(a);
          vo.data = dst;
          nnx_cpu::ActivationForward(static_cast<ActKind>(ins.code), v0, OpReq::kWriteTo, vo);
          break;
        case InstrKind::kActGrad:
          v0.data = const_cast<T*>(a);
          v1.data = Value(ins.args[1], off);
          v2.data = ins.num_args > 2 ? Value(ins.args[2], off) : nullptr;
          vo.data = dst;
          nnx_cpu::ActivationBackward(static_cast<ActKind>(ins.code), v0, v1, ins.num_args > 2 ? &v2 : nullptr,
                                      OpReq::kWriteTo, vo);
          break;
        case InstrKind::kCopy:
          if (dst != a) std::memmove(dst, a, static_cast<size_t>(n) * sizeof(T));
          break;
      }
    }
  }
};

template <typename T>
void ForwardT(const FusedProgram& p, const std::vector<TensorView>& in, bool add, const TensorView& out) {
  const int64_t n = out.Size();
  T* op = out.ptr<T>();
  const int64_t tiles = (n + kFusedTile - 1) / kFusedTile;
  const int last_value = p.num_inputs + static_cast<int>(p.code.size()) - 1;
  ParallelFor(tiles, kFusedTile * p.cost_per_element, [&](int64_t tb, int64_t te) {
    std::vector<T> buffers(static_cast<size_t>(std::max(p.num_slots, 1) * kFusedTile));
    TileRunner<T> run(p, in, buffers.data(), out.dtype);
    for (int64_t t = tb; t < te; ++t) {
      const int64_t off = t * kFusedTile, m = std::min(kFusedTile, n - off);
      if (!add) {
        run.Run(off, m, op + off);
        continue;
      }
      run.Run(off, m, nullptr);
      const T* r = run.Value(last_value, off);
      T* o = op + off;
      for (int64_t i = 0; i < m; ++i) o[i] = static_cast<T>(o[i] + r[i]);
    }
  });
}

}  // namespace

FusedProgram ParseFusedProgram(const std::string& text, int num_inputs, const std::string& op) {
  WEFT_CHECK(num_inputs >= 1, kInvalidArgument) << op << ": num_args must be at least 1, got " << num_inputs;
  WEFT_CHECK(!text.empty(), kInvalidArgument) << op << ": the program is empty";
  FusedProgram p;
  p.num_inputs = num_inputs;
  Parser parser(op, num_inputs);
  const std::vector<std::string> lines = Split(text, ';');
  for (size_t k = 0; k < lines.size(); ++k) {
    p.code.push_back(parser.Parse(lines[k], static_cast<int>(k)));
    p.cost_per_element += parser.cost();
  }
  // Buffers: a value's buffer is taken when it is defined and returned after
  // its last reader; the destination never shares a buffer with an operand.
  const int num_values = num_inputs + static_cast<int>(p.code.size());
  std::vector<int> last_use(static_cast<size_t>(num_values), -1);
  for (size_t k = 0; k < p.code.size(); ++k)
    for (int i = 0; i < p.code[k].num_args; ++i) last_use[static_cast<size_t>(p.code[k].args[i])] = static_cast<int>(k);
  std::vector<int> free_slots;
  p.slot.assign(p.code.size(), -1);
  for (size_t k = 0; k < p.code.size(); ++k) {
    int s;
    if (!free_slots.empty()) {
      s = free_slots.back();
      free_slots.pop_back();
    } else {
      s = p.num_slots++;
    }
    p.slot[k] = s;
    for (int i = 0; i < p.code[k].num_args; ++i) {
      const int v = p.code[k].args[i];
      bool seen = false;
      for (int j = 0; j < i; ++j) seen = seen || p.code[k].args[j] == v;
      if (!seen && v >= num_inputs && last_use[static_cast<size_t>(v)] == static_cast<int>(k))
        free_slots.push_back(p.slot[static_cast<size_t>(v - num_inputs)]);
    }
    if (last_use[static_cast<size_t>(num_inputs) + k] < 0 && k + 1 < p.code.size()) free_slots.push_back(s);
  }
  return p;
}

nnx_cpu::ActKind ActKindByName(const std::string& act_type, const std::string& op) {
  const Named* n = FindName(kActNames, act_type);
  WEFT_CHECK(n != nullptr, kInvalidArgument) << op << ": unknown act_type '" << act_type << "'";
  return static_cast<ActKind>(n->code);
}

void FusedElemwiseForward(const FusedProgram& prog, const std::vector<TensorView>& in, OpReq req,
                          const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  WEFT_CHECK(static_cast<int>(in.size()) == prog.num_inputs, kInvalidArgument)
      << "_fused_elemwise: " << in.size() << " inputs for a program over " << prog.num_inputs;
  const bool add = req == OpReq::kAddTo;
  switch (out.dtype) {
    case DType::kFloat32: ForwardT<float>(prog, in, add, out); break;
    case DType::kFloat64: ForwardT<double>(prog, in, add, out); break;
    default:
      WEFT_THROW(kDType) << "_fused_elemwise: only float32 and float64 are supported, got " << DTypeName(out.dtype);
  }
}

}  // namespace fused_cpu
}  // namespace weft
