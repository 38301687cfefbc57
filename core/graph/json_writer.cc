// SaveSymbolJSON: MXNet's symbol printer, byte for byte (FORMATS.md B.7).
//
// Note [MXNet JSON printer]
// MXNet writes with dmlc::JSONWriter, which keeps a stack of open containers,
// each either multi-line or single-line. Before every item of a multi-line
// container it writes a newline and 2 spaces per open container; items are
// separated by ", " (so multi-line containers leave a trailing space at line
// ends); a non-empty multi-line container closes on a new line indented to its
// own level. Which containers are multi-line follows from dmlc's handlers:
// objects written as structs always; string maps (node attrs, graph attrs)
// when they have more than one key; arrays when they have more than 10 items
// or their items are not plain data (nodes, strings, shapes); entries and
// [type, value] pairs never. Keys are written verbatim and strings escape only
// \r \n \\ \t \". MXJSONWriter below is that writer, nothing more.
#include <map>
#include <string>
#include <vector>

#include "core/base/c_string.h"
#include "core/base/error.h"
#include "core/graph/json.h"
#include "core/graph/subgraphs.h"

namespace weft {
namespace {

class MXJSONWriter {
 public:
  void BeginObject(bool multi_line = true) { Open('{', multi_line); }
  void EndObject() { Close('}'); }
  void BeginArray(bool multi_line) { Open('[', multi_line); }
  void EndArray() { Close(']'); }

  // Starts an object member: separator, then `"key": `.
  void Key(const std::string& key) {
    RefuseNUL(key);
    ItemSeparator();
    out_ += '"';
    out_ += key;
    out_ += "\": ";
  }
  // Starts an array item.
  void Item() { ItemSeparator(); }

  void String(const std::string& s) {
    RefuseNUL(s);
    out_ += '"';
    for (char c : s) {
      switch (c) {
        case '\r': out_ += "\\r"; break;
        case '\n': out_ += "\\n"; break;
        case '\\': out_ += "\\\\"; break;
        case '\t': out_ += "\\t"; break;
        case '"': out_ += "\\\""; break;
        default: out_ += c;
      }
    }
    out_ += '"';
  }
  void Raw(const std::string& text) { out_ += text; }
  // MXNet's writer has no escape for a NUL, and the text crosses the C ABI as
  // a C string: one NUL would hand out (and save) a cut-off file. The reader
  // refuses \u0000, so none should get here; if one does, fail loudly.
  static void RefuseNUL(const std::string& s) { CheckCString(s, "cannot write symbol JSON: the string"); }
  void UInt(uint64_t v) { out_ += std::to_string(v); }

  std::string Take() { return std::move(out_); }

 private:
  void Open(char c, bool multi_line) {
    out_ += c;
    multi_line_.push_back(multi_line);
    count_.push_back(0);
  }
  void Close(char c) {
    bool newline = multi_line_.back();
    size_t n = count_.back();
    multi_line_.pop_back();
    count_.pop_back();
    if (newline && n != 0) Newline();
    out_ += c;
  }
  void ItemSeparator() {
    if (count_.back() != 0) out_ += ", ";
    ++count_.back();
    Newline();
  }
  void Newline() {
    if (multi_line_.empty() || multi_line_.back()) {
      out_ += '\n';
      out_.append(multi_line_.size() * 2, ' ');
    }
  }

