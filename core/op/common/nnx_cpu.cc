#include "core/op/common/nnx_cpu.h"

#include "core/op/common/copy_cpu.h"

namespace weft {
namespace nnx_cpu {

std::vector<double> ToDoubles(const TensorView& v) {
  std::vector<double> out(static_cast<size_t>(v.Size()));
  if (!out.empty())
    tensor_cpu::ConvertCopy(v, OpReq::kWriteTo, TensorView{out.data(), DType::kFloat64, v.shape});
  return out;
}

}  // namespace nnx_cpu
}  // namespace weft
