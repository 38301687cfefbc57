// The operator registry: each op is declared once, next to its kernels
// (docs/DESIGN.md "Operator registry — the single source of truth"). Bindings,
// docs, the symbol front end and the test harness all read it.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/context.h"
#include "core/base/dtype.h"
#include "core/base/shape.h"
#include "core/opdef/params.h"
#include "core/opdef/tensor_view.h"

namespace weft {

class RandomState;

// How an output is written: a runtime argument of every kernel (docs/STYLE.md).
enum class OpReq : int { kNull = 0, kWriteTo = 1, kWriteInplace = 2, kAddTo = 3 };

// What the kernel may use besides its inputs and outputs.
struct OpContext {
  bool is_train = false;
  Context ctx;
  RandomState* rng = nullptr;  // set when OpDef::needs_rng; its engine var is written
  // The engine worker's stream (gpu::Stream) for GPU kernels; nullptr on CPU.
  void* stream = nullptr;
  // When OpDef::uses_input_stamps: one write stamp per input (Note [Write
  // stamps] in core/engine/engine.h), 0 where unknown; otherwise nullptr. A
  // kernel that runs another op's kernel on other inputs must clear it (the
  // fused layers pass their convolution's data and weight at the same places).
  const uint64_t* input_stamps = nullptr;
  // Input i's stamp when data derived from it may be kept between calls (not
  // training: the weights then change at every step); else 0.
  uint64_t InferenceStamp(size_t i) const { return !is_train && input_stamps != nullptr ? input_stamps[i] : 0; }
};

// Fusion class: which passes may merge this op with neighbours.
enum class FusionClass : int { kOpaque = 0, kElementwise = 1, kReduce = 2, kInjective = 3 };

// How the fusion pass (core/graph/fusion.cc) writes an elementwise op into a
// _fused_elemwise program (Note [Fused elementwise programs] in
// core/op/fused/fused_elemwise_cpu.h). Set by the op's declaration; an
// elementwise-class op without one (where, Cast) is never fused.
struct FusedForm {
  enum Kind : int { kNone, kUnary, kBinary, kScalar, kAct, kActGrad, kIdentity, kAddN, kClip };
  Kind kind = kNone;
  std::string fn;            // the program's function name ("exp", "add", ...)
  bool scalar_left = false;  // kScalar: op(scalar, x) (the _r*_scalar ops)
};

// Note [Op attributes on the declaration]
// Everything the passes know of an op is set by its declaration, on the
// builder WEFT_REGISTER_OP returns, and read from the OpDef: no pass, executor
// or binding keeps a table keyed by op name. The attributes below were such
// tables until session 18 (SetSameShape("where", ...), SetMutateInputsRule,
// SetDynamicShapeRule, SetTakesFreeAttributes, and the fusion pass matching
// "BatchNorm" or "Convolution" by string). What the schema layer cannot name,
// because its implementation lives in a layer above (the executor's graph
// runner for the control-flow ops), the op names by a typed tag that the upper
// layer fills in: Note [Subgraph kernel slots] in core/op/control/subgraph_kernel.h.
// None of these is part of the schema (weft_op_schema) except mutate_inputs.

// Inputs and outputs that always share one shape whatever the parameters
// (elementwise ops, activations, softmax, a norm's data and output): graph
// inference unifies their dims both ways, so a partially known shape flows
// backward through them too (Note [Partial shapes], core/graph/infer_node.cc).
// An op without its own infer_shape (SameShapeInfer: every input and output)
// needs none (SameShapeOf in core/opdef/op_rules.h).
struct SameShapeSlots {
  std::vector<int> inputs;
  std::vector<int> outputs;
  bool all = false;  // every input and output (a variadic op's too)
  static SameShapeSlots All() {
    SameShapeSlots s;
    s.all = true;
    return s;
  }
  // Input 0 and output 0 (an activation's or a norm's data and output).
  static SameShapeSlots Data() { return SameShapeSlots{{0}, {0}, false}; }
};

// An op whose output shapes depend on its inputs' values (Note [Data-dependent
// output shapes] in core/opdef/dynamic_shape.h).
struct DynamicShapeRule {
  std::vector<int> reads;  // the inputs whose values decide the shapes
  // in_shapes: every input's shape; values[i] views input i on the host for
  // i in reads (data == nullptr for the others). Returns the output shapes.
  std::function<std::vector<Shape>(const Params&, const std::vector<Shape>& in_shapes,
                                   const std::vector<TensorView>& values)>
      shapes;
};

// Note [Fusion patterns on the op]
// The layer fusions of core/graph/fusion.cc (Note [Fusion rules]) are
// patterns over roles, and each op declares the role it plays:
//   kLayer: a weight layer (FullyConnected, Convolution) that can absorb a
//     following activation as a post-op (`with_activation`: the fused op
//     replacing the pair) and, for a convolution, fold a following
//     normalization, residual sum and activation (`with_norm`). The fused ops
//     are named here, in the declaration, and found by the pass through the
//     registry; a build without them (the portable predictor) fuses nothing.
//   kActivation: an elementwise activation whose `act_type` parameter becomes
//     the fused op's post-op (Activation).
//   kNorm: a normalization that folds into the layer before it at inference
//     (BatchNorm): input 0 is the data, every other output (its statistics)
//     must be unread, `applies` says for which parameters (channel axis 1, no
//     output_mean_var), and `carried_params` are handed to the fused op.
//   kResidualSum: an elementwise sum of two same-shaped entries that a norm's
//     chain may absorb as the fused op's with_sum (elemwise_add).
//   kElementwiseProgram: the op that runs a fused elementwise group
//     (_fused_elemwise, Note [Fused elementwise programs]).
// An op plays one role at most; `applies`, when set, is a condition on the
// node's parameters every role checks.
struct FusionPattern {
  enum Role : int { kNone, kLayer, kActivation, kNorm, kResidualSum, kElementwiseProgram };
  Role role = kNone;
  std::string with_activation;  // kLayer: the op replacing layer + activation ("" none)
  std::string with_norm;        // kLayer: the op replacing layer + norm (+ sum) (+ activation) ("" none)
  std::vector<std::string> carried_params;     // kNorm: parameters the fused op takes over
  std::function<bool(const Params&)> applies;  // empty: always
  bool Applies(const Params& p) const { return !applies || applies(p); }

