// MXNet 1.9.1's NumPy binary functions that no legacy operator computes, under
// its registered names: _npi_arctan2, _npi_copysign, _npi_ldexp, _npi_lcm
// (broadcasting), _npi_<f>_scalar (f(x, scalar)) and _npi_r<f>_scalar
// (f(scalar, x)) for arctan2, copysign, ldexp, plus _npi_lcm_scalar; values as
// MXNet computes them (Note [NumPy binary math as MXNet computes it],
// np_binary_math_rules.h). Gradients are MXNet's, built from registered ops
// (lcm's are zeros). GPU kernels: np_binary_math.cu.
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/broadcast_shape.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/elemwise/np_binary_math_gpu.h"
#include "core/op/elemwise/np_binary_math_rules.h"
#include "core/op/elemwise/np_compare_rules.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

using tensor::NpMathKind;

// The storage types of these kernels: every dtype but bool (the type rule
// refuses bool before a kernel runs).
#define WEFT_NP_MATH_SWITCH(dt, op, T, ...)                                                      \
  switch (dt) {                                                                                 \
    case DType::kFloat32: { using T = float; __VA_ARGS__ break; }                               \
    case DType::kFloat64: { using T = double; __VA_ARGS__ break; }                              \
    case DType::kFloat16: { using T = half_t; __VA_ARGS__ break; }                              \
    case DType::kBFloat16: { using T = bf16_t; __VA_ARGS__ break; }                             \
    case DType::kUint8: { using T = uint8_t; __VA_ARGS__ break; }                               \
    case DType::kInt8: { using T = int8_t; __VA_ARGS__ break; }                                 \
    case DType::kInt32: { using T = int32_t; __VA_ARGS__ break; }                               \
    case DType::kInt64: { using T = int64_t; __VA_ARGS__ break; }                               \
    default: WEFT_THROW(kDType) << op << ": not supported for the input type " << DTypeName(dt); \
  }

enum class MathForm { kBinary, kScalar, kRScalar };

const char* NpMathName(NpMathKind k) {
  switch (k) {
    case NpMathKind::kArctan2: return "arctan2";
    case NpMathKind::kCopysign: return "copysign";
    case NpMathKind::kLdexp: return "ldexp";
    default: return "lcm";
  }
}

bool IsLcmType(DType t) {
  return t == DType::kInt8 || t == DType::kUint8 || t == DType::kInt32 || t == DType::kInt64;
}

// Note [NumPy binary math as MXNet computes it]: the inputs share one dtype;
// arctan2 of two arrays takes floats, lcm the four integer types, none bool;
// a scalar form of an integer array with is_int=False writes float64.
bool MathType(NpMathKind kind, MathForm form, const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  DType t = DType::kUnknown;
  for (size_t i = 0; i < in->size(); ++i) {
    const DType d = (*in)[i];
    if (d == DType::kUnknown) continue;
    WEFT_CHECK(t == DType::kUnknown || t == d, kDType)
        << op.name << ": the operands have different dtypes, " << DTypeName(t) << " and " << DTypeName(d)
        << " (MXNet takes one dtype; promote first)";
    t = d;
  }
  if (t == DType::kUnknown) return false;
  for (size_t i = 0; i < in->size(); ++i) AssignType(in, i, t, op.name + ": input " + std::to_string(i));
  WEFT_CHECK(t != DType::kBool, kDType) << op.name << ": not supported for the input type bool";
  if (kind == NpMathKind::kLcm) {
    WEFT_CHECK(IsLcmType(t), kDType) << op.name << ": not supported for the input type " << DTypeName(t)
                                     << "; lcm takes int8, uint8, int32 or int64";
  }
  if (kind == NpMathKind::kArctan2 && form == MathForm::kBinary) {
    WEFT_CHECK(IsFloating(t), kDType) << op.name << ": not supported for the input type " << DTypeName(t)
                                      << "; arctan2 of two arrays takes floats (as MXNet)";
  }
  DType o = t;
  if (form != MathForm::kBinary && !p.GetBool("is_int") && !IsFloating(t)) {
    WEFT_CHECK(kind != NpMathKind::kLcm, kDType) << op.name << ": attribute 'is_int' = False: lcm takes an integer "
                                                 << "scalar";
    o = DType::kFloat64;
  }
  AssignType(out, 0, o, op.name + ": output");
  return true;
}

template <typename T>
struct MathRows {
  const T* a;
  const T* b;
  T* o;
  int kind;
  OpReq req;
  int64_t ls, rs;

  static void Run(void* self, int64_t oo, int64_t lo, int64_t ro, int64_t n) {
    using C = tensor::NpMathCompute<T>;
    const MathRows& c = *static_cast<const MathRows*>(self);
    for (int64_t j = 0; j < n; ++j) {
      const C v = tensor::NpMathApply<C>(c.kind, static_cast<C>(c.a[lo + j * c.ls]), static_cast<C>(c.b[ro + j * c.rs]));
      nnm::Put(c.o, oo + j, c.req, v);
    }
  }
};

