// The symbol JSON (FORMATS.md part B): MXNet 1.9.1's files load and save back
// byte for byte, old (0.8-era) files are upgraded, and malformed input of any
// kind is a weft::Error naming the file and the node — never a crash.
#include "core/graph/json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/json_reader.h"
#include "core/graph/graph.h"
#include "core/graph/symbol.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

// ../shared/fixtures beside the repository root (WEFT_SOURCE_DIR, set by
// tests/CMakeLists.txt: __FILE__ is relative under ccache's base_dir);
// WEFT_FIXTURES_DIR overrides.
fs::path FixtureDir() {
  if (const char* env = std::getenv("WEFT_FIXTURES_DIR")) return env;
  return fs::path(WEFT_SOURCE_DIR).parent_path() / "shared" / "fixtures";
}

std::string ReadText(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Where two texts first differ: line number and both versions of that line.
std::string FirstDifference(const std::string& want, const std::string& got) {
  size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  if (i == want.size() && i == got.size()) return "identical";
  size_t start = i == 0 ? 0 : want.rfind('\n', i - 1);
  start = start == std::string::npos ? 0 : start + 1;
  auto line = [&](const std::string& t) { return t.substr(start, t.find('\n', start) - start); };
  size_t line_no = 1 + static_cast<size_t>(std::count(want.begin(), want.begin() + static_cast<long>(start), '\n'));
  return "first difference at byte " + std::to_string(i) + ", line " + std::to_string(line_no) + ": expected '" +
         line(want) + "', got '" + line(got) + "'";
}

// The message of the weft::Error that `f` throws ("" and a failure otherwise).
template <typename F>
std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-weft exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "did not throw";
  return "";
}

std::string LoadError(const std::string& text) {
  return ErrorOf([&] { LoadSymbolJSON(text, "test.json"); });
}

// Arguments and aux states from the node level (IndexedGraph), independent of Symbol.
void NodeLevelLists(const Symbol& s, std::vector<std::string>* args, std::vector<std::string>* aux) {
  IndexedGraph g(s.outputs);
  const auto& mut = g.mutable_input_nodes();
  for (uint32_t nid : g.arg_nodes()) {
    bool is_aux = std::find(mut.begin(), mut.end(), nid) != mut.end();
    (is_aux ? aux : args)->push_back(g[nid].source->name);
  }
}

std::vector<std::string> Strings(const JSONValue* v) {
  std::vector<std::string> out;
  if (v)
    for (const JSONValue& x : v->items) out.push_back(x.text);
  return out;
}

const Node* FindNode(const Symbol& s, const std::string& name) {
  const Node* found = nullptr;
  PostOrderDFS(s.outputs, [&](const NodePtr& n) {
    if (n->name == name) found = n.get();
  });
  return found;
}

const char* kFixtures[] = {"sym_misc.json", "cnn-symbol.json"};

// ---------------------------------------------------------------------------------------------
// Fixtures written by MXNet 1.9.1.

TEST(SymbolJSON, FixturesSaveBackByteIdentical) {
  for (const char* name : kFixtures) {
    fs::path p = FixtureDir() / name;
    if (!fs::exists(p)) GTEST_SKIP() << "no fixture " << p;
    SCOPED_TRACE(name);
    std::string text = ReadText(p);
    GraphAttrs attrs;
    Symbol s = LoadSymbolJSON(text, p.string(), &attrs);
    ASSERT_EQ(attrs.count("mxnet_version"), 1u);
    EXPECT_EQ(attrs.at("mxnet_version").AsInt(), 10901);
    std::string saved = SaveSymbolJSON(s);
    EXPECT_TRUE(saved == text) << FirstDifference(text, saved);
    saved = SaveSymbolJSON(s, attrs);
    EXPECT_TRUE(saved == text) << FirstDifference(text, saved);
  }
}

