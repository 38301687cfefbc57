// Symbol part of the C ABI: composition, listing, attributes, JSON, inference.
#include <unordered_map>
#include <unordered_set>

#include "capi/src/c_api_common.h"
#include "core/graph/infer.h"
#include "core/graph/json.h"
#include "core/graph/partial_shape.h"
#include "core/graph/symbol.h"


using namespace weft;  // NOLINT: C ABI implementation file

namespace {
const Symbol& Sym(const weft_symbol* h) {
  WEFT_CHECK(h != nullptr, kInvalidArgument) << "symbol handle is NULL";
  return h->sym;
}
weft_symbol* NewSym(Symbol s) { return new weft_symbol{std::move(s)}; }

void PublishStrings(std::vector<std::string> strings, int* n, const char*** out) {
  auto& s = capi::Scratch();
  s.strings = std::move(strings);
  s.cstrs.clear();
  for (const auto& k : s.strings) s.cstrs.push_back(k.c_str());
  *n = static_cast<int>(s.cstrs.size());
  *out = s.cstrs.data();
}

// Thread-local storage behind the inference results.
struct InferScratch {
  std::vector<int> ndims[3];
  std::vector<std::vector<int64_t>> dims[3];
  std::vector<const int64_t*> ptrs[3];
  std::vector<weft_dtype> types[3];
};
InferScratch& IScratch() {
  thread_local InferScratch s;
  return s;
}

// Entry ids of arguments, outputs and aux states, in list order.
void ListEntryIds(const Symbol& sym, const IndexedGraph& g, std::vector<uint32_t> ids[3]) {
  std::unordered_map<std::string, uint32_t> var_entry;
  for (uint32_t nid : g.arg_nodes()) var_entry[g[nid].source->name] = g.entry_id(nid, 0);
  for (const auto& n : sym.ListArguments()) ids[0].push_back(var_entry.at(n));
  for (const auto& o : g.outputs()) ids[1].push_back(g.entry_id(o));
  for (const auto& n : sym.ListAuxiliaryStates()) ids[2].push_back(var_entry.at(n));
}
}  // namespace

extern "C" {

int weft_symbol_create_variable(const char* name, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(name);
  WEFT_CHECK_ARG(out);
  *out = NewSym(Symbol::Variable(name));
  WEFT_API_END();
}

void weft_symbol_free(weft_symbol* sym) { delete sym; }

int weft_symbol_compose(const weft_op* op, const char* name, int num_attrs, const char* const* keys,
                        const char* const* vals, int num_args, weft_symbol* const* args, int num_kwargs,
                        const char* const* kw_names, weft_symbol* const* kw_args, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(op);
  WEFT_CHECK_ARG(name);
  WEFT_CHECK_ARG(out);
  std::map<std::string, std::string> attrs;
  for (int i = 0; i < num_attrs; ++i) {
    WEFT_CHECK(keys && vals && keys[i] && vals[i], kInvalidArgument) << op->def->name << ": attribute " << i << " is NULL";
    attrs[keys[i]] = vals[i];
  }
  std::vector<Symbol> a;
  for (int i = 0; i < num_args; ++i) a.push_back(Sym(args[i]));
  std::vector<std::pair<std::string, Symbol>> kw;
  for (int i = 0; i < num_kwargs; ++i) {
    WEFT_CHECK(kw_names && kw_names[i], kInvalidArgument) << op->def->name << ": keyword input " << i << " is NULL";
    kw.emplace_back(kw_names[i], Sym(kw_args[i]));
  }
  *out = NewSym(Symbol::Compose(*op->def, name, std::move(attrs), a, kw));
  WEFT_API_END();
}

int weft_symbol_group(int n, weft_symbol* const* symbols, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  std::vector<Symbol> syms;
  for (int i = 0; i < n; ++i) syms.push_back(Sym(symbols[i]));
  *out = NewSym(Symbol::Group(syms));
  WEFT_API_END();
}

int weft_symbol_num_outputs(const weft_symbol* sym, int* n) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(n);
  *n = static_cast<int>(Sym(sym).num_outputs());
  WEFT_API_END();
}

int weft_symbol_get_output(const weft_symbol* sym, int index, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(index >= 0, kInvalidArgument) << "negative output index " << index;
  *out = NewSym(Sym(sym)[static_cast<size_t>(index)]);
  WEFT_API_END();
}

int weft_symbol_get_internals(const weft_symbol* sym, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = NewSym(Sym(sym).GetInternals());
  WEFT_API_END();
}

