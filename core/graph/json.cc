// LoadSymbolJSON: reading MXNet's symbol JSON (FORMATS.md part B) into the
// graph IR. Writing is in json_writer.cc, upgrades of old files in json_upgrade.cc.
//
// Note [Symbol JSON loading]
// Like MXNet's loader, and stricter where MXNet would crash or load garbage:
// * Top level: "nodes", "arg_nodes", "heads" required; "node_row_ptr" and
//   "attrs" optional; any other key is an error. A repeated key: the last wins.
// * Node: "op", "name", "inputs" required; "attrs"/"attr" (both fill the same
//   dict; a later one replaces an earlier one wholesale), "param" (its keys
//   added where the dict lacks them), "control_deps", "backward_source_id"
//   (ignored), "subgraphs" (rejected unless empty: no control-flow ops yet).
//   Any other key is an error. "op": "null" is a variable, which takes no inputs.
// * Entries: [node, output] or [node, output, version]; node must be an
//   earlier node (so the graph is acyclic, as every writer orders it), output
//   below that node's output count. Control deps must be earlier nodes too.
// * Operators are looked up by name or alias (the spelling is kept for
//   saving); attributes are parsed by the operator's schema; the number of
//   inputs must be the operator's (fewer allowed before 0.9.0, see B.6).
// * arg_nodes must name variables; node_row_ptr is read and otherwise ignored,
//   as MXNet does (it is derived from the operators when saving).
// * Graph attrs are [type_name, value] pairs of a known type; mxnet_version,
//   when present, must be an "int". Without it the file counts as 0.8.0.
// Every error is kIO and names the source, and the node where there is one.
//
// Note [Graph size limit]
// A file may hold at most MaxGraphNodes() nodes, counting those of every
// subgraph: WEFT_MAX_GRAPH_NODES, default 10,000,000 (a relu chain that long
// is a 700 MB file; loading takes about 1.5 KB of memory per node). The count is
// checked against each "nodes" array before any of its nodes is built, so a
// larger file is refused with an error naming both numbers instead of
// exhausting memory. Deep graphs below the limit are fine (Note [Deep graphs]).
#include "core/graph/json.h"

#include "core/graph/subgraphs.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/base/env.h"
#include "core/base/error.h"
#include "core/graph/json_upgrade.h"
#include "core/graph/np_json_nodes.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

class SymbolLoader {
 public:
  // `nodes_read`: the count over the file so far, shared with the loaders of its subgraphs.
  SymbolLoader(const std::string& source, size_t* nodes_read, size_t max_nodes)
      : source_(source), nodes_read_(nodes_read), max_nodes_(max_nodes) {}