  static FusionPattern Layer(std::string act_fused, std::string norm_fused = "") {
    FusionPattern f;
    f.role = kLayer;
    f.with_activation = std::move(act_fused);
    f.with_norm = std::move(norm_fused);
    return f;
  }
  static FusionPattern Norm(std::vector<std::string> carried, std::function<bool(const Params&)> when) {
    FusionPattern f;
    f.role = kNorm;
    f.carried_params = std::move(carried);
    f.applies = std::move(when);
    return f;
  }
  static FusionPattern Of(Role r) {
    FusionPattern f;
    f.role = r;
    return f;
  }
};

// Shape inference. `in` has one entry per input, `out` one per output; unknown
// entries are Shape::Unknown(). Fill every unknown entry you can; throw
// weft::Error(kShape) with op, argument and expectation on a mismatch. Return
// true when every output (and input) shape is known.
using FInferShape = std::function<bool(const Params&, std::vector<Shape>* in, std::vector<Shape>* out)>;
// Type inference, same convention with DType::kUnknown; throw kDType on mismatch.
using FInferType = std::function<bool(const Params&, std::vector<DType>* in, std::vector<DType>* out)>;
// A kernel: plain function over views. Must honour req[i] (kWriteTo/kWriteInplace
// overwrite, kAddTo accumulates, kNull skips). Runs on an engine worker thread.
using FCompute = std::function<void(const OpContext&, const Params&, const std::vector<TensorView>& in,
                                    const std::vector<OpReq>& req, const std::vector<TensorView>& out)>;
using FNumIO = std::function<int(const Params&)>;
using FListNames = std::function<std::vector<std::string>(const Params&)>;
using FMutateInputs = std::function<std::vector<int>(const Params&)>;

// The gradient rule builds backward nodes in the graph IR (core/graph/graph.h):
// given the forward node and the gradients of its outputs, it returns one
// entry per input (docs/DESIGN.md: symbolic gradients).
struct Node;
struct NodeEntry;
using FGradient = std::function<std::vector<NodeEntry>(const std::shared_ptr<Node>& node,
                                                       const std::vector<NodeEntry>& out_grads)>;

class OpDef {
 public:
  std::string name;
  std::vector<std::string> aliases;
  std::string doc;
  std::vector<ParamSpec> params;

  // Inputs: fixed names, or a variadic count taken from an int parameter
  // (e.g. concat's "num_args"; inputs are then named arg0, arg1, ...).
  std::vector<std::string> input_names;
  std::string variadic_param;
  FListNames list_input_names;  // overrides both when set (e.g. no_bias)
  int num_outputs = 1;
  FNumIO num_outputs_fn;        // overrides num_outputs when set
  FListNames list_output_names; // default: "output" or "output0".."outputN-1"
  int num_visible_outputs = -1; // -1: all outputs are visible
  FNumIO num_visible_outputs_fn;  // overrides num_visible_outputs (BatchNorm's output_mean_var)
  std::vector<int> mutate_inputs;  // inputs written by the op (engine writes, aux states)
  FMutateInputs mutate_inputs_fn;  // overrides mutate_inputs when set (Custom: from its CustomOpProp)
  // Accepts any attribute besides its declared parameters (kept in
  // Params::raw() only): Custom passes the user's keyword arguments as strings.
  bool takes_free_attributes = false;
  SameShapeSlots same_shape;       // read through SameShapeOf (core/opdef/op_rules.h)
  bool has_same_shape = false;
  DynamicShapeRule dynamic_shape;  // set: output shapes from input values
  // The op's nodes carry graphs (the control-flow ops: Note [Subgraph
  // operators] in core/op/control/subgraph_ops.h), read by core/graph/subgraphs.cc.
  bool has_subgraphs = false;
  FusionPattern fusion_pattern;
  // Called at composition for each input that is a variable: may add hidden
  // attributes (BatchNorm gives its moving mean/var an __init__ hint).
  std::function<void(int input, std::map<std::string, std::string>* var_attrs)> set_input_var_attrs;