int weft_symbol_get_children(const weft_symbol* sym, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = NewSym(Sym(sym).GetChildren());
  WEFT_API_END();
}

int weft_symbol_substitute(const weft_symbol* sym, int num_args, weft_symbol* const* args, int num_kwargs,
                           const char* const* kw_names, weft_symbol* const* kw_args, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(num_args >= 0 && num_kwargs >= 0, kInvalidArgument) << "compose: negative argument count";
  std::vector<Symbol> a;
  for (int i = 0; i < num_args; ++i) {
    WEFT_CHECK(args && args[i], kInvalidArgument) << "compose: positional symbol " << i << " is NULL";
    a.push_back(args[i]->sym);
  }
  std::vector<std::pair<std::string, Symbol>> kw;
  for (int i = 0; i < num_kwargs; ++i) {
    WEFT_CHECK(kw_names && kw_args && kw_names[i] && kw_args[i], kInvalidArgument)
        << "compose: keyword symbol " << i << " is NULL";
    kw.emplace_back(kw_names[i], kw_args[i]->sym);
  }
  *out = NewSym(Sym(sym).Substitute(a, kw));
  WEFT_API_END();
}

int weft_symbol_copy(const weft_symbol* sym, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = NewSym(Sym(sym).Copy());
  WEFT_API_END();
}

int weft_symbol_list(const weft_symbol* sym, int which, int* n, const char*** names) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(n);
  WEFT_CHECK_ARG(names);
  const Symbol& s = Sym(sym);
  switch (which) {
    case 0: PublishStrings(s.ListArguments(), n, names); break;
    case 1: PublishStrings(s.ListOutputs(), n, names); break;
    case 2: PublishStrings(s.ListAuxiliaryStates(), n, names); break;
    case 3: PublishStrings(s.ListInputs(), n, names); break;
    default: WEFT_THROW(kInvalidArgument) << "weft_symbol_list: 'which' must be 0..3, got " << which;
  }
  WEFT_API_END();
}

int weft_symbol_name(const weft_symbol* sym, const char** name) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(name);
  auto& s = capi::Scratch();
  s.str = Sym(sym).Name();
  *name = s.str.c_str();
  WEFT_API_END();
}

int weft_symbol_get_attr(const weft_symbol* sym, const char* key, const char** value, int* found) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(key);
  WEFT_CHECK_ARG(value);
  WEFT_CHECK_ARG(found);
  auto& s = capi::Scratch();
  *found = Sym(sym).GetAttr(key, &s.str) ? 1 : 0;
  *value = *found ? s.str.c_str() : nullptr;
  WEFT_API_END();
}

int weft_symbol_set_attr(weft_symbol* sym, const char* key, const char* value) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(sym);
  WEFT_CHECK_ARG(key);
  WEFT_CHECK_ARG(value);
  sym->sym.SetAttr(key, value);
  WEFT_API_END();
}

int weft_symbol_list_attr(const weft_symbol* sym, int recursive, int* n, const char*** pairs) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(n);
  WEFT_CHECK_ARG(pairs);
  std::vector<std::string> flat;
  if (recursive) {
    for (const auto& node : Sym(sym).AttrDict())
      for (const auto& kv : node.second) {
        flat.push_back(node.first + "$" + kv.first);
        flat.push_back(kv.second);
      }
  } else {
    for (const auto& kv : Sym(sym).ListAttr()) {
      flat.push_back(kv.first);
      flat.push_back(kv.second);
    }
  }
  int total = 0;
  PublishStrings(std::move(flat), &total, pairs);
  *n = total / 2;
  WEFT_API_END();
}

int weft_symbol_to_json(const weft_symbol* sym, const char** json) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(json);
  auto& s = capi::Scratch();
  s.str = SaveSymbolJSON(Sym(sym));
  *json = s.str.c_str();
  WEFT_API_END();
}

int weft_symbol_from_json(const char* json, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(json);
  WEFT_CHECK_ARG(out);
  *out = NewSym(LoadSymbolJSON(json, "<json>"));
  WEFT_API_END();
}