  std::string out_;
  std::vector<bool> multi_line_;
  std::vector<size_t> count_;
};

void WriteUIntArray(MXJSONWriter* w, const std::vector<uint32_t>& v) {
  w->BeginArray(v.size() > 10);
  for (uint32_t x : v) {
    w->Item();
    w->UInt(x);
  }
  w->EndArray();
}

void WriteEntries(MXJSONWriter* w, const std::vector<IndexedGraph::IEntry>& entries) {
  w->BeginArray(entries.size() > 10);
  for (const auto& e : entries) {
    w->Item();
    w->BeginArray(false);
    w->Item();
    w->UInt(e.node_id);
    w->Item();
    w->UInt(e.index);
    w->Item();
    w->UInt(e.version);
    w->EndArray();
  }
  w->EndArray();
}

void WriteStringMap(MXJSONWriter* w, const std::map<std::string, std::string>& m) {
  w->BeginObject(m.size() > 1);
  for (const auto& kv : m) {
    w->Key(kv.first);
    w->String(kv.second);
  }
  w->EndObject();
}

[[noreturn]] void BadGraphAttr(const std::string& name, const GraphAttr& a) {
  WEFT_THROW(kInvalidArgument) << "graph attribute '" << name << "' of type '" << a.type
                               << "' holds " << JSONValue::KindName(a.value.kind) << " that does not fit the type";
}

void WriteIntArray(MXJSONWriter* w, const std::string& name, const GraphAttr& a, const JSONValue& v) {
  if (!v.is_array()) BadGraphAttr(name, a);
  w->BeginArray(v.items.size() > 10);
  for (const JSONValue& x : v.items) {
    if (!x.is_integer()) BadGraphAttr(name, a);
    w->Item();
    w->Raw(x.text);
  }
  w->EndArray();
}

// The value half of a [type_name, value] pair, as dmlc's handler for that type writes it.
void WriteGraphAttrValue(MXJSONWriter* w, const std::string& name, const GraphAttr& a) {
  const JSONValue& v = a.value;
  if (a.type == "int" || a.type == "size_t") {
    if (!v.is_integer()) BadGraphAttr(name, a);
    w->Raw(v.text);
  } else if (a.type == "str") {
    if (!v.is_string()) BadGraphAttr(name, a);
    w->String(v.text);
  } else if (a.type == "list_int") {
    WriteIntArray(w, name, a, v);
  } else if (a.type == "list_str") {
    if (!v.is_array()) BadGraphAttr(name, a);
    w->BeginArray(true);  // strings are not plain data: always multi-line
    for (const JSONValue& x : v.items) {
      if (!x.is_string()) BadGraphAttr(name, a);
      w->Item();
      w->String(x.text);
    }
    w->EndArray();
  } else if (a.type == "list_shape") {
    if (!v.is_array()) BadGraphAttr(name, a);
    w->BeginArray(true);
    for (const JSONValue& shape : v.items) {
      w->Item();
      WriteIntArray(w, name, a, shape);
    }
    w->EndArray();
  } else {
    WEFT_THROW(kInvalidArgument) << "graph attribute '" << name << "' has unknown type '" << a.type << "'";
  }
}

// One graph object: the file, or (graph_attrs null) a node's subgraph, which
// MXNet writes without graph attributes.
void WriteGraph(MXJSONWriter& w, const Symbol& s, const GraphAttrs* graph_attrs) {
  IndexedGraph g(s.outputs);
  w.BeginObject();

  w.Key("nodes");
  w.BeginArray(true);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    const IndexedGraph::INode& in = g[nid];
    const Node& n = *in.source;
    w.Item();
    w.BeginObject();
    w.Key("op");
    w.String(n.is_variable() ? std::string("null") : (n.op_name.empty() ? n.op->name : n.op_name));
    w.Key("name");
    w.String(n.name);
    if (!n.attrs.empty()) {
      w.Key("attrs");
      WriteStringMap(&w, n.attrs);
    }
    w.Key("inputs");
    WriteEntries(&w, in.inputs);
    if (!in.control_deps.empty()) {
      w.Key("control_deps");
      WriteUIntArray(&w, in.control_deps);
    }
    // Note [Subgraph operators]: a control-flow node's graphs, each complete.
    if (std::shared_ptr<const SubgraphList> graphs = NodeSubgraphs(n)) {
      w.Key("subgraphs");
      w.BeginArray(true);
      for (const Symbol& sub : *graphs) {
        w.Item();
        WriteGraph(w, sub, nullptr);
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndArray();

  w.Key("arg_nodes");
  WriteUIntArray(&w, g.arg_nodes());
  w.Key("node_row_ptr");
  WriteUIntArray(&w, g.row_ptr());
  w.Key("heads");
  WriteEntries(&w, g.outputs());

  if (graph_attrs) {
    // MXNet keeps graph attrs in an unordered map; with is_np_shape and
    // mxnet_version it printed is_np_shape first. Others first, sorted, then the version.
    size_t n_attrs = 1;
    for (const auto& kv : *graph_attrs)
      if (kv.first != "mxnet_version") ++n_attrs;
    w.Key("attrs");
    w.BeginObject(n_attrs > 1);
    auto write_pair = [&](const std::string& name, const GraphAttr& a) {
      w.Key(name);
      w.BeginArray(false);
      w.Item();
      w.String(a.type);
      w.Item();
      WriteGraphAttrValue(&w, name, a);
      w.EndArray();
    };
    for (const auto& kv : *graph_attrs)
      if (kv.first != "mxnet_version") write_pair(kv.first, kv.second);
    write_pair("mxnet_version", GraphAttr::Int(kMXNetJSONVersion));
    w.EndObject();
  }

  w.EndObject();
}

}  // namespace

std::string SaveSymbolJSON(const Symbol& s) { return SaveSymbolJSON(s, GraphAttrs()); }

std::string SaveSymbolJSON(const Symbol& s, const GraphAttrs& graph_attrs) {
  MXJSONWriter w;
  WriteGraph(w, s, &graph_attrs);
  return w.Take();
}

}  // namespace weft
