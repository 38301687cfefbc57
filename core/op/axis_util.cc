#include "core/op/axis_util.h"

#include <sstream>

#include "core/base/error.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor {

int NormalizeAxis(int64_t axis, int ndim, const std::string& op, const std::string& input, int extra,
                  const char* param) {
  int64_t range = static_cast<int64_t>(ndim) + extra;
  WEFT_CHECK(axis >= -range && axis < range, kInvalidArgument)
      << op << ": " << param << " " << axis << " out of range for " << ndim << "-D input '" << input
      << "' (expected " << -range << " <= " << param << " < " << range << ")";
  return static_cast<int>(axis < 0 ? axis + range : axis);
}

void CheckMinNDim(const Shape& s, int min_ndim, const std::string& op, const std::string& input) {
  WEFT_CHECK(s.ndim() >= min_ndim, kShape) << op << ": input '" << input << "' must have at least "
                                           << min_ndim << " dimension(s), got shape " << s.ToString();
}

void CheckNoNone(const std::vector<int64_t>& t, const std::string& op, const std::string& param) {
  for (int64_t v : t)
    WEFT_CHECK(v != kNoneDim, kInvalidArgument)
        << op << ": parameter '" << param << "' may not contain None, got " << TupleString(t);
}

std::string TupleString(const std::vector<int64_t>& t) {
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < t.size(); ++i) {
    if (i) os << ", ";
    if (t[i] == kNoneDim) os << "None";
    else os << t[i];
  }
  if (t.size() == 1) os << ",";
  os << ")";
  return os.str();
}

bool AllKnown(const std::vector<Shape>& v) {
  for (const Shape& s : v)
    if (!s.known()) return false;
  return true;
}

bool TypeFromInput(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t src) {
  const std::string& name = p.op() ? p.op()->name : std::string("op");
  DType t = (*in)[src];
  if (t == DType::kUnknown) {
    for (DType o : *out)
      if (o != DType::kUnknown) { t = o; break; }
    if (t == DType::kUnknown) return false;
    (*in)[src] = t;
  }
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, t, name + ": output " + std::to_string(i));
  for (DType d : *in)
    if (d == DType::kUnknown) return false;
  return true;
}

}  // namespace tensor
}  // namespace weft
