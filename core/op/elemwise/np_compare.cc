// MXNet 1.9.1's NumPy comparisons and predicates under its registered names,
// each writing bool (Note [NumPy comparisons give bool], np_compare_rules.h):
// _npi_equal, _npi_not_equal, _npi_greater, _npi_greater_equal, _npi_less,
// _npi_less_equal (broadcasting, as NumPy's), their _scalar forms (`scalar`,
// `is_int` as MXNet's NumpyBinaryScalarParam), _npi_logical_not and
// _npi_isnan, _npi_isinf, _npi_isfinite, _npi_isposinf, _npi_isneginf. Their
// gradient is zeros (MXNet's MakeZeroGradNodes). GPU kernels: np_compare.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/broadcast_shape.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/elemwise/np_compare_gpu.h"
#include "core/op/elemwise/np_compare_rules.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

using tensor::CompareKind;
using tensor::PredicateKind;

// The inputs of one dtype (any), the output bool.
bool CompareType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  DType t = DType::kUnknown;
  for (size_t i = 0; i < in->size(); ++i) {
    const DType d = (*in)[i];
    if (d == DType::kUnknown) continue;
    WEFT_CHECK(t == DType::kUnknown || t == d, kDType)
        << op.name << ": the operands have different dtypes, " << DTypeName(t) << " and " << DTypeName(d)
        << " (MXNet compares one dtype; promote first)";
    t = d;
  }
  for (size_t i = 0; i < in->size(); ++i) {
    if (t != DType::kUnknown) AssignType(in, i, t, op.name + ": input " + std::to_string(i));
  }
  AssignType(out, 0, DType::kBool, op.name + ": output");
  return t != DType::kUnknown;
}

// The output is bool whatever the input (the predicates, logical_not).
bool PredicateType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  AssignType(out, 0, DType::kBool, p.op()->name + ": output");
  return (*in)[0] != DType::kUnknown;
}

template <typename T>
struct CompareRows {
  const T* a;
  const T* b;
  bool* o;
  int kind;
  OpReq req;
  int64_t ls, rs;  // innermost strides of lhs and rhs: 0 or 1

  static void Run(void* self, int64_t oo, int64_t lo, int64_t ro, int64_t n) {
    const CompareRows& c = *static_cast<const CompareRows*>(self);
    for (int64_t j = 0; j < n; ++j)
      nnm::Put(c.o, oo + j, c.req, tensor::CompareApply<T>(c.kind, c.a[lo + j * c.ls], c.b[ro + j * c.rs]));
  }
};

void CompareBroadcastCpu(CompareKind kind, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                         const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const elemwise_cpu::BroadcastPlan plan = elemwise_cpu::MakeBroadcastPlan(in[0].shape, in[1].shape, out[0].shape);
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    CompareRows<T> c{in[0].ptr<T>(), in[1].ptr<T>(), out[0].ptr<bool>(), static_cast<int>(kind), req[0],
                     plan.lstride.back(), plan.rstride.back()};
    elemwise_cpu::RunBroadcastRows(plan, 1, &CompareRows<T>::Run, &c);
  });
}

void CompareScalarCpu(CompareKind kind, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const double scalar = p.GetFloat("scalar");
  const bool in_double = tensor::CompareScalarInDouble(in[0].dtype, p.GetBool("is_int"));
  bool* o = out[0].ptr<bool>();
  const OpReq r = req[0];
  const int k = static_cast<int>(kind);
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    const T s = tensor::ScalarAsDType<T>(scalar);
    const T* a = in[0].ptr<T>();
    nnm::ForEachIndex(out[0].Size(), 1, [&](int64_t i) {
      nnm::Put(o, i, r, in_double ? tensor::CompareApply<double>(k, static_cast<double>(a[i]), scalar)
                                  : tensor::CompareApply<T>(k, a[i], s));
    });
  });
}

void PredicateCpu(PredicateKind kind, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                  const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    const T* a = in[0].ptr<T>();
    bool* o = out[0].ptr<bool>();
    const OpReq r = req[0];
    const int k = static_cast<int>(kind);
    nnm::ForEachIndex(out[0].Size(), 1, [&](int64_t i) { nnm::Put(o, i, r, tensor::PredicateApply<T>(k, a[i])); });
  });
}

struct CompareOpEntry {
  const char* name;
  const char* symbol;
  CompareKind kind;
  FCompute gpu;
  FCompute gpu_scalar;
};

struct PredicateOpEntry {
  const char* name;
  const char* what;
  PredicateKind kind;
  FCompute gpu;
};

