// Helpers shared by the declarations of the neural-network layer operators
// (FullyConnected, Convolution, Deconvolution, Pooling): MXNet 1.x's per-axis
// tuple parameters and their defaults, the layout check, the float-only type
// rule and the weight/bias input lists.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace nn {

// The kernel parameter: a tuple of 1 to 3 positive sizes (its length is the
// op's spatial rank); throws kInvalidArgument naming op and value otherwise.
std::vector<int64_t> KernelParam(const Params& p);
// A per-axis tuple param (stride, dilate, pad, adj): empty -> `def` on every
// axis, else exactly `nd` entries, each >= `min`.
std::vector<int64_t> AxisParam(const Params& p, const char* name, int nd, int64_t def, int64_t min);
// Accepts layout None or the channel-first layout of rank nd (NCW, NCHW,
// NCDHW); channel-last layouts are rejected with a clear message.
void CheckLayout(const Params& p, int nd);
// data must have nd + 2 dims: (batch, channel, spatial...).
void CheckDataRank(const std::string& op, const Shape& data, int nd);
// Copies a per-axis tuple into the three right-aligned slots of the kernels' geometry.
void Place3(const std::vector<int64_t>& v, int64_t* slots);

// Every input and output has one dtype, float32 or float64.
bool FloatTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out);
// The same, float16 and bfloat16 allowed too: the layers with 16-bit GPU
// kernels (Convolution, Deconvolution, FullyConnected, Pooling, LRN), whose CPU
// kernels refuse them when run.
bool FloatOr16BitTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out);
// {"data", "weight"} plus "bias" unless the op's no_bias is True.
std::vector<std::string> WeightInputNames(const Params& p);
// {"data_grad", "weight_grad"} plus "bias_grad" unless no_bias.
std::vector<std::string> WeightGradNames(const Params& p);

// The parameters MXNet's JSON carries for cuDNN (workspace, cudnn_tune,
// cudnn_off): accepted and ignored on CPU.
void AddCudnnParams(OpDef& op, int64_t workspace_default);
// layout: None or one of MXNet's layout names (checked by CheckLayout).
void AddLayoutParam(OpDef& op);
// Convolution's parameters (kernel ... no_bias, the cuDNN ones, layout), for
// Convolution and the fused operators that take them.
void AddConvolutionParams(OpDef& op);

}  // namespace nn
}  // namespace weft
