// Note [NumPy-mode random and norm nodes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// np.identity and np.linalg.norm write MXNet operators of their own in NumPy
// mode (`_npi_identity`, `_npi_norm`), whose parameters are the legacy
// operators' under other names. As in Note [NumPy-mode nodes read as
// legacy ones] (np_json_nodes.cc) the symbol reader takes such a node as the
// legacy operator:
//   _npi_identity(shape = (n, n), ctx, dtype)
//                       -> _eye(N = n, M = n, ctx, dtype)
//   _npi_norm(ord, axis, keepdims, flag)
//                       -> norm(ord, axis, keepdims)  (or _weft_np_svd_norm,
//                          _weft_np_norm)
// (_npi_gamma, _npi_normal(_n), _npi_uniform(_n) and _npi_exponential, once read here as
// the legacy samplers, are operators of their own, which also take their
// parameters as arrays: core/op/random/np_samplers.cc, Note [Sampler parameters
// from arrays].)
//
// The translation, and the values refused with an error naming the node's
// attribute:
//  * _npi_norm's flag (how weft.np's and MXNet's norm() chose the kernel):
//    -2 (ord=None, axis=None: the 2-norm of everything) and 1 (Frobenius, or
//    the 2-norm over one axis) are the legacy norm with ord=2; -1 (an explicit
//    ord) is the legacy norm for ord 1 and 2 over one axis, and otherwise
//    Weft's _weft_np_norm(ord, axis, keepdims): any ord over one axis (3, 0.5,
//    0, inf ...), the matrix norms over two, and axis=None, where the input's
//    rank, unknown when the graph is read, chooses a vector norm (1-D) or a
//    matrix norm (2-D) once shapes are inferred (core/op/linalg/np_norm.cc,
//    Note [Norms by the input's rank]). Flags 0 (ord=2 or -2) and 2
//    ('nuc') over two axes, the norms from singular values, are Weft's
//    _weft_np_svd_norm(ord = '2' / '-2' / 'nuc', axis, keepdims) instead
//    (core/op/linalg/np_svd_norm.cc, Note [Singular-value norms]); MXNet's
//    node has four outputs there (the norm, then its SVD's), graphs read
//    only the first, the one this op gives.
// The legacy norm's full reduction (flag -2 without keepdims) gives shape
// (1,) where MXNet gives a 0-d array (the legacy reductions' rule); its
// values are MXNet's. _weft_np_norm's full reductions are 0-d, as MXNet's.
#include "core/graph/np_nodes_nplinalg.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/np_node_attrs.h"