bool RegisterNumpyCompareOps() {
  const CompareOpEntry compares[] = {
      {"_npi_equal", "==", CompareKind::kEq, WEFT_GPU(cuda::NpEqualGpu), WEFT_GPU(cuda::NpEqualScalarGpu)},
      {"_npi_not_equal", "!=", CompareKind::kNe, WEFT_GPU(cuda::NpNotEqualGpu), WEFT_GPU(cuda::NpNotEqualScalarGpu)},
      {"_npi_greater", ">", CompareKind::kGt, WEFT_GPU(cuda::NpGreaterGpu), WEFT_GPU(cuda::NpGreaterScalarGpu)},
      {"_npi_greater_equal", ">=", CompareKind::kGe, WEFT_GPU(cuda::NpGreaterEqualGpu),
       WEFT_GPU(cuda::NpGreaterEqualScalarGpu)},
      {"_npi_less", "<", CompareKind::kLt, WEFT_GPU(cuda::NpLessGpu), WEFT_GPU(cuda::NpLessScalarGpu)},
      {"_npi_less_equal", "<=", CompareKind::kLe, WEFT_GPU(cuda::NpLessEqualGpu),
       WEFT_GPU(cuda::NpLessEqualScalarGpu)},
  };
  for (const CompareOpEntry& e : compares) {
    const CompareKind kind = e.kind;
    const std::string sym = e.symbol;
    WEFT_REGISTER_OP(binary, e.name)
        .describe("NumPy's `x1 " + sym + " x2` with broadcasting, as bool (Note [NumPy comparisons give bool]); "
                  "both inputs of one dtype.")
        .add_input("lhs")
        .add_input("rhs")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return BroadcastBinaryInfer(*p.op(), in, out);
        })
        .set_infer_type(CompareType)
        .set_compute_cpu([kind](const OpContext&, const Params&, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          CompareBroadcastCpu(kind, in, req, out);
        })
        .set_compute_gpu(e.gpu)
        .set_gradient(ZeroGradients);
    WEFT_REGISTER_OP(scalar, std::string(e.name) + "_scalar")
        .describe("NumPy's `x " + sym + " scalar`, as bool; the scalar is first converted to the array's "
                  "dtype, as MXNet's DType(scalar), unless is_int is false and the array's dtype is an integer "
                  "(Note [NumPy comparisons give bool]).")
        .add_input("data")
        .add_param("scalar", ParamType::kFloat, "1", "Scalar input value")
        .add_param("is_int", ParamType::kBool, "True", "Indicate whether scalar input is int type")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return SameShapeInfer(*p.op(), p, in, out);
        })
        .set_infer_type(CompareType)
        .set_compute_cpu([kind](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          CompareScalarCpu(kind, p, in, req, out);
        })
        .set_compute_gpu(e.gpu_scalar)
        .set_gradient(ZeroGradients);
  }
  const PredicateOpEntry predicates[] = {
      {"_npi_isnan", "NumPy's isnan: True where x is NaN", PredicateKind::kIsNan, WEFT_GPU(cuda::NpIsNanGpu)},
      {"_npi_isinf", "NumPy's isinf: True where x is +inf or -inf", PredicateKind::kIsInf, WEFT_GPU(cuda::NpIsInfGpu)},
      {"_npi_isfinite", "NumPy's isfinite: True where x is neither inf nor NaN", PredicateKind::kIsFinite,
       WEFT_GPU(cuda::NpIsFiniteGpu)},
      {"_npi_isposinf", "NumPy's isposinf: True where x is +inf", PredicateKind::kIsPosInf,
       WEFT_GPU(cuda::NpIsPosInfGpu)},
      {"_npi_isneginf", "NumPy's isneginf: True where x is -inf", PredicateKind::kIsNegInf,
       WEFT_GPU(cuda::NpIsNegInfGpu)},
      {"_npi_logical_not", "NumPy's logical_not: True where x is zero (so False for NaN)",
       PredicateKind::kLogicalNot, WEFT_GPU(cuda::NpLogicalNotGpu)},
  };
  for (const PredicateOpEntry& e : predicates) {
    const PredicateKind kind = e.kind;
    WEFT_REGISTER_OP(predicate, e.name)
        .describe(std::string(e.what) + ", as bool, for any input dtype (an integer is finite).")
        .add_input("x")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return SameShapeInfer(*p.op(), p, in, out);
        })
        .set_infer_type(PredicateType)
        .set_compute_cpu([kind](const OpContext&, const Params&, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          PredicateCpu(kind, in, req, out);
        })
        .set_compute_gpu(e.gpu)
        .set_gradient(ZeroGradients);
  }
  return true;
}

[[maybe_unused]] const bool kNumpyCompareRegistered = RegisterNumpyCompareOps();

}  // namespace
}  // namespace weft