void MathBinaryCpu(NpMathKind kind, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const elemwise_cpu::BroadcastPlan plan = elemwise_cpu::MakeBroadcastPlan(in[0].shape, in[1].shape, out[0].shape);
  WEFT_NP_MATH_SWITCH(out[0].dtype, p.op()->name, T, {
    MathRows<T> c{in[0].ptr<T>(), in[1].ptr<T>(), out[0].ptr<T>(), static_cast<int>(kind), req[0],
                  plan.lstride.back(), plan.rstride.back()};
    elemwise_cpu::RunBroadcastRows(plan, 4, &MathRows<T>::Run, &c);
  });
}

// f(x, scalar) (reversed: f(scalar, x)) in x's dtype with DType(scalar), or in
// double into a float64 output (an integer x with is_int=False).
void MathScalarCpu(NpMathKind kind, bool reversed, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const double scalar = p.GetFloat("scalar");
  const int k = static_cast<int>(kind);
  const OpReq r = req[0];
  const int64_t n = out[0].Size();
  WEFT_NP_MATH_SWITCH(in[0].dtype, p.op()->name, T, {
    const T* a = in[0].ptr<T>();
    if (out[0].dtype != in[0].dtype) {
      double* o = out[0].ptr<double>();
      nnm::ForEachIndex(n, 4, [&](int64_t i) {
        const double x = static_cast<double>(a[i]);
        nnm::Put(o, i, r, reversed ? tensor::NpMathApply<double>(k, scalar, x) : tensor::NpMathApply<double>(k, x, scalar));
      });
    } else {
      using C = tensor::NpMathCompute<T>;
      const C s = static_cast<C>(tensor::ScalarAsDType<T>(scalar));
      T* o = out[0].ptr<T>();
      nnm::ForEachIndex(n, 4, [&](int64_t i) {
        const C x = static_cast<C>(a[i]);
        nnm::Put(o, i, r, reversed ? tensor::NpMathApply<C>(k, s, x) : tensor::NpMathApply<C>(k, x, s));
      });
    }
  });
}

// ---- gradients (MXNet's: _backward_npi_arctan2, _backward_npi_copysign, ...) ----

NodeEntry ScalarOp(GradBuilder& b, const char* op, const NodeEntry& x, double s) {
  return b(op, {x}, {{"scalar", ScalarAttr(s)}});
}

std::vector<NodeEntry> BinaryMathGradient(NpMathKind kind, const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const NodeEntry l = b.in(0), r = b.in(1), g = og[0];
  NodeEntry dl, dr;
  if (kind == NpMathKind::kArctan2) {  // d atan2(l, r) = (r dl - l dr) / (l^2 + r^2)
    const NodeEntry denom = b("broadcast_add", {b("square", {l}), b("square", {r})});
    dl = b("broadcast_div", {b("broadcast_mul", {g, r}), denom});
    dr = b.Neg(b("broadcast_div", {b("broadcast_mul", {g, l}), denom}));
  } else if (kind == NpMathKind::kCopysign) {  // +-1 where the signs (>= 0) agree or not; none to r
    const NodeEntry agree = b("_npi_equal", {b("_npi_greater_equal_scalar", {l}, {{"scalar", "0"}}),
                                             b("_npi_greater_equal_scalar", {r}, {{"scalar", "0"}})});
    dl = b("_npi_where", {agree, g, b.Neg(g)});
    return {SumToShapeOf(b, dl, l), b.Zeros(r)};
  } else if (kind == NpMathKind::kLdexp) {  // d(l 2^r) = 2^r dl + l 2^r ln2 dr
    dl = b("broadcast_mul", {g, ScalarOp(b, "_rpower_scalar", r, 2.0)});
    dr = ScalarOp(b, "_mul_scalar", b.Mul(g, b.out()), std::log(2.0));
  } else {
    return ZeroGradients(n, og);
  }
  return {SumToShapeOf(b, dl, l), SumToShapeOf(b, dr, r)};
}

