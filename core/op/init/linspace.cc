// _linspace (mx.nd.linspace, mx.sym.linspace): num evenly spaced values from
// start to stop (stop included when endpoint). Like the other init ops, "ctx"
// places the output (read by Invoke); the value i is start + i * step in float64.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/init/linspace_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

WEFT_REGISTER_OP("_linspace").set_compute_gpu(WEFT_GPU(cuda::LinspaceGpu))
    .describe("Returns num evenly spaced values over [start, stop] (endpoint=True) or [start, stop).")
    .add_required_param("start", ParamType::kFloat, "Start of the interval.")
    .add_required_param("stop", ParamType::kFloat, "End of the interval.")
    .add_param("step", ParamType::kFloat, "1", "Unused (MXNet's shared range parameter).")
    .add_param("repeat", ParamType::kInt, "1", "Unused (MXNet's shared range parameter).")
    .add_param("infer_range", ParamType::kBool, "False", "Unused (MXNet's shared range parameter).")
    .add_required_param("num", ParamType::kInt, "The number of values (non-negative).")
    .add_param("endpoint", ParamType::kBool, "True", "Whether stop is the last value.")
    .add_param("ctx", ParamType::kString, "", "Device of the output, e.g. 'cpu(0)' or 'gpu(1)'; empty: cpu(0).")
    .add_param("dtype", ParamType::kDType, "float32", "The output dtype.")
    .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
      const int64_t num = p.GetInt("num");
      WEFT_CHECK(num >= 0, kInvalidArgument) << "_linspace: num must be non-negative, got " << num;
      AssignShape(out, 0, Shape({num}), "_linspace: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>*, std::vector<DType>* out) {
      AssignType(out, 0, p.GetDType("dtype"), "_linspace: output (dtype)");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>&,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int64_t num = p.GetInt("num");
      const double start = p.GetFloat("start"), stop = p.GetFloat("stop");
      const int64_t div = p.GetBool("endpoint") ? num - 1 : num;
      const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
      std::vector<double> v(static_cast<size_t>(num));
      for (int64_t i = 0; i < num; ++i) v[static_cast<size_t>(i)] = start + static_cast<double>(i) * step;
      TensorView src;
      src.data = v.data();
      src.dtype = DType::kFloat64;
      src.shape = out[0].shape;
      tensor_cpu::ConvertCopy(src, req[0], out[0]);
    });

}  // namespace
}  // namespace weft
