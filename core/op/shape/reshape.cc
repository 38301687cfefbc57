// Ops that only change the shape: Reshape (MXNet's special values 0, -1, -2,
// -3, -4 and reverse), Flatten, expand_dims, squeeze; and _copyto, the plain
// copy (with dtype conversion). All of them copy bytes — or nothing, when the
// output shares the input's memory (in-place pair (0, 0)).
#include <algorithm>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/shape/reshape_transpose_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

void CopyCompute(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
}

// The gradient of every shape-only op: out_grad in the input's shape.
std::vector<NodeEntry> ReshapeGradient(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  return {b("_backward_reshape", {og[0], b.in(0)})};
}

// Note [Reshape special values]
// Each entry of `shape` is read left to right against the input dims (right to
// left with reverse=True, which then reverses the result):
//   >0 that size (consumes one input dim);  0 copy the input dim;  -1 infer
//   from the remaining size (consumes one input dim);  -2 copy all remaining
//   input dims;  -3 merge two input dims into their product;  -4 split one
//   input dim into the next two entries (one of which may be -1).
// This is MXNet's InferReshapeShape; the checks name the entry at fault.
Shape InferReshape(const std::vector<int64_t>& param, const Shape& in, bool reverse) {
  const std::string target = tensor::TupleString(param);
  std::vector<int64_t> ds = in.dims(), ps = param, out;
  if (reverse) {
    std::reverse(ds.begin(), ds.end());
    std::reverse(ps.begin(), ps.end());
  }
  const size_t dn = ds.size(), pn = ps.size();
  size_t src = 0;
  int inf = -1;
  for (size_t i = 0; i < pn; ++i) {
    const int64_t v = ps[i];
    if (v == 0) {
      WEFT_CHECK(src < dn, kShape) << "Reshape: shape " << target << " copies (0) more dims than input "
                                   << in.ToString() << " has";
      out.push_back(ds[src++]);
    } else if (v == -1) {
      WEFT_CHECK(inf < 0, kShape) << "Reshape: shape " << target << " has more than one -1";
      inf = static_cast<int>(out.size());
      out.push_back(1);
      ++src;
    } else if (v == -2) {
      while (src < dn) out.push_back(ds[src++]);
    } else if (v == -3) {
      WEFT_CHECK(src + 1 < dn, kShape) << "Reshape: -3 in shape " << target << " needs two more dims of input "
                                       << in.ToString();
      out.push_back(ds[src] * ds[src + 1]);
      src += 2;
    } else if (v == -4) {
      WEFT_CHECK(i + 2 < pn, kShape) << "Reshape: -4 in shape " << target << " must be followed by two sizes";
      WEFT_CHECK(src < dn, kShape) << "Reshape: -4 in shape " << target << " has no input dim left to split in "
                                   << in.ToString();
      const int64_t d0 = ds[src++];
      int64_t d1 = ps[++i], d2 = ps[++i];
      WEFT_CHECK(d1 != -1 || d2 != -1, kShape) << "Reshape: -4 in shape " << target
                                               << ": the two split sizes cannot both be -1";
      WEFT_CHECK(d1 >= -1 && d2 >= -1 && d1 != 0 && d2 != 0, kShape)
          << "Reshape: -4 in shape " << target << " must be followed by positive sizes or -1";
      if (d1 == -1) d1 = d0 / d2;
      if (d2 == -1) d2 = d1 == 0 ? 0 : d0 / d1;
      WEFT_CHECK(d1 * d2 == d0, kShape) << "Reshape: -4 in shape " << target << ": sizes " << d1 << " and " << d2
                                        << " do not split input dim " << d0;
      out.push_back(d1);
      out.push_back(d2);
    } else {
      WEFT_CHECK(v > 0, kShape) << "Reshape: invalid entry " << v << " in shape " << target
                                << " (expected a size > 0 or one of 0, -1, -2, -3, -4)";
      out.push_back(v);
      ++src;
    }
  }
  if (inf >= 0) {
    int64_t known = 1;
    for (size_t i = 0; i < out.size(); ++i)
      if (static_cast<int>(i) != inf) known *= out[i];
    WEFT_CHECK(known != 0 && in.Size() % known == 0, kShape)
        << "Reshape: cannot reshape " << in.ToString() << " to " << target;
    out[static_cast<size_t>(inf)] = in.Size() / known;
  }
  if (reverse) std::reverse(out.begin(), out.end());
  return Shape(out);
}

