// Small helpers shared by operator declarations: backward-op shape/type rules,
// write-mode stores, the kernel thread count. The checked shape/type assignment
// and the "all the same shape/dtype" inference come with default_infer.h (the
// schema's fallback rules, Note [Default inference in the schema layer]).
#pragma once
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/opdef/default_infer.h"
#include "core/opdef/op_def.h"

namespace weft {

// Backward ops that take the forward input whose shape/dtype their result has
// as an extra input (graph inference runs forward only). Output 0 takes the
// shape of input `like`; the gradient input must be known too.
bool ShapeOfInput(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, size_t like);
// Output 0 takes the dtype of input `src`; every other input is free.
bool TypeOfInput(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t src);
// Backward ops of variadic forwards (_backward_Concat, _backward_UpSampling_multi):
// inputs (out_grad, arg0, ..., argN-1) and outputs arg0_grad ... by num_args;
// output i takes the shape of input i + 1 (a forward input).
std::vector<std::string> GradAndArgs(const Params& p);
std::vector<std::string> ArgGrads(const Params& p);
bool ShapesOfArgs(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out);

// Applies a write mode to one element.
template <typename T>
inline void StoreReq(OpReq req, T* dst, T v) {
  if (req == OpReq::kAddTo) *dst = static_cast<T>(static_cast<float>(*dst) + static_cast<float>(v));
  else if (req != OpReq::kNull) *dst = v;
}
template <>
inline void StoreReq<double>(OpReq req, double* dst, double v) {
  if (req == OpReq::kAddTo) *dst += v;
  else if (req != OpReq::kNull) *dst = v;
}
template <>
inline void StoreReq<int64_t>(OpReq req, int64_t* dst, int64_t v) {
  if (req == OpReq::kAddTo) *dst += v;
  else if (req != OpReq::kNull) *dst = v;
}

// Threads a kernel may use: WEFT_OMP_THREADS, else OMP_NUM_THREADS (what
// OpenBLAS's and oneDNN's OpenMP obey too, so "one thread" means one thread in
// every kernel), else every core. Read once.
int KernelThreads();

// Splits [0, n) into chunks run on up to KernelThreads() threads when
// n * cost_per_item is large enough to pay for it; otherwise runs inline.
// fn(begin, end). Note [ParallelFor threads] in op_util.cc.
void ParallelFor(int64_t n, int64_t cost_per_item, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace weft