TEST(SymbolJSON, FixtureListsMatchManifest) {
  fs::path manifest_path = FixtureDir() / "manifest.json";
  if (!fs::exists(manifest_path)) GTEST_SKIP() << "no fixtures in " << FixtureDir();
  JSONValue manifest = ParseJSON(ReadText(manifest_path), manifest_path.string());
  const JSONValue* files = manifest.Find("files");
  ASSERT_NE(files, nullptr);
  for (const char* name : kFixtures) {
    SCOPED_TRACE(name);
    const JSONValue* entry = files->Find(name);
    ASSERT_NE(entry, nullptr);
    Symbol s = LoadSymbolJSON(ReadText(FixtureDir() / name), name);
    std::vector<std::string> args, aux;
    NodeLevelLists(s, &args, &aux);
    EXPECT_EQ(args, Strings(entry->Find("arguments")));
    EXPECT_EQ(aux, Strings(entry->Find("auxiliary_states")));
    EXPECT_EQ(s.ListArguments(), Strings(entry->Find("arguments")));
    EXPECT_EQ(s.ListAuxiliaryStates(), Strings(entry->Find("auxiliary_states")));
    if (const JSONValue* outputs = entry->Find("outputs")) {
      EXPECT_EQ(s.ListOutputs(), Strings(outputs));
    }
  }
}

TEST(SymbolJSON, FixtureNodesKeepWhatTheFileSays) {
  fs::path p = FixtureDir() / "sym_misc.json";
  if (!fs::exists(p)) GTEST_SKIP() << "no fixture " << p;
  Symbol s = LoadSymbolJSON(ReadText(p), p.string());
  ASSERT_EQ(s.outputs.size(), 3u);
  EXPECT_EQ(s.outputs[1].node->name, "split");
  EXPECT_EQ(s.outputs[1].index, 1u);
  EXPECT_EQ(s.outputs[1].node->op_name, "SliceChannel");  // the alias as written
  EXPECT_EQ(s.outputs[1].node->num_outputs(), 2);

  const Node* conv = FindNode(s, "conv");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->attrs.at("__ctx_group__"), "dev1");
  EXPECT_EQ(conv->attrs.at("__custom__"), "yes");
  EXPECT_EQ(conv->params.GetInt("num_filter"), 8);

  const Node* data = FindNode(s, "data");
  ASSERT_NE(data, nullptr);
  EXPECT_TRUE(data->is_variable());
  EXPECT_EQ(data->attrs.at("__init__"), "[\"xavier\", {\"rnd_type\": \"uniform\", \"factor_type\": \"avg\", \"magnitude\": 3}]");

  const Node* bn = FindNode(s, "bn");
  ASSERT_NE(bn, nullptr);
  ASSERT_EQ(bn->inputs.size(), 5u);
  EXPECT_EQ(bn->inputs[3].version, 1u);
  EXPECT_EQ(bn->inputs[4].version, 1u);
  EXPECT_EQ(bn->inputs[1].version, 0u);
  // The variable's mutation counter continues from the file.
  EXPECT_EQ(bn->inputs[3].node->version, 1u);
  EXPECT_EQ(bn->inputs[1].node->version, 0u);
}

// Every prefix of a valid file is invalid, and flipped bytes never crash.
TEST(SymbolJSON, TruncatedAndCorruptedFilesAreErrors) {
  for (const char* name : kFixtures) {
    fs::path p = FixtureDir() / name;
    if (!fs::exists(p)) GTEST_SKIP() << "no fixture " << p;
    SCOPED_TRACE(name);
    const std::string text = ReadText(p);
    for (size_t n = 0; n < text.size(); ++n) {
      try {
        LoadSymbolJSON(text.substr(0, n), name);
        ADD_FAILURE() << "prefix of " << n << " bytes loaded";
      } catch (const Error& e) {
        EXPECT_EQ(e.status(), Status::kIO);
      }
    }
    std::mt19937 rng(1234);
    int loaded = 0, failed = 0;
    for (int iter = 0; iter < 3000; ++iter) {
      std::string bad = text;
      int flips = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < flips; ++k) {
        size_t at = rng() % bad.size();
        bad[at] = (rng() % 2) ? static_cast<char>(rng() % 256) : static_cast<char>(bad[at] ^ (1 << (rng() % 8)));
      }
      try {
        Symbol s = LoadSymbolJSON(bad, name);
        SaveSymbolJSON(s);
        ++loaded;
      } catch (const Error& e) {
        ++failed;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "non-weft exception for corrupted input: " << e.what();
      }
    }
    EXPECT_GT(failed, 0);
    EXPECT_GT(loaded, 0);  // flips inside strings keep the file valid
  }
}

