// _npi_pad (np.pad, MXNet 1.9.1's registered name) and _backward_npi_pad:
// the input in the centre of a larger array whose pads follow `mode` --
// constant (constant_values), edge, reflect, symmetric, maximum, minimum,
// MXNet's enum -- filled axis by axis as NumPy does (Note [Pad axis by axis, as
// NumPy], np_pad_rules.h). reflect_type "even" only (NumPy's default). The
// gradient covers constant and the index modes (edge, reflect, symmetric);
// maximum/minimum refuse it. GPU kernels: np_pad.cu.
#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/out_grad_check.h"
#include "core/op/shape/np_pad_gpu.h"
#include "core/op/shape/np_pad_rules.h"

namespace weft {
namespace tensor {

NpPadGeom NpPadGeomOf(const Params& p, const Shape& s) {
  const std::string& op = p.op()->name;
  NpPadGeom g;
  WEFT_CHECK(s.ndim() <= NpPadGeom::kMax, kShape) << op << ": at most " << NpPadGeom::kMax << " dimensions";
  g.ndim = s.ndim();
  const std::string& mode = p.GetString("mode");  // MXNet's enum names, in NpPadMode's order
  const char* const names[] = {"constant", "edge", "reflect", "symmetric", "maximum", "minimum"};
  g.mode = -1;
  for (int m = 0; m < 6; ++m) {
    if (mode == names[m]) g.mode = m;
  }
  WEFT_CHECK(g.mode >= 0, kInvalidArgument) << op << ": parameter 'mode' must be one of constant, edge, reflect, "
                                            << "symmetric, maximum, minimum, got '" << mode << "'";
  WEFT_CHECK(p.GetString("reflect_type") == "even", kInvalidArgument)
      << op << ": parameter 'reflect_type' must be 'even' (the only one supported), got '"
      << p.GetString("reflect_type") << "'";
  g.value = p.GetFloat("constant_values");
  std::vector<int64_t> w;
  const std::string& text = p.GetString("pad_width");
  for (size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '-') {
      size_t used = 0;
      long long v = 0;
      try {
        v = std::stoll(text.substr(i), &used);
      } catch (const std::exception&) {
        WEFT_THROW(kInvalidArgument) << op << ": parameter 'pad_width' has a malformed number in '" << text << "'";
      }
      WEFT_CHECK(v >= 0, kInvalidArgument) << op << ": parameter 'pad_width' must be non-negative, got " << v;
      w.push_back(v);
      WEFT_CHECK(w.size() <= 2 * static_cast<size_t>(NpPadGeom::kMax), kInvalidArgument)
          << op << ": parameter 'pad_width' has too many entries";
      i += used;
    } else {
      WEFT_CHECK(std::string("()[], ").find(text[i]) != std::string::npos, kInvalidArgument)
          << op << ": parameter 'pad_width' must be nested tuples of ints, got '" << text << "'";
      ++i;
    }
  }
  const size_t nd = static_cast<size_t>(g.ndim);
  WEFT_CHECK(w.size() == 2 * nd || w.size() == 2 || w.size() == 1, kInvalidArgument)
      << op << ": parameter 'pad_width' must give (before, after) for each of the " << nd << " axes, got '" << text
      << "'";
  for (int d = 0; d < g.ndim; ++d) {
    const size_t k = static_cast<size_t>(d);
    const int64_t b = w.size() == 1 ? w[0] : (w.size() == 2 ? w[0] : w[2 * k]);
    const int64_t a = w.size() == 1 ? w[0] : (w.size() == 2 ? w[1] : w[2 * k + 1]);
    g.in[d] = s[d];
    g.before[d] = b;
    WEFT_CHECK(b <= (int64_t{1} << 40) && a <= (int64_t{1} << 40), kInvalidArgument)
        << op << ": parameter 'pad_width' entry " << (b > a ? b : a) << " is too large";
    g.out[d] = s[d] + b + a;
    if (g.mode != kPadConstant && (b > 0 || a > 0)) {
      WEFT_CHECK(s[d] > 0, kInvalidArgument) << op << ": can't extend empty axis " << d << " using modes other "
                                             << "than 'constant'";
    }
  }
  NpPadOutShape(g).Size();  // throws kShape on int64 overflow
  return g;
}

Shape NpPadOutShape(const NpPadGeom& g) { return Shape(std::vector<int64_t>(g.out, g.out + g.ndim)); }

}  // namespace tensor