  // subgraph_version >= 0: a node's subgraph, read as a file of that version.
  Symbol Load(const JSONValue& root, GraphAttrs* graph_attrs, int subgraph_version = -1) {
    if (!root.is_object()) Fail("", "expected a JSON object at the top level, found " + Kind(root));
    const JSONValue *nodes = nullptr, *arg_nodes = nullptr, *row_ptr = nullptr, *heads = nullptr,
                    *attrs = nullptr;
    for (const auto& m : root.members) {
      if (m.first == "nodes") nodes = &m.second;
      else if (m.first == "arg_nodes") arg_nodes = &m.second;
      else if (m.first == "node_row_ptr") row_ptr = &m.second;
      else if (m.first == "heads") heads = &m.second;
      else if (m.first == "attrs") attrs = &m.second;
      else Fail("", "unknown top-level key '" + m.first + "' (expected nodes, arg_nodes, node_row_ptr, heads, attrs)");
    }
    if (!nodes) Fail("", "missing top-level key 'nodes'");
    if (!arg_nodes) Fail("", "missing top-level key 'arg_nodes'");
    if (!heads) Fail("", "missing top-level key 'heads'");

    GraphAttrs gattrs;
    if (attrs) gattrs = ReadGraphAttrs(*attrs);
    int version = subgraph_version >= 0 ? subgraph_version : json_upgrade::kVersion080;
    auto v = gattrs.find("mxnet_version");
    if (v != gattrs.end() && subgraph_version < 0) {
      int64_t x = 0;
      if (v->second.type != "int" || !v->second.value.GetInt64(&x) || x < 0 || x > 100000000)
        Fail("", "graph attribute 'mxnet_version' must be [\"int\", <version>]");
      version = static_cast<int>(x);
    }

    ReadNodes(*nodes, version);

    std::vector<NodeEntry> outputs;
    if (!heads->is_array()) Fail("", "'heads' must be an array of entries, found " + Kind(*heads));
    for (size_t i = 0; i < heads->items.size(); ++i)
      outputs.push_back(ReadEntry(heads->items[i], nodes_.size(), "heads[" + std::to_string(i) + "]"));

    for (uint32_t id : ReadUIntArray(*arg_nodes, "arg_nodes")) {
      if (id >= nodes_.size())
        Fail("", "arg_nodes refers to node " + std::to_string(id) + ", but there are only " +
                     std::to_string(nodes_.size()) + " nodes");
      if (!nodes_[id]->is_variable()) Fail("", "arg_nodes refers to node " + Describe(id) + ", which is not a variable");
    }
    if (row_ptr) ReadUIntArray(*row_ptr, "node_row_ptr");

    try {
      json_upgrade::UpgradeParsedNodes(nodes_, version);
    } catch (const Error& e) {
      Fail("", std::string("upgrading a file of MXNet version ") + std::to_string(version) + ": " + e.what());
    }
    SetVariableVersions(outputs);

    if (graph_attrs) *graph_attrs = std::move(gattrs);
    Symbol s;
    s.outputs = std::move(outputs);
    return s;
  }

 private:
  [[noreturn]] void Fail(const std::string& where, const std::string& what) const {
    WEFT_THROW(kIO) << source_ << ": " << (where.empty() ? "" : where + ": ") << what;
  }
  static std::string Kind(const JSONValue& v) { return JSONValue::KindName(v.kind); }

  // "node 3 ('conv')", for messages.
  std::string Describe(size_t id) const {
    std::string s = "node " + std::to_string(id);
    if (id < nodes_.size()) s += " ('" + nodes_[id]->name + "')";
    return s;
  }

  GraphAttrs ReadGraphAttrs(const JSONValue& attrs) {
    if (!attrs.is_object()) Fail("", "'attrs' must be an object, found " + Kind(attrs));
    GraphAttrs out;
    for (const auto& m : attrs.members) {
      const std::string where = "graph attribute '" + m.first + "'";
      const JSONValue& pair = m.second;
      if (!pair.is_array() || pair.items.size() != 2 || !pair.items[0].is_string())
        Fail("", where + " must be a [type_name, value] pair");
      GraphAttr a;
      a.type = pair.items[0].text;
      a.value = pair.items[1];
      if (!GraphAttrFits(a)) {
        static const char* kTypes = "int, size_t, str, list_int, list_str, list_shape";
        if (a.type != "int" && a.type != "size_t" && a.type != "str" && a.type != "list_int" &&
            a.type != "list_str" && a.type != "list_shape")
          Fail("", where + " has unknown type '" + a.type + "' (expected one of " + kTypes + ")");
        Fail("", where + " of type '" + a.type + "' has a value that is not of that type");
      }
      out[m.first] = std::move(a);
    }
    return out;
  }

  static bool IsIntArray(const JSONValue& v) {
    return v.is_array() && std::all_of(v.items.begin(), v.items.end(), [](const JSONValue& x) {
             int64_t i;
             return x.GetInt64(&i);
           });
  }
  static bool GraphAttrFits(const GraphAttr& a) {
    const JSONValue& v = a.value;
    int64_t i = 0;
    if (a.type == "int") return v.GetInt64(&i) && i >= INT32_MIN && i <= INT32_MAX;
    if (a.type == "size_t") return v.GetInt64(&i) && i >= 0;
    if (a.type == "str") return v.is_string();
    if (a.type == "list_int") return IsIntArray(v);
    if (a.type == "list_str")
      return v.is_array() &&
             std::all_of(v.items.begin(), v.items.end(), [](const JSONValue& x) { return x.is_string(); });
    if (a.type == "list_shape") return v.is_array() && std::all_of(v.items.begin(), v.items.end(), IsIntArray);
    return false;
  }