// ---------------------------------------------------------------------------------------------
// Files from MXNet before 0.9 (like MXNet's own tests/python/unittest/save_000800.json):
// "param" and "attr", two-element entries, backward_source_id, no node_row_ptr, no attrs,
// hidden keys without underscores, and no auxiliary states.

const char* kLegacy080 = R"({
  "nodes": [
    {"op": "null", "param": {}, "name": "data", "inputs": [], "backward_source_id": -1,
     "attr": {"ctx_group": "stage1", "lr_mult": "0.2"}},
    {"op": "null", "param": {}, "name": "fc1_weight", "inputs": [], "backward_source_id": -1,
     "attr": {"ctx_group": "stage1", "weight_lr_mult": "1.2"}},
    {"op": "null", "param": {}, "name": "fc1_bias", "inputs": [], "backward_source_id": -1},
    {"op": "FullyConnected", "param": {"no_bias": "False", "num_hidden": "4"}, "name": "fc1",
     "inputs": [[0, 0], [1, 0], [2, 0]], "backward_source_id": -1,
     "attr": {"ctx_group": "stage1", "wd_mult": "0.3", "weight_lr_mult": "1.2"}},
    {"op": "null", "param": {}, "name": "bn_gamma", "inputs": [], "backward_source_id": -1},
    {"op": "null", "param": {}, "name": "bn_beta", "inputs": [], "backward_source_id": -1},
    {"op": "BatchNorm", "param": {"eps": "0.001", "fix_gamma": "True", "momentum": "0.9",
     "use_global_stats": "False"}, "name": "bn", "inputs": [[3, 0], [4, 0], [5, 0]],
     "backward_source_id": -1, "attr": {"ctx_group": "stage2"}},
    {"op": "null", "param": {}, "name": "softmax_label", "inputs": [], "backward_source_id": -1},
    {"op": "SoftmaxOutput", "param": {"grad_scale": "1", "ignore_label": "-1", "multi_output": "False",
     "normalization": "null", "out_grad": "False", "preserve_shape": "False", "use_ignore": "False"},
     "name": "softmax", "inputs": [[6, 0], [7, 0]], "backward_source_id": -1}
  ],
  "arg_nodes": [0, 1, 2, 4, 5, 7],
  "heads": [[8, 0]]
})";

