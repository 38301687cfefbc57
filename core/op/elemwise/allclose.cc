// _contrib_allclose (MXNet 1.x contrib): whether two arrays of one shape are
// element-wise equal within a tolerance, as an int32 array of shape (1,)
// holding 1 or 0. No gradient. Kernels: allclose_cpu.cc, allclose.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/elemwise/allclose_cpu.h"
#include "core/op/elemwise/allclose_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

[[maybe_unused]] const bool kRegistered = [] {
  WEFT_REGISTER_OP(op, "_contrib_allclose");
  op.set_compute_gpu(WEFT_GPU(cuda::AllCloseGpu));
  op.describe("This operators implements the numpy.allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)\n\n"
              ".. math::\n\n    f(x) = |a-b|<=atol+rtol|b|\n\n"
              "where :math:`a, b` are the input tensors of equal types an shapes\n"
              ":math:`atol, rtol` the values of absolute and relative tolerance (by default, rtol=1e-05, "
              "atol=1e-08)\n\nExamples::\n\n  a = [1e10, 1e-7],\n  b = [1.00001e10, 1e-8]\n"
              "  y = allclose(a, b)\n  y = False\n\n  a = [1e10, 1e-8],\n  b = [1.00001e10, 1e-9]\n"
              "  y = allclose(a, b)\n  y = True")
      .add_input("a")
      .add_input("b")
      .add_param("rtol", ParamType::kFloat, "1e-05", "Relative tolerance.")
      .add_param("atol", ParamType::kFloat, "1e-08", "Absolute tolerance.")
      .add_param("equal_nan", ParamType::kBool, "True",
                 "Whether to compare NaN's as equal. If True, NaN's in A will be considered equal to NaN's in B in "
                 "the output array.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape &a = (*in)[0], &b = (*in)[1];
        WEFT_CHECK(!a.known() || !b.known() || a == b, kShape)
            << "_contrib_allclose: inputs 'a' and 'b' must have the same shape, got " << a.ToString() << " and "
            << b.ToString();
        AssignShape(out, 0, Shape{1}, p.op()->name + ": output");
        if (a.known() && !b.known()) AssignShape(in, 1, a, "_contrib_allclose: input 'b'");
        if (b.known() && !a.known()) AssignShape(in, 0, b, "_contrib_allclose: input 'a'");
        return (*in)[0].known();
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const DType a = (*in)[0], b = (*in)[1];
        WEFT_CHECK(a == DType::kUnknown || b == DType::kUnknown || a == b, kDType)
            << "_contrib_allclose: inputs 'a' and 'b' must have the same dtype, got " << DTypeName(a) << " and "
            << DTypeName(b);
        AssignType(out, 0, DType::kInt32, p.op()->name + ": output");
        return a != DType::kUnknown && b != DType::kUnknown;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>&, const std::vector<TensorView>& out) {
        tensor::CloseRule rule;
        rule.rtol = p.GetFloat("rtol");
        rule.atol = p.GetFloat("atol");
        rule.equal_nan = p.GetBool("equal_nan");
        tensor_cpu::AllCloseCPU(rule, in[0], in[1], out[0]);
      });
  return true;
}();

}  // namespace
}  // namespace weft