  std::vector<uint32_t> ReadUIntArray(const JSONValue& v, const std::string& what, const std::string& where = "") {
    if (!v.is_array()) Fail(where, "'" + what + "' must be an array of non-negative integers, found " + Kind(v));
    std::vector<uint32_t> out;
    for (const JSONValue& x : v.items) {
      uint32_t u = 0;
      if (!x.GetUInt32(&u))
        Fail(where, "'" + what + "' must hold non-negative integers, found " +
                     (x.is_number() ? "'" + x.text + "'" : Kind(x)) + " at byte " + std::to_string(x.offset));
      out.push_back(u);
    }
    return out;
  }

  // An entry [node, output(, version)] referring to one of the first `limit` nodes.
  NodeEntry ReadEntry(const JSONValue& v, size_t limit, const std::string& where) {
    if (!v.is_array() || v.items.size() < 2 || v.items.size() > 3)
      Fail(where, "an entry must be [node, output] or [node, output, version], found " +
                      (v.is_array() ? "an array of " + std::to_string(v.items.size()) + " items" : Kind(v)));
    uint32_t f[3] = {0, 0, 0};
    static const char* kField[] = {"node", "output", "version"};
    for (size_t i = 0; i < v.items.size(); ++i)
      if (!v.items[i].GetUInt32(&f[i]))
        Fail(where, std::string("entry field '") + kField[i] + "' must be a non-negative integer");
    if (f[0] >= limit) {
      if (f[0] >= total_nodes_)
        Fail(where, "entry refers to node " + std::to_string(f[0]) + ", but there are only " +
                        std::to_string(total_nodes_) + " nodes");
      Fail(where, "entry refers to " + Describe(f[0]) + ", which does not come before it");
    }
    const NodePtr& src = nodes_[f[0]];
    int n_out = src->num_outputs();
    if (static_cast<int64_t>(f[1]) >= n_out)
      Fail(where, "entry refers to output " + std::to_string(f[1]) + " of " + Describe(f[0]) + ", which has " +
                      std::to_string(n_out) + (n_out == 1 ? " output" : " outputs"));
    return NodeEntry{src, f[1], f[2]};
  }

  static std::map<std::string, std::string> ReadStringMap(const JSONValue& v, bool* ok) {
    std::map<std::string, std::string> out;
    *ok = v.is_object();
    for (const auto& m : v.members) {
      if (!m.second.is_string()) *ok = false;
      out[m.first] = m.second.text;
    }
    return out;
  }

  void ReadNodes(const JSONValue& nodes, int version) {
    if (!nodes.is_array()) Fail("", "'nodes' must be an array of node objects, found " + Kind(nodes));
    total_nodes_ = nodes.items.size();
    // Note [Graph size limit]
    *nodes_read_ += total_nodes_;
    if (*nodes_read_ > max_nodes_)
      Fail("", "the graph has " + std::to_string(*nodes_read_) + " nodes" +
                   (*nodes_read_ == total_nodes_ ? std::string() : std::string(" counting its subgraphs")) +
                   ", more than the limit of " + std::to_string(max_nodes_) +
                   " (set WEFT_MAX_GRAPH_NODES to load larger graphs)");
    nodes_.reserve(total_nodes_);
    for (size_t i = 0; i < nodes.items.size(); ++i) ReadNode(nodes.items[i], i, version);
  }