TEST(SymbolJSON, LoadsMXNet080File) {
  GraphAttrs attrs;
  Symbol s = LoadSymbolJSON(kLegacy080, "save_000800.json", &attrs);
  EXPECT_TRUE(attrs.empty());

  std::vector<std::string> args, aux;
  NodeLevelLists(s, &args, &aux);
  std::vector<std::string> want_args = {"data", "fc1_weight", "fc1_bias", "bn_gamma", "bn_beta", "softmax_label"};
  std::vector<std::string> want_aux = {"bn_moving_mean", "bn_moving_var"};
  EXPECT_EQ(args, want_args);
  EXPECT_EQ(aux, want_aux);
  EXPECT_EQ(s.ListArguments(), want_args);
  EXPECT_EQ(s.ListAuxiliaryStates(), want_aux);

  // Rule 1: hidden keys renamed; <input>_lr_mult moved to the input variable.
  const Node* data = FindNode(s, "data");
  ASSERT_NE(data, nullptr);
  std::map<std::string, std::string> want_data = {{"__ctx_group__", "stage1"}, {"__lr_mult__", "0.2"}};
  EXPECT_EQ(data->attrs, want_data);
  const Node* fc1 = FindNode(s, "fc1");
  ASSERT_NE(fc1, nullptr);
  std::map<std::string, std::string> want_fc1 = {
      {"__ctx_group__", "stage1"}, {"__wd_mult__", "0.3"}, {"no_bias", "False"}, {"num_hidden", "4"}};
  EXPECT_EQ(fc1->attrs, want_fc1);
  EXPECT_EQ(fc1->params.GetInt("num_hidden"), 4);
  const Node* w = FindNode(s, "fc1_weight");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->attrs.at("__lr_mult__"), "1.2");
  EXPECT_EQ(w->attrs.at("weight_lr_mult"), "1.2");  // on a variable it stays as written (as MXNet)

  // Rule 2: the missing aux states exist, carrying a copy of the op's attributes;
  // rule 3: with BatchNorm's initialisers.
  const Node* bn = FindNode(s, "bn");
  ASSERT_NE(bn, nullptr);
  ASSERT_EQ(bn->inputs.size(), 5u);
  const Node* mean = bn->inputs[3].node.get();
  EXPECT_EQ(mean->name, "bn_moving_mean");
  EXPECT_EQ(mean->attrs.at("__init__"), "[\"zero\", {}]");
  EXPECT_EQ(mean->attrs.at("fix_gamma"), "True");
  EXPECT_EQ(mean->attrs.at("__ctx_group__"), "stage2");
  EXPECT_EQ(bn->inputs[4].node->attrs.at("__init__"), "[\"one\", {}]");

  // Saved as a current file, which loads back to the same text.
  std::string saved = SaveSymbolJSON(s);
  EXPECT_NE(saved.find("\"mxnet_version\": [\"int\", 10901]"), std::string::npos);
  EXPECT_NE(saved.find("\"name\": \"bn_moving_var\""), std::string::npos);
  EXPECT_EQ(SaveSymbolJSON(LoadSymbolJSON(saved, "resaved.json")), saved);
}

TEST(SymbolJSON, OldVersionKeysAndEntriesAreAcceptedInCurrentFiles) {
  // "attr" after "attrs" replaces it wholesale; "param" only fills gaps.
  const char* text = R"({"nodes": [
      {"op": "null", "name": "x", "inputs": []},
      {"op": "Activation", "name": "act", "attrs": {"act_type": "tanh", "junk": "1"},
       "attr": {"act_type": "relu"}, "param": {"act_type": "sigmoid"}, "inputs": [[0, 0]],
       "backward_source_id": -1}],
    "arg_nodes": [0], "heads": [[1, 0]],
    "attrs": {"mxnet_version": ["int", 10901]}})";
  Symbol s = LoadSymbolJSON(text, "t.json");
  std::map<std::string, std::string> want = {{"act_type", "relu"}};
  EXPECT_EQ(s.outputs[0].node->attrs, want);
}

// ---------------------------------------------------------------------------------------------
// The printer (FORMATS.md B.7).

