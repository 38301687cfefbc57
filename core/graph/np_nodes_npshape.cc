// Note [NumPy-mode shape nodes read as other nodes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet registers some NumPy-mode names as aliases of operators whose own name
// the symbol-file reader already translates (Note [NumPy-mode nodes read as
// legacy ones] in np_json_nodes.cc): `_npi_reshape` is `_npx_reshape`. MXNet
// writes the canonical name into the files it saves, but it loads the alias
// too, so a file may hold either; the alias is read as its canonical name,
// through the same translation (and the same refusals). (np.amax/np.amin and
// np.product, `_np_amax`/`_np_amin`/`_np_product`, are aliases of the
// operators _np_max/_np_min/_np_prod: core/op/reduce/np_reduce.cc.)
//
// np.diagonal (`_np_diagonal`: offset, axis1, axis2) is the legacy `diag` with
// `offset` spelled `k`: for an input of two or more axes both take the
// diagonal of the (axis1, axis2) planes as the last axis. MXNet refuses a 1-D
// input to np.diagonal; read as `diag` it would build a matrix (the legacy
// op's rule for 1-D data) — a graph MXNet itself ran never has one there.
//
// np.hsplit and np.dsplit (`_npi_hsplit`, `_npi_dsplit`) are _split_v2 along
// the axis MXNet writes (1, 2), with _split_v2's own attributes (indices with
// the leading 0, sections, squeeze_axis). NumPy splits a 1-D input of hsplit
// along axis 0; the translation cannot see shapes, so a 1-D input is refused
// when the graph is bound (axis 1 out of range for _split_v2), never split
// differently. (The stacks are operators of their own, core/op/shape/np_stack.cc,
// since Concat along a fixed axis would join 1-D rows end to end.)
#include "core/graph/np_nodes_npshape.h"

#include "core/base/error.h"
#include "core/graph/np_json_nodes.h"

namespace weft {
namespace np_nodes_npshape {

bool ToLegacy(const std::string& op, std::map<std::string, std::string>* attrs, std::string* legacy,
              json_numpy::InputNode* before) {
  // Note [NumPy-mode shape nodes read as other nodes]: the canonical names are
  // translated by np_json_nodes.cc, which never hands these aliases back here.
  static const std::map<std::string, std::string> kCanonical = {{"_npi_reshape", "_npx_reshape"}};
  auto canonical = kCanonical.find(op);
  if (canonical != kCanonical.end()) {
    try {
      return json_numpy::ToLegacy(canonical->second, attrs, legacy, before);
    } catch (const Error& e) {  // name the node's op as the file spells it
      WEFT_THROW(kIO) << op << " (MXNet's alias of " << canonical->second << "): " << e.what();
    }
  }
  if (op == "_np_diagonal") {
    auto offset = attrs->find("offset");
    if (offset != attrs->end()) {
      WEFT_CHECK(offset->second != "None", kIO) << op << ": attribute 'offset' = 'None' is not an integer";
      (*attrs)["k"] = offset->second;
      attrs->erase("offset");
    }
    *legacy = "diag";
    return true;
  }
  if (op == "_npi_hsplit" || op == "_npi_dsplit") {
    *legacy = "_split_v2";
    return true;
  }
  return false;
}

}  // namespace np_nodes_npshape
}  // namespace weft