  void ReadNode(const JSONValue& jn, size_t id, int version) {
    std::string where = "node " + std::to_string(id);
    if (!jn.is_object()) Fail(where, "expected a node object, found " + Kind(jn));
    // The name first, so every later message can name the node.
    if (const JSONValue* name = jn.Find("name")) {
      if (!name->is_string()) Fail(where, "'name' must be a string, found " + Kind(*name));
      where += " ('" + name->text + "')";
    }
    const JSONValue *op = nullptr, *name = nullptr, *inputs = nullptr, *deps = nullptr, *subgraphs = nullptr;
    std::map<std::string, std::string> attrs, param;
    for (const auto& m : jn.members) {
      const std::string& key = m.first;
      bool ok = true;
      if (key == "op") op = &m.second;
      else if (key == "name") name = &m.second;
      else if (key == "inputs") inputs = &m.second;
      else if (key == "control_deps") deps = &m.second;
      else if (key == "attrs" || key == "attr") attrs = ReadStringMap(m.second, &ok);
      else if (key == "param") param = ReadStringMap(m.second, &ok);
      else if (key == "backward_source_id") ok = m.second.is_integer();
      else if (key == "subgraphs") {
        ok = m.second.is_array();
        subgraphs = &m.second;
      } else {
        Fail(where, "unknown key '" + key +
                        "' (expected op, name, attrs, inputs, control_deps, subgraphs, attr, param, backward_source_id)");
      }
      if (!ok) {
        const char* expect = key == "backward_source_id" ? "an integer"
                             : key == "subgraphs"        ? "an array"
                                                         : "an object of strings";
        Fail(where, "'" + key + "' must be " + expect + ", found " + Kind(m.second));
      }
    }
    if (!op) Fail(where, "missing key 'op'");
    if (!name) Fail(where, "missing key 'name'");
    if (!inputs) Fail(where, "missing key 'inputs'");
    if (!op->is_string()) Fail(where, "'op' must be a string, found " + Kind(*op));
    if (!inputs->is_array()) Fail(where, "'inputs' must be an array of entries, found " + Kind(*inputs));
    for (auto& kv : param) attrs.insert(kv);  // "param" never overrides "attrs"

    auto node = std::make_shared<Node>();
    node->name = name->text;
    node->attrs = std::move(attrs);
    json_numpy::InputNode before;  // Note [Nodes the reader adds] (np_json_nodes.cc)
    if (op->text != "null") {
      node->op = OpRegistry::Get()->Find(op->text);
      node->op_name = op->text;
      std::string legacy;
      try {
        // Note [NumPy-mode nodes read as legacy ones] (np_json_nodes.cc)
        if (!node->op && json_numpy::ToLegacy(op->text, &node->attrs, &legacy, &before)) {
          node->op = OpRegistry::Get()->Find(legacy);
          node->op_name = legacy;
        }
      } catch (const Error& e) {
        Fail(where, e.what());
      }
      if (!node->op) Fail(where, "unknown operator '" + op->text + "'");
    } else if (!inputs->items.empty()) {
      Fail(where, "a variable (op \"null\") cannot have inputs");
    }
    for (size_t k = 0; k < inputs->items.size(); ++k)
      node->inputs.push_back(ReadEntry(inputs->items[k], id, where + ", input " + std::to_string(k)));
    for (size_t k = 0; !before.op.empty() && k < node->inputs.size(); ++k) {
      // Note [Nodes the reader adds] (np_json_nodes.cc): one node before each input
      auto pre = std::make_shared<Node>();
      pre->name = node->name + "_in" + std::to_string(k);
      pre->op = OpRegistry::Get()->Find(before.op);
      pre->op_name = before.op;
      pre->attrs = before.attrs;
      pre->inputs = {node->inputs[k]};
      try {
        pre->ParseParams();
      } catch (const Error& e) {
        Fail(where, op->text + ": " + e.what());
      }
      node->inputs[k] = NodeEntry{pre, 0, 0};
    }
    if (deps) {
      for (uint32_t d : ReadUIntArray(*deps, "control_deps", where)) {
        if (d >= id) Fail(where, "control dependency on node " + std::to_string(d) + ", which does not come before it");
        node->control_deps.push_back(nodes_[d]);
      }
    }

    // Note [Subgraph operators]: the graphs of a control-flow node.
    if (subgraphs && !subgraphs->items.empty()) {
      if (!node->op || !IsSubgraphOp(*node->op))
        Fail(where, "has subgraphs, which only the control-flow operators (_foreach, _while_loop, _cond) take");
      auto graphs = std::make_shared<SubgraphList>();
      for (size_t k = 0; k < subgraphs->items.size(); ++k) {
        try {
          graphs->push_back(SymbolLoader(source_, nodes_read_, max_nodes_).Load(subgraphs->items[k], nullptr, version));
        } catch (const Error& e) {
          Fail(where, "subgraph " + std::to_string(k) + ": " + e.what());
        }
      }
      node->info = std::move(graphs);
    } else if (node->op && IsSubgraphOp(*node->op)) {
      Fail(where, "operator " + node->op->name + " needs its subgraphs, and the node has none");
    }
    try {
      if (version < kMXNetJSONVersion) json_upgrade::FixHiddenKeys(node.get());
      node->ParseParams();
    } catch (const Error& e) {
      std::string msg = e.what();
      const std::string prefix = "node '" + node->name + "': ";  // ParseParams' own prefix
      if (msg.compare(0, prefix.size(), prefix) == 0) msg.erase(0, prefix.size());
      Fail(where, msg);
    }
    if (node->op) {
      int want = 0;
      try {
        want = node->op->NumInputs(node->params);
      } catch (const Error& e) {
        Fail(where, e.what());
      }
      int have = static_cast<int>(node->inputs.size());
      // Before 0.9.0 auxiliary states were not stored; the upgrade adds them.
      if (have != want && !(version < json_upgrade::kVersion090 && have < want)) {
        std::string names;
        if (want <= 16) {
          for (const std::string& n : node->op->InputNames(node->params)) names += (names.empty() ? "" : ", ") + n;
          names = " (" + names + ")";
        }
        Fail(where, "operator " + node->op->name + " takes " + std::to_string(want) + " input" +
                        (want == 1 ? "" : "s") + names + ", but the node has " + std::to_string(have));
      }
    }
    nodes_.push_back(std::move(node));
  }

