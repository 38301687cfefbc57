// GPU kernel of _npx_constraint_check (np_constraint_check.cu), attached by
// np_constraint_check.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpConstraintCheckGpu);  // _npx_constraint_check

}  // namespace cuda
}  // namespace weft