WEFT_REGISTER_OP("Reshape").set_compute_gpu(WEFT_GPU(cuda::ReshapeGpu))
    .describe("Reshapes the input array without changing its data.\n\n"
              "Entries of `shape` may be special values: 0 copies the input dim at that position, "
              "-1 infers the dim from the remaining size, -2 copies all remaining input dims, "
              "-3 merges two consecutive input dims, -4 splits one input dim into the two entries "
              "that follow it (one of them may be -1). With reverse=True the special values are "
              "matched from the right. Example: (2, 3, 4) with shape (-4, 1, 2, -2) gives (1, 2, 3, 4).")
    .add_alias("reshape")
    .add_input("data")
    .add_param("shape", ParamType::kShape, "()", "The target shape, possibly with special values.")
    .add_param("reverse", ParamType::kBool, "False", "If True, match the special values from the right.")
    .add_param("target_shape", ParamType::kShape, "()",
               "Deprecated (use shape): the target shape, where one 0 is inferred.")
    .add_param("keep_highest", ParamType::kBool, "False",
               "Deprecated (use shape): with target_shape, keep the first input dim.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& d = (*in)[0];
      if (!d.known()) return false;
      const std::vector<int64_t>& shape = p.GetTuple("shape");
      const std::vector<int64_t>& target = p.GetTuple("target_shape");
      tensor::CheckNoNone(shape, "Reshape", "shape");
      tensor::CheckNoNone(target, "Reshape", "target_shape");
      Shape o;
      std::string text;
      if (!shape.empty()) {
        o = InferReshape(shape, d, p.GetBool("reverse"));
        text = tensor::TupleString(shape);
      } else if (!target.empty()) {
        // Deprecated form (MXNet < 0.9): one 0 entry is inferred.
        o = Shape(target);
        text = tensor::TupleString(target);
        int zeros = 0, at = 0;
        const int start = p.GetBool("keep_highest") ? 1 : 0;
        if (start == 1) o[0] = d.ndim() > 0 ? d[0] : 1;
        for (int i = start; i < o.ndim(); ++i)
          if (o[i] == 0) { ++zeros; at = i; }
        if (zeros == 1) {
          o[at] = 1;
          WEFT_CHECK(o.Size() != 0 && d.Size() % o.Size() == 0, kShape)
              << "Reshape: cannot reshape " << d.ToString() << " to " << text;
          o[at] = d.Size() / o.Size();
        }
      } else {
        WEFT_CHECK((*out)[0].known(), kInvalidArgument) << "Reshape: parameter 'shape' is required";
        o = (*out)[0];
        text = o.ToString();
      }
      WEFT_CHECK(o.Size() == d.Size(), kShape) << "Reshape: cannot reshape " << d.ToString() << " to " << text;
      AssignShape(out, 0, o, "Reshape: output");
      return true;
    })
    .set_compute_cpu(CopyCompute)
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kInjective)
    .set_gradient(ReshapeGradient);

WEFT_REGISTER_OP("Flatten").set_compute_gpu(WEFT_GPU(cuda::FlattenGpu)).add_method("flatten")
    .describe("Flattens the input to 2-D: (d0, d1, ..., dk) becomes (d0, d1 * ... * dk).\n\n"
              "A 1-D input (n,) becomes (n, 1).")
    .add_alias("flatten")
    .add_input("data")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& d = (*in)[0];
      if (!d.known()) return false;
      Shape o = d.ndim() == 0 ? Shape{1, 1} : Shape{d[0], d.ProdRange(1, d.ndim())};
      AssignShape(out, 0, o, "Flatten: output");
      return true;
    })
    .set_compute_cpu(CopyCompute)
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kInjective)
    .set_gradient(ReshapeGradient);