  FInferShape infer_shape;
  FInferType infer_type;  // default: all inputs and outputs share one dtype
  FCompute compute_cpu;
  FCompute compute_gpu;
  std::vector<std::pair<int, int>> inplace;  // (input, output) that may share memory
  FusionClass fusion = FusionClass::kOpaque;
  FusedForm fused_form;
  // The names (its own or aliases) under which the op is also a method of
  // NDArray and Symbol (MXNet's fluent methods: x.sum(axis=1)); the bindings
  // read them from the schema ("methods").
  std::vector<std::string> methods;
  bool needs_rng = false;
  // The kernel reads OpContext::input_stamps (to cache data derived from its
  // inputs: Note [Weight layout cache] in core/op/common/weight_cache.h).
  bool uses_input_stamps = false;
  std::function<bool(const Params&)> needs_rng_fn;  // overrides needs_rng (LeakyReLU: rrelu only)
  FGradient gradient;  // empty: not differentiable (yet)

  // The builder WEFT_REGISTER_OP returns (Note [One way to declare an op]).
  OpDef& describe(std::string d) { doc = std::move(d); return *this; }
  OpDef& add_alias(std::string a);
  OpDef& add_input(std::string n) { input_names.push_back(std::move(n)); return *this; }
  OpDef& set_variadic(std::string p) { variadic_param = std::move(p); return *this; }
  OpDef& add_param(std::string n, ParamType t, std::string def, std::string d);
  OpDef& add_required_param(std::string n, ParamType t, std::string d);
  OpDef& add_optional_param(std::string n, ParamType t, std::string d);  // default None
  OpDef& add_enum_param(std::string n, std::vector<std::string> allowed, std::string def, std::string d);
  OpDef& set_num_outputs(int n) { num_outputs = n; return *this; }
  OpDef& set_num_outputs(FNumIO f) { num_outputs_fn = std::move(f); return *this; }
  OpDef& set_infer_shape(FInferShape f) { infer_shape = std::move(f); return *this; }
  OpDef& set_infer_type(FInferType f) { infer_type = std::move(f); return *this; }
  OpDef& set_compute_cpu(FCompute f) { compute_cpu = std::move(f); return *this; }
  // The GPU kernel, from the op family's <file>_gpu.h, wrapped in WEFT_GPU()
  // (Note [GPU kernels]).
  OpDef& set_compute_gpu(FCompute f) { compute_gpu = std::move(f); return *this; }
  OpDef& add_inplace(int in, int out) { inplace.emplace_back(in, out); return *this; }
  OpDef& set_fusion(FusionClass c) { fusion = c; return *this; }
  OpDef& add_method(std::string n) {
    methods.push_back(std::move(n));
    return *this;
  }
  OpDef& set_fused_form(FusedForm::Kind k, std::string fn = "", bool scalar_left = false) {
    fused_form = FusedForm{k, std::move(fn), scalar_left};
    return *this;
  }
  OpDef& set_needs_rng() { needs_rng = true; return *this; }
  OpDef& set_uses_input_stamps() { uses_input_stamps = true; return *this; }
  OpDef& set_mutate_inputs(std::vector<int> m) { mutate_inputs = std::move(m); return *this; }
  OpDef& set_mutate_inputs_fn(FMutateInputs f) { mutate_inputs_fn = std::move(f); return *this; }
  OpDef& set_takes_free_attributes() { takes_free_attributes = true; return *this; }
  OpDef& set_same_shape(SameShapeSlots s) {
    same_shape = std::move(s);
    has_same_shape = true;
    return *this;
  }
  OpDef& set_dynamic_shape(DynamicShapeRule r) { dynamic_shape = std::move(r); return *this; }
  OpDef& set_has_subgraphs() { has_subgraphs = true; return *this; }
  OpDef& set_fusion_pattern(FusionPattern f) { fusion_pattern = std::move(f); return *this; }
  OpDef& set_gradient(FGradient f) { gradient = std::move(f); return *this; }