TEST(SymbolJSON, GraphAttrsAndControlDepsRoundTrip) {
  // is_np_shape is kept and written before mxnet_version, as MXNet did; a
  // control dependency is visited after the inputs.
  const std::string text = R"({
  "nodes": [
    {
      "op": "null", 
      "name": "x", 
      "inputs": []
    }, 
    {
      "op": "null", 
      "name": "y", 
      "inputs": []
    }, 
    {
      "op": "exp", 
      "name": "e", 
      "inputs": [[0, 0, 0]], 
      "control_deps": [1]
    }
  ], 
  "arg_nodes": [0, 1], 
  "node_row_ptr": [0, 1, 2, 3], 
  "heads": [[2, 0, 0]], 
  "attrs": {
    "is_np_shape": ["int", 1], 
    "mxnet_version": ["int", 10901]
  }
})";
  GraphAttrs attrs;
  Symbol s = LoadSymbolJSON(text, "np.json", &attrs);
  ASSERT_EQ(attrs.size(), 2u);
  EXPECT_EQ(attrs.at("is_np_shape").AsInt(), 1);
  EXPECT_EQ(SaveSymbolJSON(s, attrs), text) << FirstDifference(text, SaveSymbolJSON(s, attrs));
  // Without the extra attributes only the version is written, on one line.
  std::string plain = SaveSymbolJSON(s);
  EXPECT_NE(plain.find("\"attrs\": {\"mxnet_version\": [\"int\", 10901]}\n}"), std::string::npos);
}

TEST(SymbolJSON, GraphAttrListsUseDmlcLayout) {
  // Lists of strings (and shapes) are always multi-line in dmlc's writer; int
  // lists only past 10 items. A multi-line list inside the single-line pair
  // closes without a newline: dmlc decides that by the enclosing container.
  const std::string text = R"({"nodes": [{"op": "null", "name": "x", "inputs": []}], "arg_nodes": [0],
      "heads": [[0, 0, 0]], "attrs": {"names": ["list_str", ["a", "b"]], "dims": ["list_int", [1, 2]],
      "shapes": ["list_shape", [[2, 3]]], "mxnet_version": ["int", 10901]}})";
  GraphAttrs attrs;
  Symbol s = LoadSymbolJSON(text, "t.json", &attrs);
  ASSERT_EQ(attrs.size(), 4u);
  std::string saved = SaveSymbolJSON(s, attrs);
  const std::string want =
      "  \"attrs\": {\n"
      "    \"dims\": [\"list_int\", [1, 2]], \n"
      "    \"names\": [\"list_str\", [\n"
      "        \"a\", \n"
      "        \"b\"]], \n"
      "    \"shapes\": [\"list_shape\", [\n"
      "        [2, 3]]], \n"
      "    \"mxnet_version\": [\"int\", 10901]\n"
      "  }\n"
      "}";
  ASSERT_GE(saved.size(), want.size());
  EXPECT_EQ(saved.substr(saved.size() - want.size()), want) << saved;
  EXPECT_EQ(SaveSymbolJSON(LoadSymbolJSON(saved, "again.json", &attrs), attrs), saved);
}

TEST(SymbolJSON, PrinterEscapesFiveCharactersAndSplitsLongArrays) {
  // 11 inputs make a multi-line "inputs" array; \u escapes are written raw.
  std::string nodes, inputs, args;
  for (int i = 0; i < 11; ++i) {
    nodes += R"({"op": "null", "name": "v)" + std::to_string(i) + R"(", "inputs": []}, )";
    inputs += (i ? ", " : "") + std::string("[") + std::to_string(i) + ", 0, 0]";
    args += (i ? ", " : "") + std::to_string(i);
  }
  std::string text = R"({"nodes": [)" + nodes +
                     R"({"op": "add_n", "name": "q\"\\\t\r\n\u00fc\u0001\/", "attrs": {"num_args": "11"}, "inputs": [)" +
                     inputs + R"(]}], "arg_nodes": [)" + args + R"(], "heads": [[11, 0, 0]]})";
  Symbol s = LoadSymbolJSON(text, "t.json");
  EXPECT_EQ(s.outputs[0].node->name, "q\"\\\t\r\n\xc3\xbc\x01/");
  std::string saved = SaveSymbolJSON(s);
  EXPECT_NE(saved.find("\"name\": \"q\\\"\\\\\\t\\r\\n\xc3\xbc\x01/\""), std::string::npos) << saved;
  EXPECT_NE(saved.find("\"inputs\": [\n        [0, 0, 0], \n        [1, 0, 0], "), std::string::npos) << saved;
  EXPECT_NE(saved.find("[10, 0, 0]\n      ]\n    }\n  ], \n  \"arg_nodes\": [\n    0, \n"), std::string::npos)
      << saved;
  EXPECT_NE(saved.find("\"attrs\": {\"num_args\": \"11\"}, "), std::string::npos);
  EXPECT_EQ(saved.back(), '}');  // no final newline
  EXPECT_EQ(SaveSymbolJSON(LoadSymbolJSON(saved, "again.json")), saved);
}

