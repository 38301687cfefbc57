#include "core/op/linalg/linalg_util.h"

#include "core/base/error.h"
#include "core/op/op_util.h"

namespace weft {
namespace linalg {

bool FloatTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  DType t = DType::kUnknown;
  for (DType d : *in) if (d != DType::kUnknown) { t = d; break; }
  if (t == DType::kUnknown)
    for (DType d : *out) if (d != DType::kUnknown) { t = d; break; }
  if (t == DType::kUnknown) return false;
  const std::vector<std::string> names = op.InputNames(p);
  for (size_t i = 0; i < in->size(); ++i) {
    const DType d = (*in)[i];
    WEFT_CHECK(d == DType::kUnknown || d == DType::kFloat32 || d == DType::kFloat64, kDType)
        << op.name << ": input '" << (i < names.size() ? names[i] : std::to_string(i)) << "' has dtype "
        << DTypeName(d) << "; expected float32 or float64";
    WEFT_CHECK(d == DType::kUnknown || d == t, kDType)
        << op.name << ": input '" << (i < names.size() ? names[i] : std::to_string(i)) << "' has dtype "
        << DTypeName(d) << ", the others " << DTypeName(t) << "; all inputs must have one dtype";
  }
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << op.name << ": dtype " << DTypeName(t) << " is not supported; expected float32 or float64";
  for (size_t i = 0; i < in->size(); ++i) AssignType(in, i, t, op.name + ": input");
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, t, op.name + ": output");
  return true;
}

NodeEntry Gemm2(GradBuilder& b, const NodeEntry& a, const NodeEntry& bb, bool ta, bool tb, double alpha,
                const std::string& axis) {
  return b("_linalg_gemm2", {a, bb},
           {{"transpose_a", B2S(ta)}, {"transpose_b", B2S(tb)}, {"alpha", ScalarAttr(alpha)}, {"axis", axis}});
}

NodeEntry TransposeSquare(GradBuilder& b, const NodeEntry& x) {
  // As (batch, n, n): transpose there, then back to x's leading axes.
  const NodeEntry x3 = b("Reshape", {x}, {{"shape", "(-1, 0, 0)"}, {"reverse", "True"}});
  return b("_backward_reshape", {b("transpose", {x3}, {{"axes", "(0, 2, 1)"}}), x});
}

NodeEntry Triangle(GradBuilder& b, const NodeEntry& x, bool lower) {
  const std::map<std::string, std::string> a = {{"offset", "0"}, {"lower", B2S(lower)}};
  return b("_linalg_maketrian", {b("_linalg_extracttrian", {x}, a)}, a);
}

NodeEntry ScaleMatrices(GradBuilder& b, const NodeEntry& x, const NodeEntry& s) {
  const NodeEntry x3 = b("Reshape", {x}, {{"shape", "(-1, 0, 0)"}, {"reverse", "True"}});
  const NodeEntry s3 = b("Reshape", {s}, {{"shape", "(-1, 1, 1)"}});
  return b("_backward_reshape", {b("broadcast_mul", {s3, x3}), x});
}

}  // namespace linalg
}  // namespace weft
