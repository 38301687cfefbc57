#include "core/opdef/op_def.h"

#include "core/base/error.h"
#include "core/base/json_escape.h"
#include "core/opdef/default_infer.h"

namespace weft {

OpDef& OpDef::add_alias(std::string a) {
  OpRegistry::Get()->AddAlias(this, a);
  return *this;
}

OpDef& OpDef::add_param(std::string n, ParamType t, std::string def, std::string d) {
  ParamSpec s;
  s.name = std::move(n);
  s.type = t;
  s.default_value = std::move(def);
  s.doc = std::move(d);
  s.optional = s.default_value == "None";
  params.push_back(std::move(s));
  return *this;
}

OpDef& OpDef::add_required_param(std::string n, ParamType t, std::string d) {
  add_param(std::move(n), t, "", std::move(d));
  params.back().required = true;
  return *this;
}

OpDef& OpDef::add_optional_param(std::string n, ParamType t, std::string d) {
  add_param(std::move(n), t, "None", std::move(d));
  params.back().optional = true;
  return *this;
}

OpDef& OpDef::add_enum_param(std::string n, std::vector<std::string> allowed, std::string def, std::string d) {
  add_param(std::move(n), ParamType::kEnum, std::move(def), std::move(d));
  params.back().allowed = std::move(allowed);
  return *this;
}

// The input count of a variadic op (num_args, num_arrays, ...), bounded before
// anything loops over it or allocates for it: a model file saying
// "num_args": "4294967295" is an error, not four billion input names.
int OpDef::VariadicCount(const Params& p) const {
  const int64_t n = p.GetInt(variadic_param.c_str());
  WEFT_CHECK(n >= 0 && n <= kMaxVariadicInputs, kInvalidArgument)
      << name << ": parameter '" << variadic_param << "' is " << n << "; it counts the op's inputs and must be in "
      << "[0, " << kMaxVariadicInputs << "]";
  return static_cast<int>(n);
}

int OpDef::NumInputs(const Params& p) const {
  if (list_input_names) return static_cast<int>(list_input_names(p).size());
  if (!variadic_param.empty()) return VariadicCount(p);
  return static_cast<int>(input_names.size());
}

int OpDef::NumOutputs(const Params& p) const {
  return num_outputs_fn ? num_outputs_fn(p) : num_outputs;
}

int OpDef::NumVisibleOutputs(const Params& p) const {
  if (num_visible_outputs_fn) return num_visible_outputs_fn(p);
  return num_visible_outputs < 0 ? NumOutputs(p) : num_visible_outputs;
}

std::vector<std::string> OpDef::InputNames(const Params& p) const {
  if (list_input_names) return list_input_names(p);
  if (!variadic_param.empty()) {
    std::vector<std::string> names;
    const int n = VariadicCount(p);
    for (int i = 0; i < n; ++i) names.push_back("arg" + std::to_string(i));
    return names;
  }
  return input_names;
}

std::vector<std::string> OpDef::OutputNames(const Params& p) const {
  if (list_output_names) return list_output_names(p);
  int n = NumOutputs(p);
  if (n == 1) return {"output"};
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back("output" + std::to_string(i));
  return names;
}

const ParamSpec* OpDef::FindParam(const std::string& n) const {
  int i = ParamIndex(n);
  return i < 0 ? nullptr : &params[static_cast<size_t>(i)];
}

int OpDef::ParamIndex(const std::string& n) const {
  for (size_t i = 0; i < params.size(); ++i)  // compares whole strings: a key with a NUL in it matches nothing
    if (params[i].name == n) return static_cast<int>(i);
  return -1;
}

int OpDef::ParamIndex(const char* n) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == n) return static_cast<int>(i);
  return -1;
}

bool OpDef::InferShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) const {
  if (infer_shape) return infer_shape(p, in, out);
  return SameShapeInfer(*this, p, in, out);
}

bool OpDef::InferType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) const {
  if (infer_type) return infer_type(p, in, out);
  return SameTypeInfer(*this, p, in, out);
}

namespace {
std::string JoinQuoted(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + JSONQuote(v[i]);
  return s + "]";
}
const char* FusionName(FusionClass c) {
  switch (c) {
    case FusionClass::kElementwise: return "elementwise";
    case FusionClass::kReduce: return "reduce";
    case FusionClass::kInjective: return "injective";
    default: return "opaque";
  }
}
}  // namespace

std::string OpDef::SchemaJSON() const {
  std::string s = "{\"name\": " + JSONQuote(name) + ", \"aliases\": " + JoinQuoted(aliases) +
                  ", \"doc\": " + JSONQuote(doc) + ", \"params\": [";
  for (size_t i = 0; i < params.size(); ++i) {
    const ParamSpec& p = params[i];
    s += (i ? ", " : "");
    s += "{\"name\": " + JSONQuote(p.name) + ", \"type\": " + JSONQuote(ParamTypeName(p.type)) +
         ", \"default\": " + (p.required ? std::string("null") : JSONQuote(p.default_value.empty() ? "None" : p.default_value)) +
         ", \"required\": " + (p.required ? "true" : "false") +
         ", \"optional\": " + (p.optional ? "true" : "false") +
         ", \"allowed\": " + JoinQuoted(p.allowed) + ", \"doc\": " + JSONQuote(p.doc) + "}";
  }
  s += "], \"inputs\": " + JoinQuoted(input_names);
  s += ", \"variadic\": " + (variadic_param.empty() ? std::string("null") : JSONQuote(variadic_param));
  s += ", \"num_outputs\": " + std::to_string(num_outputs_fn ? -1 : num_outputs);
  s += ", \"mutate_inputs\": [";
  for (size_t i = 0; i < mutate_inputs.size(); ++i) s += (i ? ", " : "") + std::to_string(mutate_inputs[i]);
  s += "], \"inplace\": [";
  for (size_t i = 0; i < inplace.size(); ++i)
    s += (i ? ", " : "") + std::string("[") + std::to_string(inplace[i].first) + ", " +
         std::to_string(inplace[i].second) + "]";
  s += "], \"fusion\": \"" + std::string(FusionName(fusion)) + "\"";
  s += ", \"needs_rng\": " + std::string(needs_rng ? "true" : "false");
  s += ", \"gpu\": " + std::string(compute_gpu ? "true" : "false");
  s += ", \"has_gradient\": " + std::string(gradient ? "true" : "false");
  s += ", \"methods\": " + JoinQuoted(methods) + "}";
  return s;
}

}  // namespace weft