namespace {

void NpPadCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::NpPadGeom g = tensor::NpPadGeomOf(p, in[0].shape);
  tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
    o.ZeroFill();  // lines in pads of axes not yet padded are read before they are written
    WEFT_DTYPE_SWITCH(in[0].dtype, T, {
      const T* x = in[0].ptr<T>();
      T* y = o.ptr<T>();
      for (int64_t e = 0, n = in[0].Size(); e < n; ++e) y[g.CentreOf(e)] = x[e];
      for (int d = 0; d < g.ndim; ++d) {
        const int64_t inner = g.InnerOf(d), lines = o.Size() / g.out[d];
        for (int64_t l = 0; l < lines; ++l) {
          tensor::NpPadLine(y + (l / inner) * g.out[d] * inner + l % inner, inner, g.out[d], g.before[d], g.in[d],
                            g.mode, g.value);
        }
      }
    });
  });
}

void NpPadBackwardCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::NpPadGeom g = tensor::NpPadGeomOf(p, out[0].shape);
  WEFT_CHECK(g.mode != tensor::kPadMaximum && g.mode != tensor::kPadMinimum, kInvalidArgument)
      << "_backward_npi_pad: the gradient of modes maximum and minimum is not supported";
  WEFT_CHECK(IsFloating(out[0].dtype), kDType) << "_backward_npi_pad: the gradient needs a floating dtype";
  WEFT_DTYPE_SWITCH(out[0].dtype, T, {
    std::unique_ptr<T[]> work(new T[static_cast<size_t>(in[0].Size())]);
    std::copy(in[0].ptr<T>(), in[0].ptr<T>() + in[0].Size(), work.get());
    for (int d = g.ndim - 1; d >= 0; --d) {
      const int64_t inner = g.InnerOf(d), lines = in[0].Size() / g.out[d];
      for (int64_t l = 0; l < lines; ++l) {
        tensor::NpPadLineBackward(work.get() + (l / inner) * g.out[d] * inner + l % inner, inner, g.out[d],
                                  g.before[d], g.in[d], g.mode);
      }
    }
    T* gx = out[0].ptr<T>();
    const bool add = req[0] == OpReq::kAddTo;
    for (int64_t e = 0, n = out[0].Size(); e < n; ++e) {
      const T v = work[static_cast<size_t>(g.CentreOf(e))];
      gx[e] = add ? static_cast<T>(static_cast<AccT<T>>(gx[e]) + static_cast<AccT<T>>(v)) : v;
    }
  });
}

void AddNpPadParams(OpDef& op) {
  op.add_param("pad_width", ParamType::kString, "()", "Number of values padded to the edges of each axis: "
                                                      "((before_1, after_1), ... (before_N, after_N)).")
      .add_enum_param("mode", {"constant", "edge", "reflect", "symmetric", "maximum", "minimum"}, "constant",
                      "Padding type to use (NumPy's modes of these names).")
      .add_param("constant_values", ParamType::kFloat, "0", "The value set in the pads in constant mode.")
      .add_param("reflect_type", ParamType::kString, "even", "Only 'even' (NumPy's default) is supported.");
}

// Declared through OpRegistry::Add with a shared parameter list (the
// backward op takes the forward's), as pad.cc declares Pad.
[[maybe_unused]] const bool kNpPadRegistered = [] {
  WEFT_REGISTER_OP(fwd, "_npi_pad");
  fwd.describe("Pad an array: the input in the centre, the pads filled axis by axis as NumPy's np.pad in the "
               "given mode.")
      .add_input("data");
  AddNpPadParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        AssignShape(out, 0, tensor::NpPadOutShape(tensor::NpPadGeomOf(p, (*in)[0])), p.op()->name + ": output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 0);
      })
      .set_compute_cpu(NpPadCpu)
      .set_compute_gpu(WEFT_GPU(cuda::NpPadGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_npi_pad", {og[0], n->inputs[0]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_npi_pad");
  bwd.describe("Gradient of np.pad from (out_grad, data): each pad's gradient added to the element it copied, "
               "the centre cut out (constant, edge, reflect and symmetric modes).")
      .add_input("out_grad")
      .add_input("data");
  AddNpPadParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known()) return false;
        AssignShape(out, 0, (*in)[1], p.op()->name + ": output");
        if ((*in)[0].known()) CheckOutGradOfForward(p, "_npi_pad", {(*in)[1]}, (*in)[0]);
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 1);
      })
      .set_compute_cpu(NpPadBackwardCpu)
      .set_compute_gpu(WEFT_GPU(cuda::BackwardNpPadGpu));
  return true;
}();

}  // namespace
}  // namespace weft
