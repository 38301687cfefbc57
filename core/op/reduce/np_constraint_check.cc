// MXNet 1.9.1's _npx_constraint_check(input, msg) under its registered name
// (mxnet.gluon.probability writes it in front of a distribution's draws):
// the all-reduction of a bool array as a 0-d bool, raising `msg` (a ValueError
// in Python, as MXNet's) when an element is false. No gradient (a bool in, a
// bool out; MXNet registers none). The GPU kernel runs this one on host
// copies (np_constraint_check.cu): the check ends in a host-side error anyway.
#include "core/op/reduce/np_constraint_check.h"

#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/reduce/np_constraint_check_gpu.h"
#include "core/opdef/default_infer.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace reduce_np {

void ConstraintCheckCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool* x = in[0].ptr<bool>();
  const int64_t n = in[0].Size();
  bool all = true;
  for (int64_t i = 0; i < n && all; ++i) all = x[i];
  WEFT_CHECK(all, kInvalidArgument) << p.GetString("msg");
  if (req[0] != OpReq::kNull) out[0].ptr<bool>()[0] = true;
}

}  // namespace reduce_np

namespace {

bool ConstraintCheckType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  if ((*in)[0] == DType::kUnknown) return false;
  WEFT_CHECK((*in)[0] == DType::kBool, kDType) << op.name << ": input must be bool, got " << DTypeName((*in)[0]);
  AssignType(out, 0, DType::kBool, op.name + ": output");
  return true;
}

WEFT_REGISTER_OP("_npx_constraint_check")
    .describe("True (a 0-d bool) when every element of the bool `input` is true; otherwise raises `msg` "
              "(ValueError). mxnet.gluon.probability checks a distribution's parameters with it.")
    .add_input("input")
    .add_param("msg", ParamType::kString, "Constraint violated.", "Error message raised when constraint violated")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, Shape(std::vector<int64_t>{}), p.op()->name + ": output");
      return true;
    })
    .set_infer_type(ConstraintCheckType)
    .set_compute_cpu(reduce_np::ConstraintCheckCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpConstraintCheckGpu));

}  // namespace
}  // namespace weft