// ---------------------------------------------------------------------------------------------
// Bad input: each class is a kIO weft::Error naming the source and the node.

// A current (1.9.1) file with a variable x and one more node; `extra_top`
// adds top-level keys (a repeated "attrs" replaces the version).
std::string OneOpGraph(const std::string& op_node, const std::string& extra_top = "") {
  return R"({"nodes": [{"op": "null", "name": "x", "inputs": []}, )" + op_node +
         R"(], "arg_nodes": [0], "heads": [[1, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]})" + extra_top +
         "}";
}

TEST(SymbolJSON, UnknownOperatorIsNamed) {
  std::string msg = LoadError(OneOpGraph(R"({"op": "NoSuchOp", "name": "mystery", "inputs": [[0, 0, 0]]})"));
  EXPECT_NE(msg.find("test.json"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'mystery'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("NoSuchOp"), std::string::npos) << msg;
}

TEST(SymbolJSON, BadEntriesAreNamed) {
  // Forward reference.
  std::string msg = LoadError(R"({"nodes": [{"op": "null", "name": "x", "inputs": []},
      {"op": "exp", "name": "e1", "inputs": [[2, 0, 0]]}, {"op": "exp", "name": "e2", "inputs": [[0, 0, 0]]}],
      "arg_nodes": [0], "heads": [[1, 0, 0]]})");
  EXPECT_NE(msg.find("'e1'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("does not come before"), std::string::npos) << msg;
  // Self reference.
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "selfish", "inputs": [[1, 0, 0]]})"));
  EXPECT_NE(msg.find("'selfish'"), std::string::npos) << msg;
  // Out of range.
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "far", "inputs": [[99, 0, 0]]})"));
  EXPECT_NE(msg.find("'far'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("99"), std::string::npos) << msg;
  // Output index beyond the source's outputs.
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "e", "inputs": [[0, 1, 0]]})"));
  EXPECT_NE(msg.find("'e'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("output 1 of node 0 ('x')"), std::string::npos) << msg;
  EXPECT_NO_THROW(LoadSymbolJSON(OneOpGraph(R"({"op": "exp", "name": "e", "inputs": [[0, 0, 0]]})"), "ok"));
  msg = LoadError(R"({"nodes": [{"op": "null", "name": "x", "inputs": []}], "arg_nodes": [0], "heads": [[0, 3, 0]]})");
  EXPECT_NE(msg.find("heads"), std::string::npos) << msg;
  // Malformed entries.
  for (const char* e : {"[0]", "[0, 0, 0, 0]", "[-1, 0, 0]", "[0, 0.5, 0]", "[\"0\", 0]", "{}", "0"}) {
    msg = LoadError(OneOpGraph(std::string(R"({"op": "exp", "name": "ent", "inputs": [)") + e + "]}"));
    EXPECT_NE(msg.find("'ent'"), std::string::npos) << e << ": " << msg;
  }
  // Control deps must point backwards.
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "cd", "inputs": [[0, 0, 0]], "control_deps": [1]})"));
  EXPECT_NE(msg.find("'cd'"), std::string::npos) << msg;
}

