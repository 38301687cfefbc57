// reshape_like (lhs's elements in a shape taken partly from rhs) and the ops
// that give an array's shape as data: shape_array, size_array (int64).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/shape/reshape_transpose_gpu.h"
#include "core/op/shape/shape_of_gpu.h"

namespace weft {
namespace {

// [begin, end) of a shape of ndim dims from optional, possibly negative bounds.
void Range(const Params& p, const char* b, const char* e, int ndim, const char* input, int* begin, int* end) {
  auto fix = [&](const char* name, int64_t def) -> int {
    if (p.IsNone(name)) return static_cast<int>(def);
    int64_t v = p.GetInt(name);
    if (v < 0) v += ndim;
    WEFT_CHECK(v >= 0 && v <= ndim, kInvalidArgument)
        << "reshape_like: " << name << " " << p.GetInt(name) << " is out of range for the " << ndim
        << " dims of input '" << input << "'";
    return static_cast<int>(v);
  };
  *begin = fix(b, 0);
  *end = fix(e, ndim);
  WEFT_CHECK(*begin <= *end, kInvalidArgument) << "reshape_like: " << b << " (" << *begin << ") must not exceed " << e
                                               << " (" << *end << ") for input '" << input << "'";
}

Shape ReshapeLikeShape(const Params& p, const Shape& lhs, const Shape& rhs) {
  int lb, le, rb, re;
  Range(p, "lhs_begin", "lhs_end", lhs.ndim(), "lhs", &lb, &le);
  Range(p, "rhs_begin", "rhs_end", rhs.ndim(), "rhs", &rb, &re);
  Shape o;
  for (int i = 0; i < lb; ++i) o.push_back(lhs[i]);
  for (int i = rb; i < re; ++i) o.push_back(rhs[i]);
  for (int i = le; i < lhs.ndim(); ++i) o.push_back(lhs[i]);
  WEFT_CHECK(o.Size() == lhs.Size(), kShape)
      << "reshape_like: cannot reshape input 'lhs' of shape " << lhs.ToString() << " (" << lhs.Size()
      << " elements) to " << o.ToString() << " taken from 'rhs' of shape " << rhs.ToString();
  return o;
}

WEFT_REGISTER_OP("reshape_like").set_compute_gpu(WEFT_GPU(cuda::ReshapeGpu)).add_method("reshape_like")
    .describe("lhs's elements in a new shape: lhs.shape[:lhs_begin] + rhs.shape[rhs_begin:rhs_end] + "
              "lhs.shape[lhs_end:] (the whole of rhs's shape by default). Bounds may be negative.")
    .add_input("lhs")
    .add_input("rhs")
    .add_optional_param("lhs_begin", ParamType::kInt, "First axis of lhs to replace (None: 0).")
    .add_optional_param("lhs_end", ParamType::kInt, "One past the last axis of lhs to replace (None: ndim).")
    .add_optional_param("rhs_begin", ParamType::kInt, "First axis of rhs to use (None: 0).")
    .add_optional_param("rhs_end", ParamType::kInt, "One past the last axis of rhs to use (None: ndim).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() || !(*in)[1].known()) return false;
      AssignShape(out, 0, ReshapeLikeShape(p, (*in)[0], (*in)[1]), "reshape_like: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
    })
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_backward_reshape", {og[0], b.in(0)}), b.Zeros(b.in(1))};
    });

bool Int64Out(const Params&, std::vector<DType>*, std::vector<DType>* out) {
  AssignType(out, 0, DType::kInt64, "output");
  return true;
}

void WriteInts(const std::vector<int64_t>& v, OpReq req, const TensorView& out) {
  int64_t* o = out.ptr<int64_t>();
  for (size_t i = 0; i < v.size(); ++i) StoreReq(req, o + i, v[i]);
}

WEFT_REGISTER_OP("shape_array").set_compute_gpu(WEFT_GPU(cuda::ShapeArrayGpu)).add_method("shape_array")
    .describe("The shape of the input as a 1-D int64 array.")
    .add_input("data")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, Shape({(*in)[0].ndim()}), "shape_array: output");
      return true;
    })
    .set_infer_type(Int64Out)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      WriteInts(in[0].shape.dims(), req[0], out[0]);
    })
    .set_gradient(ZeroGradients);

WEFT_REGISTER_OP("size_array").set_compute_gpu(WEFT_GPU(cuda::SizeArrayGpu)).add_method("size_array")
    .describe("The number of elements of the input as an int64 array of shape (1,).")
    .add_input("data")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, Shape({1}), "size_array: output");
      return true;
    })
    .set_infer_type(Int64Out)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      WriteInts({in[0].Size()}, req[0], out[0]);
    })
    .set_gradient(ZeroGradients);

}  // namespace
}  // namespace weft
