// Custom operators written in a host language (MXNet 1.x's mx.operator.CustomOp,
// registered under the op "Custom" with op_type=<name>).
//
// Note [Custom operators]
// A binding registers a factory per op_type (RegisterCustomOp; the C ABI's
// weft_custom_op_register adapts C callbacks to these interfaces in
// capi/src/c_api_custom.cc). Every distinct set of keyword arguments
// (the Custom node's attributes besides op_type, as strings) gets one
// CustomProp, made once and kept: it answers the argument, output and aux
// names, shape and type inference, need_top_grad and the backward
// dependencies. A CustomOperator is made by the prop once per device, input
// shapes and dtypes, and runs forward and backward as the kernels of
// "Custom" and "_backward_Custom" -- so one object sees a forward and its
// backward, as MXNet's stateful custom op does. The kernels run on an engine
// worker inside an InlinePushScope (Note [Inline pushes] in
// core/engine/engine.h): NDArray ops the callback makes run inline, so it can
// wait on them without taking a worker lane. The arrays a callback gets view
// the op's own buffers; the binding must have finished every read and write
// of them when the callback returns (the C adapter waits on their vars).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/base/context.h"
#include "core/base/dtype.h"
#include "core/base/shape.h"
#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace custom {

// MXNet's tags for the arrays handed to forward/backward.
enum ArrayTag : int { kInData = 0, kOutData = 1, kInGrad = 2, kOutGrad = 3, kAux = 4 };

class CustomOperator {
 public:
  virtual ~CustomOperator() = default;
  // arrays[i] is tagged tags[i]; reqs[i] is the write mode of an output
  // (out_data in forward, in_grad in backward), kNull elsewhere. A view with
  // data == nullptr is an array backward did not declare it depends on.
  virtual void Forward(bool is_train, Context ctx, const std::vector<TensorView>& arrays,
                       const std::vector<int>& tags, const std::vector<OpReq>& reqs) = 0;
  virtual void Backward(Context ctx, const std::vector<TensorView>& arrays, const std::vector<int>& tags,
                        const std::vector<OpReq>& reqs) = 0;
};

class CustomProp {
 public:
  virtual ~CustomProp() = default;
  virtual std::vector<std::string> ListArguments() = 0;
  virtual std::vector<std::string> ListOutputs() = 0;
  virtual std::vector<std::string> ListAuxiliaryStates() = 0;
  // args: the arguments' shapes (Shape::Unknown() when not known). Fills
  // `all` with the shapes of the arguments, outputs and aux states, in that
  // order; throws when the prop's callback fails.
  virtual void InferShape(const std::vector<Shape>& args, std::vector<Shape>* all) = 0;
  // Same for dtypes (DType::kUnknown when not known).
  virtual void InferType(const std::vector<DType>& args, std::vector<DType>* all) = 0;
  virtual bool NeedTopGrad() = 0;
  // MXNet's ids: output gradients, input data, output data. Returns the ids
  // backward reads.
  virtual std::vector<int> DeclareBackwardDependency(const std::vector<int>& out_grad,
                                                     const std::vector<int>& in_data,
                                                     const std::vector<int>& out_data) = 0;
  virtual std::shared_ptr<CustomOperator> CreateOperator(Context ctx, const std::vector<Shape>& in_shapes,
                                                         const std::vector<DType>& in_types) = 0;
};

// kwargs: the node's attributes besides op_type (hidden __keys__ dropped), sorted.
using CustomPropFactory =
    std::function<std::shared_ptr<CustomProp>(const std::vector<std::pair<std::string, std::string>>& kwargs)>;

// Registers (or replaces: MXNet allows re-registering a name) op_type; props
// already made for op_type are dropped.
void RegisterCustomOp(const std::string& op_type, CustomPropFactory factory);
bool CustomOpRegistered(const std::string& op_type);

// The number of arguments of a Custom node (its inputs past them are aux states).
size_t CustomNumArgs(const Params& p);

// The kernels, shared by the CPU declaration and the GPU kernel (custom.cu),
// which runs them on host copies of its arrays.
void CustomForwardCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out);
void CustomBackwardCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace custom
}  // namespace weft
