// Note [NumPy-mode image nodes read as image ops]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// npx.image.resize's OpenCV form, `_npi_cvimresize(src, w, h, interp)` (MXNet
// 1.9.1 registers it as an alias of `_cvimresize`), resizes an (H, W, C) image
// with cv::resize; Weft's `_image_resize` samples as OpenCV's INTER_NEAREST
// and INTER_LINEAR do (core/op/image/image_tensor_ops.cc), so the reader takes
// the node as
//   _npi_cvimresize / _cvimresize(w, h, interp)
//                 -> _image_resize(size = (w, h), keep_ratio = False, interp)
// Refused with an error naming the node's attribute: w or h missing or not a
// positive integer, and interp other than 0 (nearest) or 1 (bilinear), which
// _image_resize does not compute (OpenCV's area, cubic and Lanczos filters).
#include "core/graph/np_nodes_npmisc.h"

#include <vector>

#include "core/base/error.h"
#include "core/graph/np_node_attrs.h"

namespace weft {
namespace np_nodes_npmisc {
namespace {

using json_numpy::IsNone;
using json_numpy::ReadInts;

long long PositiveInt(const std::string& op, const std::map<std::string, std::string>& attrs, const char* key) {
  WEFT_CHECK(!IsNone(attrs, key), kIO) << op << ": attribute '" << key << "' is required";
  const std::string& text = attrs.at(key);
  const std::vector<long long> v = ReadInts(op, key, text);
  WEFT_CHECK(v.size() == 1 && v[0] > 0, kIO) << op << ": attribute '" << key << "' = '" << text
                                             << "' is not a positive integer";
  return v[0];
}

}  // namespace

bool ToLegacy(const std::string& op, std::map<std::string, std::string>* attrs, std::string* legacy) {
  if (op != "_npi_cvimresize" && op != "_cvimresize") return false;
  const long long w = PositiveInt(op, *attrs, "w"), h = PositiveInt(op, *attrs, "h");
  if (!IsNone(*attrs, "interp")) {
    const std::vector<long long> interp = ReadInts(op, "interp", (*attrs)["interp"]);
    WEFT_CHECK(interp.size() == 1 && (interp[0] == 0 || interp[0] == 1), kIO)
        << op << ": attribute 'interp' = '" << (*attrs)["interp"]
        << "' is not supported (0 nearest or 1 bilinear; OpenCV's area, cubic and Lanczos filters are not)";
  }
  attrs->erase("w");
  attrs->erase("h");
  (*attrs)["size"] = json_numpy::WriteInts({w, h});
  (*attrs)["keep_ratio"] = "False";
  *legacy = "_image_resize";
  return true;
}

}  // namespace np_nodes_npmisc
}  // namespace weft
