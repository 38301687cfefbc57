// Note [NumPy-mode nodes read as legacy ones]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A graph MXNet 1.9.1 exported in NumPy mode names most operators by aliases
// Weft registers (Note [NumPy-mode op names] in core/opdef/np_op_names.cc), but
// a few take parameters no Weft operator has: np.concatenate's `axis` and
// npx.reshape's own codes. The loader reads those nodes as the legacy
// operator that computes them (the node is then spelled with the legacy name,
// which MXNet also loads), translating the attributes:
//   _npi_concatenate(axis)                -> Concat(dim)
//   _npx_reshape(newshape, reverse)       -> Reshape(shape, reverse), codes
//                                            -2/-4/-5/-6 as 0/-2/-3/-4
// Concatenate with axis=None reads as Concat of its inputs flattened (Note
// [Nodes the reader adds]); npx.reshape's -3 squeezes its input first (Note
// [npx.reshape's -3]). The reductions (_np_sum, _npi_mean, _np_prod, _np_max,
// _np_min), once read here as the legacy ones, are operators of their own,
// since their output dtype and shape depend on the input's (Note [NumPy sums
// and their dtypes] in core/op/reduce/np_reduce.cc). _np_reshape is a Weft
// operator (core/op/shape/np_reshape.cc) and loads as itself.
#include "core/graph/np_json_nodes.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/base/error.h"
#include "core/graph/np_node_attrs.h"
#include "core/graph/np_nodes_nplinalg.h"
#include "core/graph/np_nodes_npmisc.h"
#include "core/graph/np_nodes_npshape.h"

namespace weft {
namespace json_numpy {
namespace {

// Note [Nodes the reader adds]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Two NumPy-mode nodes are one legacy operator applied to their inputs once
// each input has gone through one operator of its own, so the reader adds a
// node (named <node>_in<k>) before each input (InputNode; Weft writes the
// added nodes back, and MXNet loads them):
//  * np.concatenate(xs, axis=None) joins the flattened inputs: `Reshape` to
//    (-1,) first, then Concat on axis 0.
//  * npx.reshape with -3 codes: `squeeze` of the dimensions they drop first
//    (Note [npx.reshape's -3]).
// (The reductions' `dtype` was the first use, a `Cast` before the legacy
// reduction; they are operators now, Note [NumPy sums and their dtypes].)

// Note [npx.reshape's -3]
// ~~~~~~~~~~~~~~~~~~~~~~~
// npx.reshape's code -3 drops the input dimension it stands for, which must
// be 1 (MXNet 1.9.1 fails otherwise); the legacy Reshape has no such code.
// Each code stands for a number of input dimensions known without shapes (-5
// two; -6 one, the next two entries being its factors; -4 all that are left;
// any other one), so the dimensions the -3s drop are known unless one comes
// after a -4, when none is left to drop: MXNet 1.9.1 then fails for every
// input (an index past the input's rank; checked there with (2, 3, 1) and
// (-4, -3), (2, 1, 3) and (-2, -4, -3) ...), and the reader refuses the node.
// The reader squeezes them first (a node it adds, Note [Nodes the reader
// adds]) and leaves the -3s out. With reverse=True MXNet matches codes and
// dimensions from the right, so the dimensions are counted from the end.
// A newshape of -3s only gives MXNet's 0-d result: the squeeze, then
// `_np_reshape` to () (which, as MXNet, needs what is left to have one
// element: (1, 1, 1) with (-3, -3) gives (), (1, 2) with (-3,) fails).
std::string NpxReshape(const std::string& op, std::map<std::string, std::string>* attrs, InputNode* before) {
  WEFT_CHECK(attrs->count("newshape"), kIO) << op << ": attribute 'newshape' is required";
  auto order = attrs->find("order");
  WEFT_CHECK(order == attrs->end() || order->second == "C", kIO)
      << op << ": attribute 'order' = '" << order->second << "' is not supported (only 'C')";
  const std::string text = (*attrs)["newshape"];
  std::vector<long long> codes = ReadInts(op, "newshape", text);
  auto rev = attrs->find("reverse");
  const bool reverse = rev != attrs->end() && (rev->second == "True" || rev->second == "true" || rev->second == "1");
  if (reverse) std::reverse(codes.begin(), codes.end());
  std::vector<long long> squeeze;
  std::vector<long long> shape;
  long long src = 0;  // the input dimension the next code stands for
  bool rest = false;  // a -4 took every dimension left
  for (size_t i = 0; i < codes.size(); ++i) {
    const long long d = codes[i];
    if (d == -3) {
      WEFT_CHECK(!rest, kIO) << op << ": attribute 'newshape' = '" << text
                             << "': code -3 after -4 (no input dimension is left to drop; MXNet 1.9.1 fails "
                                "on every input too)";
      squeeze.push_back(reverse ? -(src + 1) : src);
      ++src;
      continue;
    }
    shape.push_back(d);
    if (d == -4) {
      rest = true;
    } else if (d == -5) {
      src += 2;
    } else if (d == -6) {
      ++src;
      for (int f = 0; f < 2 && i + 1 < codes.size(); ++f) shape.push_back(codes[++i]);
    } else {
      ++src;
    }
  }
  if (shape.empty()) {  // only -3 codes: a 0-d result (Note [npx.reshape's -3])
    *before = InputNode{"squeeze", {{"axis", WriteInts(squeeze)}}};
    attrs->erase("reverse");
    (*attrs)["newshape"] = "()";
    return "_np_reshape";
  }
  if (reverse) std::reverse(shape.begin(), shape.end());
  for (long long& d : shape) {
    // Note [NumPy-mode nodes read as legacy ones]: npx.reshape's codes as the legacy Reshape's
    static const std::map<long long, long long> kCodes = {{-2, 0}, {-4, -2}, {-5, -3}, {-6, -4}};
    auto code = kCodes.find(d);
    if (code != kCodes.end()) {
      d = code->second;
    } else {
      WEFT_CHECK(d > 0 || d == -1, kIO) << op << ": attribute 'newshape' = '" << text << "': code " << d
                                        << " is not supported";
    }
  }
  if (!squeeze.empty()) *before = InputNode{"squeeze", {{"axis", WriteInts(squeeze)}}};
  attrs->erase("newshape");
  attrs->erase("order");
  (*attrs)["shape"] = WriteInts(shape);
  return "Reshape";
}

}  // namespace

bool ToLegacy(const std::string& op, std::map<std::string, std::string>* attrs, std::string* legacy,
              InputNode* before) {
  if (NplinalgToLegacy(op, attrs, legacy)) return true;
  if (np_nodes_npshape::ToLegacy(op, attrs, legacy, before)) return true;
  if (np_nodes_npmisc::ToLegacy(op, attrs, legacy)) return true;
  if (op == "_npi_concatenate") {
    auto axis = attrs->find("axis");
    if (axis != attrs->end() && axis->second == "None") {
      *before = InputNode{"Reshape", {{"shape", "(-1,)"}}};  // Note [Nodes the reader adds]
      axis->second = "0";
    }
    (*attrs)["dim"] = axis == attrs->end() ? "0" : axis->second;
    attrs->erase("axis");
    *legacy = "Concat";
    return true;
  }
  if (op == "_npx_reshape") {
    *legacy = NpxReshape(op, attrs, before);
    return true;
  }
  return false;
}

}  // namespace json_numpy
}  // namespace weft