namespace weft {
namespace json_numpy {
// A named namespace around the helpers: the unity build compiles this file in
// one translation unit with the other translation files, whose anonymous
// namespaces may hold helpers of the same names (the shared ones are in
// np_node_attrs.h).
namespace nplinalg_nodes {
namespace {

using Attrs = std::map<std::string, std::string>;

double ReadDouble(const std::string& op, const std::string& key, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  while (end && *end == ' ') ++end;
  WEFT_CHECK(end != text.c_str() && end && *end == '\0', kIO)
      << op << ": attribute '" << key << "' = '" << text << "' is not a number";
  return v;
}

// Flags 0 (ord=2 or -2) and 2 ('nuc', MXNet writing ord=2 beside it): the
// singular-value norms over two axes, _weft_np_svd_norm.
// axis=None (MXNet writes it for np.linalg.norm(m, 'nuc'), m 2-D, as NumPy
// asks) is the last two axes, the whole of a 2-D input.
std::string SvdNorm(const std::string& op, long long flag, Attrs* attrs) {
  if (IsNone(*attrs, "axis")) (*attrs)["axis"] = "(-2, -1)";
  WEFT_CHECK(ReadInts(op, "axis", (*attrs)["axis"]).size() == 2, kIO)
      << op << ": attribute 'axis' = '" << (*attrs)["axis"] << "' with flag " << flag
      << " (a singular-value norm) must name two axes";
  std::string ord = "nuc";
  if (flag == 0) {
    const double v = IsNone(*attrs, "ord") ? 2.0 : ReadDouble(op, "ord", (*attrs)["ord"]);
    WEFT_CHECK(v == 2.0 || v == -2.0, kIO) << op << ": attribute 'ord' = '" << (*attrs)["ord"]
        << "' with flag 0 is not supported (2 or -2)";
    ord = v == 2.0 ? "2" : "-2";
  }
  (*attrs)["ord"] = ord;
  attrs->erase("flag");
  return "_weft_np_svd_norm";
}

// The operator _npi_norm's node is read as: the legacy norm, or for flags 0
// and 2 _weft_np_svd_norm.
std::string Norm(const std::string& op, Attrs* attrs) {
  long long flag = IsNone(*attrs, "flag") ? -2 : ReadInts(op, "flag", (*attrs)["flag"]).at(0);
  if (flag == 0 || flag == 2) return SvdNorm(op, flag, attrs);
  double ord = IsNone(*attrs, "ord") ? 2.0 : ReadDouble(op, "ord", (*attrs)["ord"]);
  bool no_axis = IsNone(*attrs, "axis");
  if (!no_axis) {
    size_t n = ReadInts(op, "axis", (*attrs)["axis"]).size();
    WEFT_CHECK(n == 1 || n == 2, kIO) << op << ": attribute 'axis' = '" << (*attrs)["axis"]
        << "' is not supported (one or two axes)";
  }
  switch (flag) {
    case -2:  // ord=None, axis=None: the 2-norm of the flattened array
    case 1:   // 'fro' (or ord=None over one axis): the 2-norm over the axes
      ord = 2.0;
      break;
    case -1:
      // an explicit ord: the legacy norm computes ord 1 and 2 over one axis; the
      // others, and axis=None (a vector or a matrix norm by the input's rank), are
      // _weft_np_norm (Note [Norms by the input's rank] in core/op/linalg/np_norm.cc)
      if (no_axis || ReadInts(op, "axis", (*attrs)["axis"]).size() != 1 || (ord != 1.0 && ord != 2.0)) {
        (*attrs)["ord"] = IsNone(*attrs, "ord") ? "2" : (*attrs)["ord"];
        attrs->erase("flag");
        if (no_axis) attrs->erase("axis");
        return "_weft_np_norm";
      }
      break;
    default:
      WEFT_CHECK(false, kIO) << op << ": attribute 'flag' = '" << (*attrs)["flag"] << "' is not supported";
  }
  (*attrs)["ord"] = ord == 1.0 ? "1" : "2";
  attrs->erase("flag");
  if (no_axis) attrs->erase("axis");
  return "norm";
}

}  // namespace

bool Translate(const std::string& op, Attrs* attrs, std::string* legacy) {
  if (op == "_npi_identity") {
    std::vector<long long> shape = IsNone(*attrs, "shape") ? std::vector<long long>{}
                                                           : ReadInts(op, "shape", (*attrs)["shape"]);
    WEFT_CHECK(shape.size() == 2 && shape[0] == shape[1] && shape[0] >= 0, kIO)
        << op << ": attribute 'shape' = '" << (*attrs)["shape"] << "' is not (n, n)";
    attrs->erase("shape");
    (*attrs)["N"] = std::to_string(shape[0]);
    (*attrs)["M"] = std::to_string(shape[1]);
    *legacy = "_eye";
    return true;
  }
  if (op == "_npi_norm") {
    *legacy = Norm(op, attrs);
    return true;
  }
  return false;
}

}  // namespace nplinalg_nodes

bool NplinalgToLegacy(const std::string& op, std::map<std::string, std::string>* attrs, std::string* legacy) {
  return nplinalg_nodes::Translate(op, attrs, legacy);
}

}  // namespace json_numpy
}  // namespace weft
