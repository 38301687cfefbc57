// all_finite, multi_all_finite and multi_sum_sq (MXNet 1.x, used by AMP's loss
// scaler and the LARS/LAMB optimizers): a float32 flag of shape (1,) that is
// 1 when every element of the inputs is finite (init_output=False leaves an
// existing 1/0 to be and-ed with), and the float32 sums of squares of
// num_arrays arrays, shape (num_arrays,). No gradients (MXNet has none).
// Kernels: multi_check_cpu.cc, multi_check.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/optim/multi_check_cpu.h"
#include "core/op/optim/multi_check_gpu.h"

namespace weft {
namespace {

bool FloatInputsFloat32Out(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  bool done = true;
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] == DType::kUnknown) done = false;
    else nnx::CheckFloating((*in)[i], p.op()->name, "input " + std::to_string(i));
  }
  AssignType(out, 0, DType::kFloat32, p.op()->name + ": output");
  return done;
}

void CheckCount(const Params& p, size_t inputs) {
  WEFT_CHECK(p.GetInt("num_arrays") >= 1, kInvalidArgument)
      << p.op()->name << ": parameter 'num_arrays' must be at least 1, got " << p.GetInt("num_arrays");
  (void)inputs;
}

[[maybe_unused]] const bool kRegistered = [] {
  WEFT_REGISTER_OP(one, "all_finite");
  one.set_compute_gpu(WEFT_GPU(cuda::AllFiniteGpu));
  one.describe("Check if all the float numbers in the array are finite (used for AMP)")
      .add_input("data")
      .add_param("init_output", ParamType::kBool, "True", "Initialize output to 1.")
      .set_infer_shape([](const Params& p, std::vector<Shape>*, std::vector<Shape>* out) {
        AssignShape(out, 0, Shape{1}, p.op()->name + ": output");
        return true;
      })
      .set_infer_type(FloatInputsFloat32Out)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>&, const std::vector<TensorView>& out) {
        tensor_cpu::AllFiniteCPU("all_finite", in, p.GetBool("init_output"), out[0]);
      });

  WEFT_REGISTER_OP(many, "multi_all_finite");
  many.set_compute_gpu(WEFT_GPU(cuda::MultiAllFiniteGpu));
  many.describe("Check if all the float numbers in all the arrays are finite (used for AMP)")
      .set_variadic("num_arrays")
      .add_param("num_arrays", ParamType::kInt, "1", "Number of arrays.")
      .add_param("init_output", ParamType::kBool, "True", "Initialize output to 1.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        CheckCount(p, in->size());
        AssignShape(out, 0, Shape{1}, p.op()->name + ": output");
        return true;
      })
      .set_infer_type(FloatInputsFloat32Out)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>&, const std::vector<TensorView>& out) {
        tensor_cpu::AllFiniteCPU("multi_all_finite", in, p.GetBool("init_output"), out[0]);
      });

  WEFT_REGISTER_OP(sq, "multi_sum_sq");
  sq.set_compute_gpu(WEFT_GPU(cuda::MultiSumSqGpu));
  sq.describe("Compute the sums of squares of all elements in each list of arrays (the squared L2 norms), "
              "returned as one float32 array of shape (num_arrays,).")
      .set_variadic("num_arrays")
      .add_required_param("num_arrays", ParamType::kInt, "number of input arrays.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        CheckCount(p, in->size());
        AssignShape(out, 0, Shape{p.GetInt("num_arrays")}, p.op()->name + ": output");
        return true;
      })
      .set_infer_type(FloatInputsFloat32Out)
      .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>&, const std::vector<TensorView>& out) {
        tensor_cpu::MultiSumSqCPU(in, out[0]);
      });
  return true;
}();

}  // namespace
}  // namespace weft
