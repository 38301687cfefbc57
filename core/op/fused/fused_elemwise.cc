// _fused_elemwise: a chain of elementwise operators run as one pass over
// memory. The fusion pass (core/graph/fusion.cc) writes these nodes; the
// program format is Note [Fused elementwise programs] in
// core/op/fused/fused_elemwise_cpu.h, the kernel core/op/fused/fused_elemwise_cpu.cc.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/op/fused/fused_elemwise_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/fused/fused_elemwise_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// Inputs that the memory planner may hand to the output (the kernel reads
// each tile of every input before writing that tile).
constexpr int kInplaceInputs = 16;

// Programs parsed once per thread: kernels run on engine workers, and a graph
// holds few distinct programs.
const fused_cpu::FusedProgram& CachedProgram(const Params& p) {
  thread_local std::unordered_map<std::string, std::unique_ptr<fused_cpu::FusedProgram>> cache;
  const std::string& text = p.GetString("program");
  auto it = cache.find(text);
  if (it != cache.end() && it->second->num_inputs == p.GetInt("num_args")) return *it->second;
  if (cache.size() >= 256) cache.clear();
  auto prog = std::make_unique<fused_cpu::FusedProgram>(
      fused_cpu::ParseFusedProgram(text, static_cast<int>(p.GetInt("num_args"))));
  return *(cache[text] = std::move(prog));
}

bool FusedInferType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const bool done = SameTypeInfer(*p.op(), p, in, out);
  const DType t = (*out)[0];
  WEFT_CHECK(t == DType::kUnknown || t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << "_fused_elemwise: only float32 and float64 are supported, got " << DTypeName(t);
  return done;
}

bool RegisterFusedElemwise() {
  WEFT_REGISTER_OP(op, "_fused_elemwise").set_compute_gpu(WEFT_GPU(cuda::FusedElemwiseGpu));
  op.set_fusion_pattern(FusionPattern::Of(FusionPattern::kElementwiseProgram));
  op.describe("Runs a chain of elementwise operators as one pass over memory (written by the graph "
              "fusion pass; see WEFT_FUSION).\n\n"
              "All inputs and the output share one shape and dtype (float32 or float64). `program` "
              "lists instructions separated by ';' over values numbered in order: the inputs are "
              "0 .. num_args-1, instruction k defines value num_args+k, and the last instruction "
              "gives the output. Instructions: ``u:<unary>:<a>`` (abs, exp, relu, ...), "
              "``b:<binary>:<a>:<b>`` (add, sub, mul, div, pow, max, min, mod, eq, ne, gt, ge, lt, le), "
              "``s:<binary>:<a>:<scalar>:<left>`` (with a scalar; left=1 computes op(scalar, a)), "
              "``a:<act_type>:<a>`` (Activation), ``g:<act_type>:<gy>:<y>[:<x>]`` "
              "(Activation's gradient) and ``c:<a>`` (copy).\n\n"
              "Example::\n\n  _fused_elemwise(a, b, num_args=2, program='b:mul:0:1;s:add:2:1:0') = a * b + 1")
      .set_variadic("num_args")
      .add_required_param("num_args", ParamType::kInt, "Number of inputs.")
      .add_required_param("program", ParamType::kString,
                          "The instructions (Note [Fused elementwise programs] in core/op/fused/fused_elemwise_cpu.h).")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        CachedProgram(p);  // a bad program fails here, on the caller's thread
        return SameShapeInfer(*p.op(), p, in, out);
      })
      .set_infer_type(FusedInferType)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        fused_cpu::FusedElemwiseForward(CachedProgram(p), in, req[0], out[0]);
      });
  for (int i = 0; i < kInplaceInputs; ++i) op.add_inplace(i, 0);
  // No gradient rule: the pass runs after gradient construction, so no
  // gradient is ever taken through a fused node.
  return true;
}

[[maybe_unused]] const bool kFusedElemwiseRegistered = RegisterFusedElemwise();

}  // namespace
}  // namespace weft
