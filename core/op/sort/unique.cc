// _npi_unique (np.unique, MXNet 1.9.1's registered name): the sorted distinct
// elements of the flattened input (axis None) or the distinct slices along
// `axis`, and optionally the index of each one's first occurrence, the inverse
// (the distinct slice of every input slice; 1-D, as MXNet and NumPy 1.x) and
// the counts, all int64. The number of distinct values is known only from the
// input's values: Note [Data-dependent output shapes] (core/opdef/dynamic_shape.h).
// Computed by one stable sort: Note [Unique by one stable sort]
// (unique_rules.h). No gradient, as in MXNet. GPU kernel: unique.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/sort/unique_gpu.h"
#include "core/op/sort/unique_rules.h"

namespace weft {
namespace tensor {

UniqueGeom UniqueGeomOf(const Params& p, const Shape& s) {
  UniqueGeom g;
  if (p.IsNone("axis")) {
    g.n = s.Size();
    return g;
  }
  WEFT_CHECK(s.ndim() >= 1, kInvalidArgument) << p.op()->name << ": 'axis' is given but input 'data' is 0-d";
  const int axis = NormalizeAxis(p.GetInt("axis"), s.ndim(), p.op()->name, "data");
  g.outer = s.ProdRange(0, axis);
  g.n = s[axis];
  g.inner = s.ProdRange(axis + 1, s.ndim());
  return g;
}

}  // namespace tensor

namespace {

constexpr const char* kUniqueOp = "_npi_unique";

int UniqueNumOutputs(const Params& p) {
  return 1 + p.GetBool("return_index") + p.GetBool("return_inverse") + p.GetBool("return_counts");
}

std::vector<std::string> UniqueOutputNames(const Params& p) {
  std::vector<std::string> names{"output"};
  if (p.GetBool("return_index")) names.push_back("index");
  if (p.GetBool("return_inverse")) names.push_back("inverse");
  if (p.GetBool("return_counts")) names.push_back("counts");
  return names;
}

// The output shapes for u distinct slices.
std::vector<Shape> UniqueShapes(const Params& p, const Shape& s, const tensor::UniqueGeom& g, int64_t u) {
  Shape vals(std::vector<int64_t>{u});
  if (!p.IsNone("axis")) {
    vals = s;
    vals[tensor::NormalizeAxis(p.GetInt("axis"), s.ndim(), kUniqueOp, "data")] = u;
  }
  std::vector<Shape> out{vals};
  if (p.GetBool("return_index")) out.push_back(Shape(std::vector<int64_t>{u}));
  if (p.GetBool("return_inverse")) out.push_back(Shape(std::vector<int64_t>{g.n}));
  if (p.GetBool("return_counts")) out.push_back(Shape(std::vector<int64_t>{u}));
  return out;
}

// The sorted order of the slices (host memory).
std::vector<int64_t> SortedSlices(const TensorView& x, const tensor::UniqueGeom& g) {
  std::vector<int64_t> order(static_cast<size_t>(g.n)), tmp(static_cast<size_t>(g.n));
  WEFT_DTYPE_SWITCH(x.dtype, T, { tensor::UniqueSort(x.ptr<T>(), g, order.data(), tmp.data()); });
  return order;
}

void UniqueCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  for (OpReq r : req) {
    WEFT_CHECK(r != OpReq::kAddTo, kInvalidArgument) << kUniqueOp << ": accumulating (grad_req add) into its "
                                                     << "outputs is not supported";
  }
  const tensor::UniqueGeom g = tensor::UniqueGeomOf(p, in[0].shape);
  const std::vector<int64_t> order = SortedSlices(in[0], g);
  size_t k = 1;
  int64_t* index = p.GetBool("return_index") ? out[k++].ptr<int64_t>() : nullptr;
  int64_t* inverse = p.GetBool("return_inverse") ? out[k++].ptr<int64_t>() : nullptr;
  int64_t* counts = p.GetBool("return_counts") ? out[k++].ptr<int64_t>() : nullptr;
  const int64_t u = p.IsNone("axis") ? out[0].shape[0]
                                     : out[0].shape[tensor::NormalizeAxis(p.GetInt("axis"), in[0].ndim(),
                                                                          kUniqueOp, "data")];
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    tensor::UniqueWrite(in[0].ptr<T>(), g, order.data(), u, req[0] == OpReq::kNull ? nullptr : out[0].ptr<T>(),
                        index, inverse, counts);
  });
}

void AddUniqueParams(OpDef& op) {
  op.add_param("return_index", ParamType::kBool, "False", "Whether to return the index of each unique value's "
                                                          "first occurrence.")
      .add_param("return_inverse", ParamType::kBool, "False", "Whether to return the indices that reconstruct "
                                                              "the input from the unique values.")
      .add_param("return_counts", ParamType::kBool, "False", "Whether to return the number of times each "
                                                             "unique value appears.")
      .add_optional_param("axis", ParamType::kInt, "The axis to operate on; None (the default): the flattened "
                                                   "array.");
}

// Declared in steps (WEFT_REGISTER_OP's named form): its output count and
// names follow the parameters.
[[maybe_unused]] const bool kUniqueRegistered = [] {
  WEFT_REGISTER_OP(op, kUniqueOp);
  op.describe("Find the unique elements of an array (axis None: of the flattened array, sorted) or the unique "
              "slices along axis, with optional first-occurrence indices, inverse indices and counts (int64).\n\n"
              "Example::\n\n   unique([1, 1, 2, 2, 3, 3]) = [1, 2, 3]")
      .add_input("data");
  AddUniqueParams(op);
  op.set_num_outputs(UniqueNumOutputs);
  op.list_output_names = UniqueOutputNames;
  op.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>*) {
        if ((*in)[0].known()) tensor::UniqueGeomOf(p, (*in)[0]);  // checks the axis
        return false;  // the number of distinct values is known only from the input's values
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        if ((*in)[0] == DType::kUnknown) return false;
        AssignType(out, 0, (*in)[0], p.op()->name + ": output");
        for (size_t i = 1; i < out->size(); ++i) AssignType(out, i, DType::kInt64, p.op()->name + ": output");
        return true;
      })
      .set_compute_cpu(UniqueCpu)
      .set_compute_gpu(WEFT_GPU(cuda::UniqueGpu));
  op.set_dynamic_shape(DynamicShapeRule{{0}, [](const Params& p, const std::vector<Shape>& in,
                                                   const std::vector<TensorView>& v) {
                                             const tensor::UniqueGeom g = tensor::UniqueGeomOf(p, in[0]);
                                             const std::vector<int64_t> order = SortedSlices(v[0], g);
                                             int64_t u = 0;
                                             WEFT_DTYPE_SWITCH(v[0].dtype, T, {
                                               u = tensor::UniqueCount(v[0].ptr<T>(), g, order.data());
                                             });
                                             return UniqueShapes(p, in[0], g, u);
                                           }});
  return true;
}();

}  // namespace
}  // namespace weft
