#include "core/graph/np_node_attrs.h"

#include <cstdlib>

#include "core/base/error.h"

namespace weft {
namespace json_numpy {

bool IsNone(const NodeAttrs& attrs, const std::string& key) {
  auto it = attrs.find(key);
  return it == attrs.end() || it->second == "None";
}

std::vector<long long> ReadInts(const std::string& op, const std::string& key, const std::string& text) {
  std::vector<long long> out;
  std::string cur;
  auto flush = [&]() {
    size_t b = cur.find_first_not_of(' '), e = cur.find_last_not_of(' ');
    if (b == std::string::npos) { cur.clear(); return; }
    std::string t = cur.substr(b, e - b + 1);
    char* end = nullptr;
    long long v = std::strtoll(t.c_str(), &end, 10);
    WEFT_CHECK(end != t.c_str() && *end == '\0', kIO)
        << op << ": attribute '" << key << "' = '" << text << "' is not a tuple of integers";
    out.push_back(v);
    cur.clear();
  };
  for (char c : text) {
    if (c == '(' || c == ')' || c == '[' || c == ']' || c == 'L') continue;
    if (c == ',') flush(); else cur += c;
  }
  flush();
  return out;
}

std::string WriteInts(const std::vector<long long>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

}  // namespace json_numpy
}  // namespace weft
