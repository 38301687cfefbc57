// What the image operators' declarations share (image_tensor_ops.cc,
// image_aug_ops.cc): shape and type rules.
#pragma once
#include <vector>

#include "core/op/image/image_params.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace image {

// Same shape (checked to be an HWC image or NHWC batch) and dtype in and out.
inline bool SameImageShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!SameShapeInfer(*p.op(), p, in, out)) return false;
  if ((*in)[0].known()) HwcDims((*in)[0], p.op()->name);
  return true;
}
inline bool SameImageType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  return SameTypeInfer(*p.op(), p, in, out);
}

// The declaration of an augmentation op on one image input with in-place
// output (MXNet's MXNET_REGISTER_IMAGE_AUG_OP).
inline OpDef& AugOp(OpDef& op, const char* doc) {
  op.describe(doc).add_input("data").set_infer_shape(SameImageShape).set_infer_type(SameImageType).add_inplace(0, 0);
  return op;
}

}  // namespace image
}  // namespace weft
