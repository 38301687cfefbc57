#include "core/opdef/params.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/base/error.h"
#include "core/opdef/op_def.h"
#include "core/opdef/op_rules.h"
#include "core/opdef/param_bounds.h"

namespace weft {
namespace {

std::string Strip(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n\r"), e = s.find_last_not_of(" \t\n\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool IsNoneText(const std::string& s) { return s == "None" || s == "none"; }

std::string TypeName(ParamType t) {
  switch (t) {
    case ParamType::kInt: return "int";
    case ParamType::kFloat: return "float";
    case ParamType::kBool: return "boolean";
    case ParamType::kString: return "string";
    case ParamType::kEnum: return "enum";
    case ParamType::kShape: return "tuple of int";
    case ParamType::kDType: return "dtype";
    case ParamType::kFloatTuple: return "tuple of float";
  }
  return "?";
}

bool ParseInt(const std::string& s, int64_t* out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno || *end != '\0') {
    // MXNet accepts "3.0"-style integral floats written by Python for int params? It does not;
    // but "3L" never occurs. Accept an integral float text for robustness.
    char* fend = nullptr;
    double d = std::strtod(s.c_str(), &fend);
    if (*fend != '\0' || std::floor(d) != d || std::fabs(d) > 9.2e18) return false;
    *out = static_cast<int64_t>(d);
    return true;
  }
  *out = v;
  return true;
}

bool ParseFloat(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0') return false;
  *out = v;
  return true;
}

// Splits "(a, b, c)" / "[a,b]" / "a,b" into trimmed items.
bool SplitTuple(const std::string& text, std::vector<std::string>* items) {
  std::string s = Strip(text);
  if (!s.empty() && (s.front() == '(' || s.front() == '[')) {
    char close = s.front() == '(' ? ')' : ']';
    if (s.back() != close) return false;
    s = s.substr(1, s.size() - 2);
  }
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    std::string item = Strip(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) items->push_back(item);
    else if (comma != std::string::npos && comma + 1 < s.size() && !Strip(s.substr(comma + 1)).empty())
      return false;  // empty item in the middle: "(1,,2)"
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return true;
}

[[noreturn]] void BadValue(const OpDef& op, const ParamSpec& spec, const std::string& value,
                           const std::string& expected) {
  WEFT_THROW(kInvalidArgument) << op.name << ": invalid value '" << value << "' for parameter '"
                               << spec.name << "' (expected " << expected << ")";
}

void ParseValue(const OpDef& op, const ParamSpec& spec, const std::string& raw, ParamValue* v) {
  std::string s = Strip(raw);
  if (IsNoneText(s) && (spec.optional || spec.type == ParamType::kShape)) {
    v->is_none = true;
    return;
  }
  v->is_none = false;
  switch (spec.type) {
    case ParamType::kInt:
      if (!ParseInt(s, &v->i)) BadValue(op, spec, raw, "an integer");
      v->f = static_cast<double>(v->i);
      break;
    case ParamType::kFloat:
      if (!ParseFloat(s, &v->f)) BadValue(op, spec, raw, "a number");
      break;
    case ParamType::kBool:
      if (s == "True" || s == "true" || s == "1") v->b = true;
      else if (s == "False" || s == "false" || s == "0") v->b = false;
      else BadValue(op, spec, raw, "True or False");
      v->i = v->b;
      break;
    case ParamType::kString:
      v->s = raw;
      break;
    case ParamType::kEnum: {
      std::string t = s;
      if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front())
        t = t.substr(1, t.size() - 2);
      bool ok = false;
      for (const auto& a : spec.allowed) ok = ok || a == t;
      if (!ok) {
        std::string list;
        for (const auto& a : spec.allowed) list += (list.empty() ? "" : ", ") + ("'" + a + "'");
        BadValue(op, spec, raw, "one of " + list);
      }
      v->s = t;
      break;
    }
    case ParamType::kShape: {
      std::vector<std::string> items;
      if (!SplitTuple(s, &items)) BadValue(op, spec, raw, "a tuple of integers such as (2, 3)");
      for (const auto& it : items) {
        int64_t d;
        if (IsNoneText(it)) d = kNoneDim;
        else if (!ParseInt(it, &d)) BadValue(op, spec, raw, "a tuple of integers such as (2, 3)");
        v->tuple.push_back(d);
      }
      v->i = v->tuple.empty() ? 0 : v->tuple[0];
      break;
    }
    case ParamType::kFloatTuple: {
      std::vector<std::string> items;
      if (!SplitTuple(s, &items)) BadValue(op, spec, raw, "a tuple of numbers");
      for (const auto& it : items) {
        double d;
        if (!ParseFloat(it, &d)) BadValue(op, spec, raw, "a tuple of numbers");
        v->ftuple.push_back(d);
      }
      break;
    }
    case ParamType::kDType:
      try {
        std::string t = s;
        if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front())
          t = t.substr(1, t.size() - 2);
        if (t.rfind("<class 'numpy.", 0) == 0) t = t.substr(14, t.size() - 16);  // str(np.float32)
        v->dtype = ParseDType(t);
      } catch (const Error&) {
        BadValue(op, spec, raw, "a dtype name such as float32");
      }
      break;
  }
}

}  // namespace

