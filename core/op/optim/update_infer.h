// Declaration helpers of the optimizer updates of optim_single.cc and
// optim_multi.cc: shape unification with partial shapes (a 0 dimension is
// unknown and is filled from the other slots, forward and backward), the
// fixed-dtype slots of the multi-precision updates, and the parameters the
// updates share. Host code only.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace optim {

// A shape or dtype slot of one call, with the name errors give it.
struct ShapeSlot {
  Shape* s;
  std::string name;
};
struct TypeSlot {
  DType* t;
  std::string name;
};

// Every slot gets the one shape they share; throws kShape naming op and slot
// on a mismatch. True when that shape is fully known.
bool UnifyShapes(const std::string& op, const std::vector<ShapeSlot>& slots);
// The slot has shape `want` (merged with the partial shape it holds).
void FixShape(const std::string& op, const ShapeSlot& slot, const Shape& want);
// Every slot gets one of float16, float32, float64; throws kDType naming op and slot.
bool UnifyFloatTypes(const std::string& op, const std::vector<TypeSlot>& slots);
void FixType(const std::string& op, const TypeSlot& slot, DType want);
// Every input and output one of float16, float32, float64 (MXNet's real dtypes).
bool RealSameTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out);

// "op: input 'name'" / "op: output k" slots.
ShapeSlot InShape(const Params& p, std::vector<Shape>* in, size_t i);
ShapeSlot OutShape(const Params& p, std::vector<Shape>* out, size_t i);
TypeSlot InType(const Params& p, std::vector<DType>* in, size_t i);
TypeSlot OutType(const Params& p, std::vector<DType>* out, size_t i);

// The parameters closing MXNet's SGD-like parameter lists.
void AddWd(OpDef& op, bool required = false);
void AddRescaleGrad(OpDef& op);
void AddClipGradient(OpDef& op, const char* name = "clip_gradient");

// Throws kInvalidArgument naming op and parameter unless the tuple has n entries.
void CheckTupleSize(const Params& p, const char* param, size_t size, int64_t n, const char* count);
// Throws kInvalidArgument unless the count parameter is >= 1.
int64_t PositiveCount(const Params& p, const char* count);

}  // namespace optim
}  // namespace weft
