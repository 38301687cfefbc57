// MXNet 1.9.1's NumPy bit ops, under its registered names: _npi_bitwise_and,
// _npi_bitwise_or, _npi_bitwise_xor (broadcasting, as NumPy's), their
// _scalar forms (`scalar`, `is_int` as MXNet's NumpyBinaryScalarParam) and
// _npi_bitwise_not. Integers and bool only, in the inputs' one dtype (Note
// [Bit ops on integers and bools], bitwise_rules.h; weft.np promotes mixed
// dtypes first). No gradient: the results are integers (MXNet's zero
// gradients). GPU kernels: bitwise.cu.
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/error.h"
#include "core/base/saturating_cast.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/bitwise_gpu.h"
#include "core/op/elemwise/bitwise_rules.h"
#include "core/op/elemwise/broadcast_shape.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using tensor::BitwiseKind;

// Every input and the output of one dtype, an integer or bool.
bool BitwiseType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  if (!SameTypeInfer(op, p, in, out)) return false;
  const DType t = (*out)[0];
  WEFT_CHECK(!IsFloating(t), kDType) << op.name << ": not supported for the input type " << DTypeName(t)
                                     << "; the bit ops take integers or bools";
  return true;
}

template <typename T>
struct BitwiseRows {
  const T* a;
  const T* b;
  T* o;
  int kind;
  OpReq req;
  int64_t ls, rs;  // innermost strides of lhs and rhs: 0 or 1

  static void Run(void* self, int64_t oo, int64_t lo, int64_t ro, int64_t n) {
    const BitwiseRows& c = *static_cast<const BitwiseRows*>(self);
    for (int64_t j = 0; j < n; ++j)
      nnm::Put(c.o, oo + j, c.req, tensor::BitwiseApply<T>(c.kind, c.a[lo + j * c.ls], c.b[ro + j * c.rs]));
  }
};

void BitwiseBroadcastCpu(const char* op, BitwiseKind kind, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const elemwise_cpu::BroadcastPlan plan = elemwise_cpu::MakeBroadcastPlan(in[0].shape, in[1].shape, out[0].shape);
  WEFT_BITWISE_SWITCH(out[0].dtype, op, T, {
    BitwiseRows<T> c{in[0].ptr<T>(), in[1].ptr<T>(), out[0].ptr<T>(), static_cast<int>(kind), req[0],
                     plan.lstride.back(), plan.rstride.back()};
    elemwise_cpu::RunBroadcastRows(plan, 1, &BitwiseRows<T>::Run, &c);
  });
}

// The scalar in the array's dtype: MXNet's DType(scalar) for an integer scalar
// (is_int), saturating where a double passes int64; for bool, nonzero is true.
template <typename T>
T BitwiseScalar(const Params& p) {
  const double s = p.GetFloat("scalar");
  if constexpr (std::is_same<T, bool>::value) {
    return s != 0;
  } else {
    return static_cast<T>(SaturatingToInt64(s));
  }
}

void BitwiseScalarCpu(const char* op, BitwiseKind kind, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  WEFT_BITWISE_SWITCH(out[0].dtype, op, T, {
    const T s = BitwiseScalar<T>(p);
    const T* a = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    const int k = static_cast<int>(kind);
    nnm::ForEachIndex(out[0].Size(), 1, [&](int64_t i) { nnm::Put(o, i, r, tensor::BitwiseApply<T>(k, a[i], s)); });
  });
}

void BitwiseNotCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  WEFT_BITWISE_SWITCH(out[0].dtype, p.op()->name, T, {
    const T* a = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    nnm::ForEachIndex(out[0].Size(), 1, [&](int64_t i) { nnm::Put(o, i, r, tensor::BitwiseNot<T>(a[i])); });
  });
}

struct BitwiseOpEntry {
  const char* name;
  const char* symbol;
  const char* example;  // of [12, 10] and [10, 6]
  BitwiseKind kind;
  FCompute gpu;
  FCompute gpu_scalar;
};

bool RegisterBitwiseOps() {
  const BitwiseOpEntry entries[] = {
      {"_npi_bitwise_and", "&", "[8, 2]", BitwiseKind::kAnd, WEFT_GPU(cuda::BitwiseAndGpu),
       WEFT_GPU(cuda::BitwiseAndScalarGpu)},
      {"_npi_bitwise_or", "|", "[14, 14]", BitwiseKind::kOr, WEFT_GPU(cuda::BitwiseOrGpu),
       WEFT_GPU(cuda::BitwiseOrScalarGpu)},
      {"_npi_bitwise_xor", "^", "[6, 12]", BitwiseKind::kXor, WEFT_GPU(cuda::BitwiseXorGpu),
       WEFT_GPU(cuda::BitwiseXorScalarGpu)},
  };
  for (const BitwiseOpEntry& e : entries) {
    const BitwiseKind kind = e.kind;
    const std::string sym = e.symbol;
    WEFT_REGISTER_OP(binary, e.name)
        .describe("Bitwise `x1 " + sym + " x2` of integer or bool arrays, with NumPy's broadcasting; both "
                  "inputs of one dtype, the output in it.\n\nExample::\n\n   [12, 10] " +
                  sym + " [10, 6] = " + e.example)
        .add_input("lhs")
        .add_input("rhs")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return BroadcastBinaryInfer(*p.op(), in, out);
        })
        .set_infer_type(BitwiseType)
        .set_compute_cpu([kind](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          BitwiseBroadcastCpu(p.op()->name.c_str(), kind, in, req, out);
        })
        .set_compute_gpu(e.gpu)
        .set_gradient(ZeroGradients);
    WEFT_REGISTER_OP(scalar, std::string(e.name) + "_scalar")
        .describe("Bitwise `x " + sym + " scalar` of an integer or bool array and a Python scalar, in the "
                  "array's dtype.")
        .add_input("data")
        .add_param("scalar", ParamType::kFloat, "1", "Scalar input value")
        .add_param("is_int", ParamType::kBool, "True", "Indicate whether scalar input is int type")
        .add_inplace(0, 0)
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return SameShapeInfer(*p.op(), p, in, out);
        })
        .set_infer_type(BitwiseType)
        .set_compute_cpu([kind](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          BitwiseScalarCpu(p.op()->name.c_str(), kind, p, in, req, out);
        })
        .set_compute_gpu(e.gpu_scalar)
        .set_gradient(ZeroGradients);
  }
  WEFT_REGISTER_OP(npi_bitwise_not_decl, "_npi_bitwise_not")
      .describe("Bitwise NOT of an integer or bool array (`~x`; on bools, logical not), in its dtype.\n\n"
                "Example::\n\n   bitwise_not([0, 13, -14]) = [-1, -14, 13]")
      .add_input("data")
      .add_inplace(0, 0)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return SameShapeInfer(*p.op(), p, in, out);
      })
      .set_infer_type(BitwiseType)
      .set_compute_cpu(BitwiseNotCpu)
      .set_compute_gpu(WEFT_GPU(cuda::BitwiseNotGpu))
      .set_gradient(ZeroGradients);
  return true;
}

[[maybe_unused]] const bool kBitwiseRegistered = RegisterBitwiseOps();

}  // namespace
}  // namespace weft