TEST(SymbolJSON, BadAttributesAreNamed) {
  std::string msg = LoadError(OneOpGraph(R"({"op": "Activation", "name": "act1", "attrs": {"act_type": "relu",
      "bogus": "1"}, "inputs": [[0, 0, 0]]})"));
  EXPECT_NE(msg.find("'act1'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bogus"), std::string::npos) << msg;
  msg = LoadError(OneOpGraph(R"({"op": "Activation", "name": "act2", "attrs": {"act_type": "wiggle"},
      "inputs": [[0, 0, 0]]})"));
  EXPECT_NE(msg.find("'act2'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("wiggle"), std::string::npos) << msg;
  msg = LoadError(OneOpGraph(R"({"op": "Activation", "name": "act3", "attrs": {"act_type": 1},
      "inputs": [[0, 0, 0]]})"));
  EXPECT_NE(msg.find("'act3'"), std::string::npos) << msg;
  // Missing required parameter.
  msg = LoadError(OneOpGraph(R"({"op": "Activation", "name": "act4", "inputs": [[0, 0, 0]]})"));
  EXPECT_NE(msg.find("'act4'"), std::string::npos) << msg;
  // Wrong number of inputs.
  msg = LoadError(OneOpGraph(R"({"op": "elemwise_add", "name": "add1", "inputs": [[0, 0, 0]]})"));
  EXPECT_NE(msg.find("'add1'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("takes 2 inputs"), std::string::npos) << msg;
  // A variable with inputs.
  msg = LoadError(OneOpGraph(R"({"op": "null", "name": "v2", "inputs": [[0, 0, 0]]})"));
  EXPECT_NE(msg.find("'v2'"), std::string::npos) << msg;
}

TEST(SymbolJSON, UnknownAndMissingKeysAreErrors) {
  std::string msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "e", "inputs": [[0, 0, 0]]})", R"(, "extra": 1)"));
  EXPECT_NE(msg.find("unknown top-level key 'extra'"), std::string::npos) << msg;
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "keyed", "inputs": [[0, 0, 0]], "colour": "red"})"));
  EXPECT_NE(msg.find("'keyed'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown key 'colour'"), std::string::npos) << msg;
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "noin"})"));
  EXPECT_NE(msg.find("'noin'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'inputs'"), std::string::npos) << msg;
  msg = LoadError(OneOpGraph(R"({"name": "noop", "inputs": []})"));
  EXPECT_NE(msg.find("'noop'"), std::string::npos) << msg;
  msg = LoadError(R"({"nodes": [], "heads": []})");
  EXPECT_NE(msg.find("arg_nodes"), std::string::npos) << msg;
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "sg", "inputs": [[0, 0, 0]], "subgraphs": [{}]})"));
  EXPECT_NE(msg.find("'sg'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("subgraphs"), std::string::npos) << msg;
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "e", "inputs": [[0, 0, 0]]})",
                             R"(, "attrs": {"mxnet_version": ["float", 1]})"));
  EXPECT_NE(msg.find("unknown type 'float'"), std::string::npos) << msg;
  msg = LoadError(OneOpGraph(R"({"op": "exp", "name": "e", "inputs": [[0, 0, 0]]})",
                             R"(, "attrs": {"mxnet_version": ["str", "1.9.1"]})"));
  EXPECT_NE(msg.find("mxnet_version"), std::string::npos) << msg;
  msg = LoadError(R"({"nodes": [{"op": "null", "name": "x", "inputs": []}, {"op": "exp", "name": "e",
      "inputs": [[0, 0, 0]]}], "arg_nodes": [1], "heads": [[1, 0, 0]]})");
  EXPECT_NE(msg.find("not a variable"), std::string::npos) << msg;
  msg = LoadError("[]");
  EXPECT_NE(msg.find("top level"), std::string::npos) << msg;
}

