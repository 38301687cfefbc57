// Typed operator parameters. Attributes arrive as strings (from Python, the
// symbol JSON, R, ...); each op's schema parses them once per call into Params.
// Parsing errors name the op, the parameter and what was expected.
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/base/dtype.h"
#include "core/base/shape.h"

namespace weft {

enum class ParamType : int {
  kInt,     // "3", "-1"
  kFloat,   // "2.0", "1e-3", "inf"
  kBool,    // "True"/"False"/"true"/"false"/"1"/"0"
  kString,  // free text
  kEnum,    // one of ParamSpec::allowed
  kShape,   // "(2, 3)", "[2,3]", "(None, 1)": int tuple, None entries allowed (kNoneDim)
  kDType,   // "float32", ... (or "None" when optional)
  kFloatTuple,  // "(0.5, 1.0)"
};

// A tuple entry written as None, e.g. slice(begin=(None, 1)).
constexpr int64_t kNoneDim = std::numeric_limits<int64_t>::min();

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::kInt;
  std::string default_value;  // text form; empty + !required means "None"
  bool required = false;
  bool optional = false;  // accepts "None" (value absent)
  std::vector<std::string> allowed;  // kEnum values
  std::string doc;
};

struct ParamValue {
  bool is_none = true;
  int64_t i = 0;
  double f = 0.0;
  bool b = false;
  std::string s;
  std::vector<int64_t> tuple;
  std::vector<double> ftuple;
  DType dtype = DType::kUnknown;
};

class OpDef;

// Parsed parameters of one op call, in schema order. Getters take the name as
// declared in the schema; asking for an undeclared name is a programming error
// (kInternal).
class Params {
 public:
  Params() = default;
  // Parses attrs (key, value text) against op's schema; unknown keys, bad values
  // and missing required params throw kInvalidArgument naming op and key.
  // Keys starting with "__" (hidden attributes, FORMATS.md B.5) are ignored.
  static Params Parse(const OpDef& op, const std::vector<std::pair<std::string, std::string>>& attrs);

  bool IsNone(const char* name) const { return Get(name).is_none; }
  int64_t GetInt(const char* name) const { return Get(name).i; }
  double GetFloat(const char* name) const { return Get(name).f; }
  bool GetBool(const char* name) const { return Get(name).b; }
  const std::string& GetString(const char* name) const { return Get(name).s; }
  const std::vector<int64_t>& GetTuple(const char* name) const { return Get(name).tuple; }
  const std::vector<double>& GetFloatTuple(const char* name) const { return Get(name).ftuple; }
  DType GetDType(const char* name) const { return Get(name).dtype; }

  const ParamValue& Get(const char* name) const;
  const OpDef* op() const { return op_; }
  // The attributes as given (for JSON round trips and error messages).
  const std::vector<std::pair<std::string, std::string>>& raw() const;

  // What a node hands its op's kernels besides attributes: a control-flow
  // node's graphs (core/graph/subgraphs.h). Shared, so a pushed kernel's copy
  // keeps them alive after the node is gone, and freed with the last copy.
  void Attach(std::shared_ptr<const void> what) { attached_ = std::move(what); }
  const std::shared_ptr<const void>& attached() const { return attached_; }

 private:
  // What Parse produced, never changed after: copies of a Params (one per
  // pushed call, per recorded tape node, per cached parse in the C ABI) share
  // it instead of copying every value's strings and tuples.
  struct Parsed {
    std::vector<ParamValue> values;  // index = schema order
    std::vector<std::pair<std::string, std::string>> raw;
  };
  const OpDef* op_ = nullptr;
  std::shared_ptr<const Parsed> parsed_;
  std::shared_ptr<const void> attached_;
};

// "int", "float", "boolean", ... as written in schemas and docs.
std::string ParamTypeName(ParamType t);

}  // namespace weft