  // Derived views of the declaration.
  int NumInputs(const Params& p) const;
  // The variadic_param's value, checked to be in [0, kMaxVariadicInputs].
  int VariadicCount(const Params& p) const;
  static constexpr int64_t kMaxVariadicInputs = 1 << 20;
  int NumOutputs(const Params& p) const;
  int NumVisibleOutputs(const Params& p) const;
  bool NeedsRNG(const Params& p) const { return needs_rng_fn ? needs_rng_fn(p) : needs_rng; }
  std::vector<std::string> InputNames(const Params& p) const;
  std::vector<std::string> OutputNames(const Params& p) const;
  const ParamSpec* FindParam(const std::string& n) const;
  int ParamIndex(const std::string& n) const;  // -1 when absent
  int ParamIndex(const char* n) const;  // the same, without building a string per kernel lookup
  // Runs infer_shape/infer_type (or the default same-dtype rule).
  bool InferShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) const;
  bool InferType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) const;
  // The schema as JSON (weft_op_schema): name, aliases, doc, params, inputs, ...
  std::string SchemaJSON() const;
};

class OpRegistry {
 public:
  static OpRegistry* Get();
  OpDef& Add(const std::string& name);  // aborts registration on duplicate names (programming error)
  const OpDef* Find(const std::string& name) const;  // by name or alias; nullptr if absent
  const OpDef& FindOrThrow(const std::string& name) const;  // kNotFound naming the op
  // Canonical names, sorted.
  std::vector<std::string> ListNames() const;
  void AddAlias(OpDef* op, const std::string& alias);

 private:
  // Written only during static initialisation, read-only afterwards.
  std::vector<std::unique_ptr<OpDef>> ops_;
  std::unordered_map<std::string, OpDef*> by_name_;  // names and aliases
};

}  // namespace weft

#define WEFT_OP_CONCAT_(a, b) a##b
#define WEFT_OP_CONCAT(a, b) WEFT_OP_CONCAT_(a, b)

// Note [One way to declare an op]
// Every op is declared through WEFT_REGISTER_OP, which creates the op and is its
// builder (OpDef&), so the declaration chains on it; a lint
// (tests/python/test_register_op_lint.py) fails on a raw OpRegistry ->Add( anywhere
// but here and registry.cc. Two forms of the one macro:
//   WEFT_REGISTER_OP("exp").describe("...").add_input("data")...;
//       at namespace scope: the builder is held by a hidden static;
//   WEFT_REGISTER_OP(fwd, "Activation").set_compute_gpu(...);  fwd.describe(...);
//       anywhere, a function body included: declares `OpDef& fwd`, bound to the
//       builder, for declarations made in steps, in a loop over a table or by a
//       helper called once per op name (`Declare(name)`), where a hidden static
//       would register only the first time through.
#define WEFT_REGISTER_OP_1_(name)                                                    \
  [[maybe_unused]] static ::weft::OpDef& WEFT_OP_CONCAT(weft_op_reg_, __COUNTER__) = \
      ::weft::OpRegistry::Get()->Add(name)
#define WEFT_REGISTER_OP_2_(var, name) [[maybe_unused]] ::weft::OpDef& var = ::weft::OpRegistry::Get()->Add(name)
#define WEFT_REGISTER_OP_PICK_(a1, a2, form, ...) form
#define WEFT_REGISTER_OP(...) \
  WEFT_REGISTER_OP_PICK_(__VA_ARGS__, WEFT_REGISTER_OP_2_, WEFT_REGISTER_OP_1_, unused)(__VA_ARGS__)

// Note [GPU kernels]
// An op's GPU kernel lives in its family folder (core/op/<family>/<file>.cu,
// compiled by nvcc in the CUDA build and as C++ for the host emulation
// otherwise) and is attached by the op's own declaration:
//   WEFT_REGISTER_OP("exp")...set_compute_gpu(WEFT_GPU(cuda::ExpGpu));
// The .cu file defines the entry point with WEFT_GPU_KERNEL_EXPORT, its
// <file>_gpu.h declares it with WEFT_GPU_KERNEL_DECL. The dependency-free
// predictor (WEFT_PORTABLE) compiles no GPU sources: there WEFT_GPU(k) is an
// empty FCompute and `k` is never referenced, so nothing is left unresolved.
#define WEFT_GPU_KERNEL_DECL(sym)                                                            \
  void sym(const ::weft::OpContext& ctx, const ::weft::Params& p,                            \
           const std::vector<::weft::TensorView>& in, const std::vector<::weft::OpReq>& req, \
           const std::vector<::weft::TensorView>& out)
#define WEFT_GPU_KERNEL_EXPORT(sym, impl) \
  WEFT_GPU_KERNEL_DECL(sym) { impl(ctx, p, in, req, out); }
#if defined(WEFT_PORTABLE)
#define WEFT_GPU(kernel) ::weft::FCompute()
#else
#define WEFT_GPU(kernel) ::weft::FCompute(kernel)
#endif
