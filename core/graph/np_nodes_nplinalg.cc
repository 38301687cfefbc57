// Note [NumPy-mode random and norm nodes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// np.random.gamma, np.identity and np.linalg.norm write MXNet operators of
// their own in NumPy mode (`_npi_gamma` ...), whose parameters are the legacy
// sampler's and norm's under other names. As in Note [NumPy-mode nodes read as
// legacy ones] (np_json_nodes.cc) the symbol reader takes such a node as the
// legacy operator:
//   _npi_gamma(shape, scale, size, ctx, dtype)
//                       -> _random_gamma(alpha = shape, beta = scale, ...)
//   _npi_identity(shape = (n, n), ctx, dtype)
//                       -> _eye(N = n, M = n, ctx, dtype)
//   _npi_norm(ord, axis, keepdims, flag)
//                       -> norm(ord, axis, keepdims)
// size=None is one draw: shape () gives a 0-d array, as MXNet's.
// (_npi_normal(_n), _npi_uniform(_n) and _npi_exponential, once read here as
// the legacy samplers, are operators of their own, which also take their
// parameters as arrays: core/op/random/np_samplers.cc, Note [Sampler parameters
// from arrays].)
//
// Refused with an error naming the node's attribute:
//  * gamma with a parameter None: MXNet then reads it from an input array,
//    broadcast against `size`; the legacy sampler takes scalars only
//    (`_sample_*` prefixes the parameters' shape instead of broadcasting).
//  * _npi_norm's flag (how weft.np's and MXNet's norm() chose the kernel):
//    -2 (ord=None, axis=None: the 2-norm of everything) and 1 (Frobenius, or
//    the 2-norm over one axis) are the legacy norm with ord=2; -1 (an explicit
//    ord over given axes) is the legacy norm for ord 1 and 2 over one axis.
//    Refused: flag -1 with axis=None (a matrix norm for 2-D input, a vector
//    norm for 1-D: the rank is unknown when the graph is read), other ords
//    (0, -1, 3 ...: no legacy operator), and flags 0 and 2 (spectral and
//    nuclear norms, singular values).
// The legacy norm's full reduction (flag -2 without keepdims) gives shape
// (1,) where MXNet gives a 0-d array (the legacy reductions' rule, as for the
// reductions in np_json_nodes.cc); its values are MXNet's.
#include "core/graph/np_nodes_nplinalg.h"

#include <cstdlib>
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

// The sampler's scalar parameter `key` must be given (not read from an input
// array: Note [NumPy-mode random and norm nodes]).
void RequireScalar(const std::string& op, const Attrs& attrs, const std::string& key) {
  WEFT_CHECK(!IsNone(attrs, key), kIO) << op << ": attribute '" << key
      << "' = None (the parameter read from an input array) is not supported; only a scalar "
      << key << " loads";
}

// size -> shape, keeping ctx and dtype; `renames` maps MXNet's parameter
// names to the legacy operator's.
void Sampler(const std::string& op, Attrs* attrs, const std::vector<std::pair<std::string, std::string>>& renames) {
  for (const auto& r : renames) {
    RequireScalar(op, *attrs, r.first);
    std::string v = (*attrs)[r.first];
    ReadDouble(op, r.first, v);
    attrs->erase(r.first);
    (*attrs)[r.second] = v;
  }
  std::string size = IsNone(*attrs, "size") ? "()" : (*attrs)["size"];
  ReadInts(op, "size", size);  // validated here so the error names MXNet's attribute
  attrs->erase("size");
  (*attrs)["shape"] = size;
}

void Norm(const std::string& op, Attrs* attrs) {
  long long flag = IsNone(*attrs, "flag") ? -2 : ReadInts(op, "flag", (*attrs)["flag"]).at(0);
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
      WEFT_CHECK(!no_axis, kIO) << op << ": attribute 'axis' = None with flag -1 (ord " << (*attrs)["ord"]
          << " of a matrix or of a vector, by the input's rank) is not supported";
      WEFT_CHECK(ReadInts(op, "axis", (*attrs)["axis"]).size() == 1, kIO) << op << ": attribute 'axis' = '"
          << (*attrs)["axis"] << "' with flag -1 (a matrix norm of ord " << (*attrs)["ord"] << ") is not supported";
      WEFT_CHECK(ord == 1.0 || ord == 2.0, kIO) << op << ": attribute 'ord' = '" << (*attrs)["ord"]
          << "' is not supported (1 or 2)";
      break;
    default:
      WEFT_CHECK(false, kIO) << op << ": attribute 'flag' = '" << (*attrs)["flag"]
          << "' (the spectral or nuclear norm) is not supported";
  }
  (*attrs)["ord"] = ord == 1.0 ? "1" : "2";
  attrs->erase("flag");
  if (no_axis) attrs->erase("axis");
}

}  // namespace

bool Translate(const std::string& op, Attrs* attrs, std::string* legacy) {
  if (op == "_npi_gamma") {
    Sampler(op, attrs, {{"shape", "alpha"}, {"scale", "beta"}});
    *legacy = "_random_gamma";
    return true;
  }
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
    Norm(op, attrs);
    *legacy = "norm";
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