Params Params::Parse(const OpDef& op, const std::vector<std::pair<std::string, std::string>>& attrs) {
  Params p;
  p.op_ = &op;
  auto parsed = std::make_shared<Parsed>();
  parsed->raw = attrs;
  std::vector<ParamValue>& values = parsed->values;
  values.resize(op.params.size());
  std::vector<bool> given(op.params.size(), false);
  for (const auto& kv : attrs) {
    if (kv.first.size() >= 2 && kv.first.compare(0, 2, "__") == 0) continue;  // hidden attribute
    int idx = op.ParamIndex(kv.first);
    if (idx < 0 && TakesFreeAttributes(op)) continue;  // a Custom op's own keyword argument, read from raw()
    if (idx < 0) {
      std::string list;
      for (const auto& s : op.params) list += (list.empty() ? "" : ", ") + s.name;
      WEFT_THROW(kInvalidArgument) << op.name << ": unknown parameter '" << kv.first << "'"
                                   << (list.empty() ? " (it takes no parameters)"
                                                    : " (expected one of: " + list + ")");
    }
    ParseValue(op, op.params[static_cast<size_t>(idx)], kv.second, &values[static_cast<size_t>(idx)]);
    CheckParamBounds(op, op.params[static_cast<size_t>(idx)], values[static_cast<size_t>(idx)]);
    given[static_cast<size_t>(idx)] = true;
  }
  for (size_t i = 0; i < op.params.size(); ++i) {
    if (given[i]) continue;
    const ParamSpec& spec = op.params[i];
    WEFT_CHECK(!spec.required, kInvalidArgument)
        << op.name << ": missing required parameter '" << spec.name << "' (" << TypeName(spec.type)
        << ": " << spec.doc << ")";
    if (spec.default_value.empty() || IsNoneText(spec.default_value)) {
      values[i].is_none = true;
      if (spec.type == ParamType::kString) values[i].s = spec.default_value;
    } else {
      ParseValue(op, spec, spec.default_value, &values[i]);
    }
  }
  p.parsed_ = std::move(parsed);
  return p;
}

const ParamValue& Params::Get(const char* name) const {
  WEFT_CHECK(op_ != nullptr, kInternal) << "parameters read before parsing";
  int idx = op_->ParamIndex(name);
  WEFT_CHECK(idx >= 0, kInternal) << op_->name << ": kernel asked for undeclared parameter '" << name << "'";
  return parsed_->values[static_cast<size_t>(idx)];
}

const std::vector<std::pair<std::string, std::string>>& Params::raw() const {
  static const std::vector<std::pair<std::string, std::string>> kNone;
  return parsed_ ? parsed_->raw : kNone;
}

std::string ParamTypeName(ParamType t) { return TypeName(t); }

}  // namespace weft