std::vector<NodeEntry> ScalarMathGradient(NpMathKind kind, bool reversed, const NodePtr& n,
                                          const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const NodeEntry x = b.in(0), g = og[0];
  const double s = std::stod(n->attrs.count("scalar") ? n->attrs.at("scalar") : "1");
  if (kind == NpMathKind::kArctan2) {  // d atan2(x, s) = s / (x^2 + s^2); d atan2(s, x) = -s / (...)
    const NodeEntry denom = ScalarOp(b, "_plus_scalar", b("square", {x}), s * s);
    return {ScalarOp(b, "_mul_scalar", b.Div(g, denom), reversed ? -s : s)};
  }
  if (kind == NpMathKind::kCopysign) {
    if (reversed) return {b.Zeros(x)};  // copysign(s, x): x gives only a sign
    const NodeEntry agree = s >= 0 ? b("_npi_greater_equal_scalar", {x}, {{"scalar", "0"}})
                                   : b("_npi_less_scalar", {x}, {{"scalar", "0"}});
    return {b("_npi_where", {agree, g, b.Neg(g)})};
  }
  if (kind == NpMathKind::kLdexp) {
    if (reversed) return {ScalarOp(b, "_mul_scalar", b.Mul(g, b.out()), std::log(2.0))};  // d(s 2^x)
    return {ScalarOp(b, "_mul_scalar", g, std::pow(2.0, s))};                              // d(x 2^s)
  }
  return ZeroGradients(n, og);
}

struct MathOpEntry {
  NpMathKind kind;
  const char* doc;
  FCompute gpu, gpu_scalar, gpu_rscalar;  // gpu_rscalar: empty for lcm (no reversed form)
};

void RegisterScalarForm(NpMathKind kind, bool reversed, const std::string& name, const std::string& doc,
                        FCompute gpu) {
  const MathForm form = reversed ? MathForm::kRScalar : MathForm::kScalar;
  WEFT_REGISTER_OP(def, name)
      .describe(doc)
      .add_input("data")
      .add_param("scalar", ParamType::kFloat, "1", "Scalar input value")
      .add_param("is_int", ParamType::kBool, "True", "Indicate whether scalar input is int type")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return SameShapeInfer(*p.op(), p, in, out);
      })
      .set_infer_type([kind, form](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return MathType(kind, form, p, in, out);
      })
      .set_compute_cpu([kind, reversed](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        MathScalarCpu(kind, reversed, p, in, req, out);
      })
      .set_compute_gpu(gpu)
      .set_gradient([kind, reversed](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ScalarMathGradient(kind, reversed, n, og);
      });
}

bool RegisterNumpyBinaryMathOps() {
  const MathOpEntry entries[] = {
      {NpMathKind::kArctan2, "arctan2(x1, x2): the angle of the point (x2, x1), in radians",
       WEFT_GPU(cuda::NpArctan2Gpu), WEFT_GPU(cuda::NpArctan2ScalarGpu), WEFT_GPU(cuda::NpRArctan2ScalarGpu)},
      {NpMathKind::kCopysign, "copysign(x1, x2): x1 with the sign of x2 (MXNet's rule: x2 >= 0 counts as +)",
       WEFT_GPU(cuda::NpCopysignGpu), WEFT_GPU(cuda::NpCopysignScalarGpu), WEFT_GPU(cuda::NpRCopysignScalarGpu)},
      {NpMathKind::kLdexp, "ldexp(x1, x2): x1 * 2**x2 in the operands' dtype", WEFT_GPU(cuda::NpLdexpGpu),
       WEFT_GPU(cuda::NpLdexpScalarGpu), WEFT_GPU(cuda::NpRLdexpScalarGpu)},
      {NpMathKind::kLcm, "lcm(x1, x2): the least common multiple of |x1| and |x2| (0 if either is 0), integers only",
       WEFT_GPU(cuda::NpLcmGpu), WEFT_GPU(cuda::NpLcmScalarGpu), FCompute()},
  };
  for (const MathOpEntry& e : entries) {
    const NpMathKind kind = e.kind;
    const std::string f = NpMathName(kind);
    const std::string note = " (Note [NumPy binary math as MXNet computes it]).";
    WEFT_REGISTER_OP(binary, "_npi_" + f)
        .describe("NumPy's " + std::string(e.doc) + ", with broadcasting; both inputs of one dtype" + note)
        .add_input("lhs")
        .add_input("rhs")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return BroadcastBinaryInfer(*p.op(), in, out);
        })
        .set_infer_type([kind](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
          return MathType(kind, MathForm::kBinary, p, in, out);
        })
        .set_compute_cpu([kind](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          MathBinaryCpu(kind, p, in, req, out);
        })
        .set_compute_gpu(e.gpu)
        .set_gradient([kind](const NodePtr& n, const std::vector<NodeEntry>& og) {
          return BinaryMathGradient(kind, n, og);
        });
    RegisterScalarForm(kind, false, "_npi_" + f + "_scalar",
                       "NumPy's " + f + "(x, scalar), the scalar in x's dtype" + note, e.gpu_scalar);
    if (kind != NpMathKind::kLcm) {
      RegisterScalarForm(kind, true, "_npi_r" + f + "_scalar",
                         "NumPy's " + f + "(scalar, x), the scalar in x's dtype" + note, e.gpu_rscalar);
    }
  }
  return true;
}

[[maybe_unused]] const bool kNumpyBinaryMathRegistered = RegisterNumpyBinaryMathOps();

#undef WEFT_NP_MATH_SWITCH

}  // namespace
}  // namespace weft