TEST(SymbolJSON, InvalidJSONAndDeepNestingAreErrors) {
  for (const std::string& text :
       {std::string(""), std::string("{"), std::string("{\"nodes\": [}"), std::string(100000, '['),
        "{\"nodes\": " + std::string(5000, '[') + std::string(5000, ']') + "}", std::string("{} x"),
        std::string("{\"a\": tru}"), std::string("{\"a\": 01}"), std::string("{\"a\": \"\\q\"}"),
        std::string("{\"a\": \"\\ud800\"}"), std::string("\x00{}", 3)}) {
    try {
      LoadSymbolJSON(text, "bad.json");
      ADD_FAILURE() << "loaded: " << text.substr(0, 40);
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::kIO);
      EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
    }
  }
  std::string msg = LoadError(std::string(100000, '['));
  EXPECT_NE(msg.find("nesting deeper than 1000"), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------------------------
// The JSON reader itself.

TEST(JSONReader, ParsesValuesAndEscapes) {
  JSONValue v = ParseJSON(
      R"( {"s": "a\"b\\c\/d\b\f\n\r\t\u00e9\u20ac\ud83d\ude00", "n": -12.5e+3, "i": 42, "t": true,
           "f": false, "z": null, "a": [1, [2, {}], []], "dup": 1, "dup": 2} )",
      "mem");
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(v.Find("s")->text, "a\"b\\c/d\b\f\n\r\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  EXPECT_TRUE(v.Find("n")->is_number());
  EXPECT_FALSE(v.Find("n")->is_integer());
  EXPECT_EQ(v.Find("n")->text, "-12.5e+3");
  int64_t i = 0;
  EXPECT_TRUE(v.Find("i")->GetInt64(&i));
  EXPECT_EQ(i, 42);
  EXPECT_TRUE(v.Find("t")->boolean);
  EXPECT_TRUE(v.Find("f")->is_bool());
  EXPECT_FALSE(v.Find("f")->boolean);
  EXPECT_TRUE(v.Find("z")->is_null());
  EXPECT_EQ(v.Find("a")->items.size(), 3u);
  EXPECT_EQ(v.Find("a")->items[1].items[1].kind, JSONValue::Kind::kObject);
  EXPECT_EQ(v.Find("dup")->text, "2");  // the last one
  EXPECT_EQ(v.members.size(), 9u);
  EXPECT_EQ(v.Find("i")->offset, std::string(R"( {"s": "a\"b\\c\/d\b\f\n\r\t\u00e9\u20ac\ud83d\ude00", "n": -12.5e+3, "i": )").size());
  uint32_t u = 0;
  EXPECT_FALSE(ParseJSON("-1", "mem").GetUInt32(&u));
  EXPECT_FALSE(ParseJSON("4294967296", "mem").GetUInt32(&u));
  EXPECT_TRUE(ParseJSON("4294967295", "mem").GetUInt32(&u));
  EXPECT_EQ(u, 4294967295u);
  // Raw control characters in strings are accepted (MXNet writes them so).
  EXPECT_EQ(ParseJSON("\"a\x01\tb\"", "mem").text, "a\x01\tb");
}

TEST(JSONReader, ErrorsGiveTheByteOffset) {
  std::string msg = ErrorOf([] { ParseJSON("[1, 2,, 3]", "src.json"); });
  EXPECT_NE(msg.find("src.json: invalid JSON at byte 6"), std::string::npos) << msg;
  for (const char* bad : {"", "[", "]", "{\"a\"}", "{\"a\" 1}", "{a: 1}", "[1,]", "{\"a\": 1,}", "-", "1.", "1e",
                          "+1", ".5", "0x10", "NaN", "\"abc", "\"\\u12\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "nul",
                          "[1] [2]", "'a'"}) {
    try {
      ParseJSON(bad, "src.json");
      ADD_FAILURE() << "parsed: " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::kIO);
      EXPECT_NE(std::string(e.what()).find("at byte"), std::string::npos) << e.what();
    }
  }
  JSONReadOptions shallow;
  shallow.max_depth = 3;
  EXPECT_NO_THROW(ParseJSON("[[[1]]]", "mem", shallow));
  EXPECT_THROW(ParseJSON("[[[[1]]]]", "mem", shallow), Error);
}

}  // namespace
}  // namespace weft
