// The value rules of MXNet 1.9.1's NumPy where (_npi_where and its
// _lscalar/_rscalar/_scalar2 forms), written once for the CPU kernels
// (np_where.cc) and the GPU kernels (np_where.cu).
//
// Note [NumPy where broadcasts three operands]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The legacy `where` takes a condition of x's shape (or a vector over its
// first axis); MXNet's _npi_where broadcasts condition, x and y together as
// NumPy does, so it is an operator of its own. As in MXNet 1.9.1 (checked
// there): the condition may have any dtype and is true where nonzero (NaN is
// true, -0.0 false); x and y share one dtype, which the output takes; a scalar
// operand is converted to that dtype first (int32 where(c, x, 3.7) writes 3);
// _npi_where_scalar2 (both operands scalars) writes float32. Operand order:
// _npi_where_lscalar(condition, x, scalar) is where(condition, scalar, x) and
// _npi_where_rscalar(condition, y, scalar) is where(condition, y, scalar):
// MXNet names each tensor input after the place it does not take in where.
//
// _npi_boolean_mask_assign_scalar(data, mask, value, start_axis) (data[mask] =
// value, the mask over data's dims from start_axis on) is where(mask, value,
// data) with the mask laid along those dims instead of the trailing ones, so it
// runs on the same plan; MXNet refuses a negative start_axis, as here.
//
// Two gradients of MXNet 1.9.1 are wrong (checked there), and Weft gives the
// derivative instead: boolean_mask_assign_scalar's is zeros in MXNet, even
// for data's unmasked elements, which pass through (Weft: g there, 0 where the
// value was written); where_rscalar's and where_lscalar's send g to the
// positions the scalar took (where(c, x, 3.0) differentiated by x is c there,
// !c in MXNet). _npi_where's own gradient is MXNet's.
//
// The index rule walks the output's dims with each operand's element strides
// (0 along a broadcast dim), so one plan serves every operand; the condition
// is read through its dtype code at run time, so the kernels switch on the
// data dtype only.
#pragma once
#include <cstdint>
#include <cstring>

#include "core/base/dtype.h"
#include "core/base/shape.h"
#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

constexpr int kWhereMaxDims = 8;

struct WherePlan {
  int nd = 0;
  int64_t dims[kWhereMaxDims] = {};
  int64_t cs[kWhereMaxDims] = {};  // element strides of the condition (0: broadcast)
  int64_t xs[kWhereMaxDims] = {};  // of x (or the one tensor operand)
  int64_t ys[kWhereMaxDims] = {};  // of y (unused by the scalar forms)
};

// The plan of out from the shapes of the condition, x and y (nullptr where the
// form has a scalar instead); kShape naming op past kWhereMaxDims dims.
// Defined in np_where.cc (host code of both kernels).
WherePlan MakeWherePlan(const char* op, const Shape& cond, const Shape* x, const Shape* y, const Shape& out);

// The plan of _npi_boolean_mask_assign_scalar: out (data's shape) selects
// where the mask, laid along data's dims [start_axis, start_axis + mask ndim),
// holds (its strides there, 0 elsewhere); x is data. kShape naming op when the
// mask does not match those dims or start_axis is out of range.
WherePlan MakeMaskAssignPlan(const char* op, const Shape& data, const Shape& mask, int64_t start_axis);

// Offsets of output index i in the condition, x and y.
WEFT_HD inline void WhereOffsets(const WherePlan& p, int64_t i, int64_t* co, int64_t* xo, int64_t* yo) {
  int64_t c = 0, x = 0, y = 0, rem = i;
  for (int d = p.nd - 1; d >= 0; --d) {
    const int64_t k = rem % p.dims[d];
    rem /= p.dims[d];
    c += k * p.cs[d];
    x += k * p.xs[d];
    y += k * p.ys[d];
  }
  *co = c;
  *xo = x;
  *yo = y;
}

// Whether element i of a condition of dtype `dt` (a DType value) is nonzero;
// floats compare with zero (so -0.0 is false and NaN true), 16-bit floats by
// their bits without the sign.
WEFT_HD inline bool WhereCondAt(const void* p, int dt, int64_t i) {
  switch (dt) {
    case static_cast<int>(DType::kFloat32): return static_cast<const float*>(p)[i] != 0.0f;
    case static_cast<int>(DType::kFloat64): return static_cast<const double*>(p)[i] != 0.0;
    case static_cast<int>(DType::kFloat16):
      return (static_cast<const uint16_t*>(p)[i] & 0x7fffu) != 0;
    case static_cast<int>(DType::kBFloat16):
      return (static_cast<const uint16_t*>(p)[i] & 0x7fffu) != 0;
    case static_cast<int>(DType::kUint8): return static_cast<const uint8_t*>(p)[i] != 0;
    case static_cast<int>(DType::kInt8): return static_cast<const int8_t*>(p)[i] != 0;
    case static_cast<int>(DType::kInt32): return static_cast<const int32_t*>(p)[i] != 0;
    case static_cast<int>(DType::kInt64): return static_cast<const int64_t*>(p)[i] != 0;
    default: return static_cast<const uint8_t*>(p)[i] != 0;  // bool
  }
}

// The four forms of where: which of x / y is a scalar.
enum class WhereForm { kTensors, kLeftScalar, kRightScalar, kScalars };

// The operands of one where call: the condition (read through its dtype code),
// the tensor operands (nullptr where the form has none) and the scalars, in T.
template <typename T>
struct WhereOperands {
  WhereForm form = WhereForm::kTensors;
  const void* cond = nullptr;
  int cond_dtype = 0;
  const T* x = nullptr;
  const T* y = nullptr;
  T scalar{}, sx{}, sy{};  // the one scalar (lscalar/rscalar); the two of _scalar2
};

// Output element i of where (both kernels' per-element rule).
template <typename T>
WEFT_HD inline T WhereAt(const WherePlan& plan, const WhereOperands<T>& w, int64_t i) {
  int64_t co, xo, yo;
  WhereOffsets(plan, i, &co, &xo, &yo);
  const bool pick = WhereCondAt(w.cond, w.cond_dtype, co);
  switch (w.form) {
    case WhereForm::kTensors: return pick ? w.x[xo] : w.y[yo];
    case WhereForm::kLeftScalar: return pick ? w.scalar : w.x[xo];
    case WhereForm::kRightScalar: return pick ? w.x[xo] : w.scalar;
    default: return pick ? w.sx : w.sy;
  }
}

// Output element i of _npi_boolean_mask_assign_scalar: value where the mask
// (of dtype code mask_dtype) holds, data elsewhere.
template <typename T>
WEFT_HD inline T MaskAssignAt(const WherePlan& plan, const void* mask, int mask_dtype, const T* data, T value,
                              int64_t i) {
  int64_t co, xo, yo;
  WhereOffsets(plan, i, &co, &xo, &yo);
  return WhereCondAt(mask, mask_dtype, co) ? value : data[xo];
}

}  // namespace tensor
}  // namespace weft