  // A variable's mutation counter continues from the highest version any entry
  // recorded for it, so composing more mutating ops on a loaded graph goes on counting.
  void SetVariableVersions(const std::vector<NodeEntry>& outputs) {
    auto bump = [](const NodeEntry& e) {
      if (e.node->is_variable()) e.node->version = std::max(e.node->version, e.version);
    };
    for (const NodePtr& n : nodes_)
      for (const NodeEntry& e : n->inputs) bump(e);
    for (const NodeEntry& e : outputs) bump(e);
  }

  const std::string& source_;
  size_t* nodes_read_;
  size_t max_nodes_;
  std::vector<NodePtr> nodes_;
  size_t total_nodes_ = 0;  // in the file; nodes_ fills up while reading
};

}  // namespace

GraphAttr GraphAttr::Int(int64_t v) {
  GraphAttr a;
  a.type = "int";
  a.value.kind = JSONValue::Kind::kNumber;
  a.value.text = std::to_string(v);
  return a;
}

GraphAttr GraphAttr::Str(const std::string& v) {
  GraphAttr a;
  a.type = "str";
  a.value.kind = JSONValue::Kind::kString;
  a.value.text = v;
  return a;
}

int64_t GraphAttr::AsInt() const {
  int64_t v = 0;
  WEFT_CHECK((type == "int" || type == "size_t") && value.GetInt64(&v), kInvalidArgument)
      << "graph attribute of type '" << type << "' is not an integer";
  return v;
}

size_t MaxGraphNodes() {
  constexpr size_t kDefault = 10000000;
  const std::string v = GetEnv("WEFT_MAX_GRAPH_NODES", "");
  if (v.empty()) return kDefault;
  // Digits only (strtoull would take " -3" as a huge number), at most 18 of them.
  const bool digits = v.size() <= 18 && v.find_first_not_of("0123456789") == std::string::npos;
  const unsigned long long n = digits ? std::strtoull(v.c_str(), nullptr, 10) : 0;
  WEFT_CHECK(n > 0, kInvalidArgument) << "WEFT_MAX_GRAPH_NODES must be a positive number of nodes, got '" << v << "'";
  return static_cast<size_t>(n);
}

Symbol LoadSymbolJSON(const std::string& text, const std::string& source, GraphAttrs* graph_attrs) {
  const size_t max_nodes = MaxGraphNodes();  // a bad setting is reported before the file is read
  JSONValue root = ParseJSON(text, source);
  size_t nodes_read = 0;
  return SymbolLoader(source, &nodes_read, max_nodes).Load(root, graph_attrs);
}

}  // namespace weft