int weft_symbol_infer_shape(const weft_symbol* sym, int num_given, const char* const* names, const int* ndims,
                            const int64_t* shape_data, const int64_t* offsets, int partial, int* complete,
                            int* n_arg, const int** arg_ndims, const int64_t* const** arg_dims, int* n_out,
                            const int** out_ndims, const int64_t* const** out_dims, int* n_aux,
                            const int** aux_ndims, const int64_t* const** aux_dims) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(complete);
  const Symbol& s = Sym(sym);
  std::unordered_map<std::string, Shape> given;
  const std::vector<std::string> input_list = s.ListInputs();
  const std::unordered_set<std::string> inputs(input_list.begin(), input_list.end());  // linear in a deep graph
  for (int i = 0; i < num_given; ++i) {
    WEFT_CHECK(names && names[i] && ndims && offsets, kInvalidArgument) << "infer_shape: given shape " << i << " is NULL";
    const bool known = inputs.count(names[i]) > 0;
    WEFT_CHECK(known, kInvalidArgument) << "infer_shape: '" << names[i] << "' is not an input of the symbol";
    WEFT_CHECK(ndims[i] >= 0 && ndims[i] <= 32, kShape) << "infer_shape: bad ndim for '" << names[i] << "'";
    // MXNet 1.x legacy shapes: a 0 dim is unknown (Note [Partial shapes]).
    given[names[i]] = FromLegacyShape(Shape(shape_data + offsets[i], shape_data + offsets[i] + ndims[i]));
  }
  IndexedGraph g(s.outputs);
  ShapeInference r = InferShapes(g, given);
  std::vector<uint32_t> ids[3];
  ListEntryIds(s, g, ids);
  *complete = r.num_unknown == 0;
  if (!partial && !*complete) {
    std::string missing;
    for (uint32_t nid : g.arg_nodes())
      if (!r.entry[g.entry_id(nid, 0)].known()) missing += (missing.empty() ? "" : ", ") + g[nid].source->name;
    WEFT_THROW(kShape) << "infer_shape: cannot infer all shapes; unknown: "
                       << (missing.empty() ? std::string("(internal entries)") : missing);
  }
  InferScratch& is = IScratch();
  for (int k = 0; k < 3; ++k) {
    is.ndims[k].clear();
    is.dims[k].clear();
    is.ptrs[k].clear();
    for (uint32_t id : ids[k]) {
      const Shape sh = ToLegacyShape(r.partial[id]);  // unknown dims read 0, as in MXNet 1.x
      is.ndims[k].push_back(sh.known() ? sh.ndim() : -1);
      is.dims[k].push_back(sh.known() ? sh.dims() : std::vector<int64_t>());
    }
    for (const auto& d : is.dims[k]) is.ptrs[k].push_back(d.data());
  }
  int* ns[3] = {n_arg, n_out, n_aux};
  const int** nd[3] = {arg_ndims, out_ndims, aux_ndims};
  const int64_t* const** dd[3] = {arg_dims, out_dims, aux_dims};
  for (int k = 0; k < 3; ++k) {
    if (ns[k]) *ns[k] = static_cast<int>(is.ndims[k].size());
    if (nd[k]) *nd[k] = is.ndims[k].data();
    if (dd[k]) *dd[k] = is.ptrs[k].data();
  }
  WEFT_API_END();
}

int weft_symbol_infer_type(const weft_symbol* sym, int num_given, const char* const* names,
                           const weft_dtype* dtypes, int* complete, int* n_arg, const weft_dtype** arg_types,
                           int* n_out, const weft_dtype** out_types, int* n_aux, const weft_dtype** aux_types) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(complete);
  const Symbol& s = Sym(sym);
  std::unordered_map<std::string, DType> given;
  for (int i = 0; i < num_given; ++i) {
    WEFT_CHECK(names && names[i] && dtypes, kInvalidArgument) << "infer_type: given type " << i << " is NULL";
    given[names[i]] = DTypeFromFlag(static_cast<int>(dtypes[i]));
  }
  IndexedGraph g(s.outputs);
  TypeInference r = InferTypes(g, given, /*default_float32=*/given.empty());
  std::vector<uint32_t> ids[3];
  ListEntryIds(s, g, ids);
  *complete = r.num_unknown == 0;
  InferScratch& is = IScratch();
  int* ns[3] = {n_arg, n_out, n_aux};
  const weft_dtype** ts[3] = {arg_types, out_types, aux_types};
  for (int k = 0; k < 3; ++k) {
    is.types[k].clear();
    for (uint32_t id : ids[k]) is.types[k].push_back(static_cast<weft_dtype>(r.entry[id]));
    if (ns[k]) *ns[k] = static_cast<int>(is.types[k].size());
    if (ts[k]) *ts[k] = is.types[k].data();
  }
  WEFT_API_END();
}

}  // extern "C"