WEFT_REGISTER_OP("expand_dims").set_compute_gpu(WEFT_GPU(cuda::ExpandDimsGpu)).add_method("expand_dims")
    .describe("Inserts a new axis of size 1 at position `axis` (which may be ndim, or negative "
              "counting from ndim + 1).")
    .add_input("data")
    .add_required_param("axis", ParamType::kInt, "Position of the new axis, in [-ndim-1, ndim].")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& d = (*in)[0];
      if (!d.known()) return false;
      int ax = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "expand_dims", "data", 1);
      std::vector<int64_t> o = d.dims();
      o.insert(o.begin() + ax, 1);
      AssignShape(out, 0, Shape(o), "expand_dims: output");
      return true;
    })
    .set_compute_cpu(CopyCompute)
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kInjective)
    .set_gradient(ReshapeGradient);

WEFT_REGISTER_OP("squeeze").set_compute_gpu(WEFT_GPU(cuda::SqueezeGpu)).add_method("squeeze")
    .describe("Removes axes of size 1: the given ones, or all of them when axis is None.\n\n"
              "If every axis is removed the result has shape (1,) (MXNet's legacy mode).")
    .add_input("data")
    .add_optional_param("axis", ParamType::kShape,
                        "The axes to remove (each must have size 1). None removes every axis of size 1.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& d = (*in)[0];
      if (!d.known()) return false;
      std::vector<bool> drop(static_cast<size_t>(d.ndim()), false);
      if (p.IsNone("axis")) {
        for (int i = 0; i < d.ndim(); ++i) drop[static_cast<size_t>(i)] = d[i] == 1;
      } else {
        const std::vector<int64_t>& axes = p.GetTuple("axis");
        tensor::CheckNoNone(axes, "squeeze", "axis");
        for (int64_t a : axes) {
          int ax = tensor::NormalizeAxis(a, d.ndim(), "squeeze", "data");
          WEFT_CHECK(!drop[static_cast<size_t>(ax)], kInvalidArgument)
              << "squeeze: duplicate axis in " << tensor::TupleString(axes);
          WEFT_CHECK(d[ax] == 1, kShape) << "squeeze: cannot remove axis " << a << " of input 'data' with shape "
                                         << d.ToString() << ": its size is " << d[ax] << ", not 1";
          drop[static_cast<size_t>(ax)] = true;
        }
      }
      Shape o;
      for (int i = 0; i < d.ndim(); ++i)
        if (!drop[static_cast<size_t>(i)]) o.push_back(d[i]);
      if (o.ndim() == 0) o = Shape{1};
      AssignShape(out, 0, o, "squeeze: output");
      return true;
    })
    .set_compute_cpu(CopyCompute)
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kInjective)
    .set_gradient(ReshapeGradient);

WEFT_REGISTER_OP("_copyto").set_compute_gpu(WEFT_GPU(cuda::CopyGpu("_copyto")))
    .describe("Copies the input into the output (the `copyto` / `out=` copy). When the output "
              "already has another dtype the values are converted.")
    .add_alias("_copy")
    .add_alias("identity")
    .add_input("data")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) {
        if (!(*out)[0].known()) return false;
        (*in)[0] = (*out)[0];
      }
      AssignShape(out, 0, (*in)[0], "_copyto: output");
      return true;
    })
    .set_infer_type([](const Params&, std::vector<DType>* in, std::vector<DType>* out) {
      if ((*out)[0] == DType::kUnknown) (*out)[0] = (*in)[0];
      if ((*in)[0] == DType::kUnknown) (*in)[0] = (*out)[0];
      return (*in)[0] != DType::kUnknown;
    })
    .set_compute_cpu(CopyCompute)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // a copy: the gradient passes through (MXNet's _copy)
      return {b("_copyto", {og[0]})};
    });

}  // namespace
}  // namespace weft
