#include "core/base/json_reader.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

#include "core/base/error.h"

namespace weft {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const std::string& source, const JSONReadOptions& opt)
      : s_(text), source_(source), opt_(opt) {}

  JSONValue ParseDocument() {
    SkipSpace();
    JSONValue v = ParseValue(0);
    SkipSpace();
    if (pos_ != s_.size()) Fail(pos_, "unexpected " + Describe(pos_) + " after the top-level value");
    return v;
  }

 private:
  [[noreturn]] void Fail(size_t at, const std::string& what) const {
    WEFT_THROW(kIO) << source_ << ": invalid JSON at byte " << at << ": " << what;
  }

  std::string Describe(size_t at) const {
    if (at >= s_.size()) return "end of input";
    unsigned char c = static_cast<unsigned char>(s_[at]);
    if (c >= 0x21 && c < 0x7f) return std::string("character '") + static_cast<char>(c) + "'";
    static const char* hex = "0123456789abcdef";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }

  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }

  void Expect(char c, const char* context) {
    if (pos_ >= s_.size() || s_[pos_] != c)
      Fail(pos_, std::string("expected '") + c + "' " + context + ", found " + Describe(pos_));
    ++pos_;
  }

  JSONValue ParseValue(size_t depth) {
    if (pos_ >= s_.size()) Fail(pos_, "expected a value, found end of input");
    JSONValue v;
    v.offset = pos_;
    char c = s_[pos_];
    switch (c) {
      case '{':
        if (depth >= opt_.max_depth) Fail(pos_, "nesting deeper than " + std::to_string(opt_.max_depth));
        ParseObject(&v, depth + 1);
        break;
      case '[':
        if (depth >= opt_.max_depth) Fail(pos_, "nesting deeper than " + std::to_string(opt_.max_depth));
        ParseArray(&v, depth + 1);
        break;
      case '"':
        v.kind = JSONValue::Kind::kString;
        v.text = ParseString();
        break;
      case 't': ParseLiteral("true", &v, JSONValue::Kind::kBool, true); break;
      case 'f': ParseLiteral("false", &v, JSONValue::Kind::kBool, false); break;
      case 'n': ParseLiteral("null", &v, JSONValue::Kind::kNull, false); break;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          ParseNumber(&v);
        } else {
          Fail(pos_, "expected a value, found " + Describe(pos_));
        }
    }
    return v;
  }

  void ParseLiteral(const char* word, JSONValue* v, JSONValue::Kind kind, bool b) {
    size_t start = pos_;
    for (const char* p = word; *p; ++p, ++pos_)
      if (pos_ >= s_.size() || s_[pos_] != *p) Fail(start, std::string("invalid literal (expected '") + word + "')");
    v->kind = kind;
    v->boolean = b;
  }

  void ParseObject(JSONValue* v, size_t depth) {
    v->kind = JSONValue::Kind::kObject;
    ++pos_;  // '{'
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"') Fail(pos_, "expected a string key, found " + Describe(pos_));
      std::string key = ParseString();
      SkipSpace();
      Expect(':', "after an object key");
      SkipSpace();
      JSONValue item = ParseValue(depth);
      v->members.emplace_back(std::move(key), std::move(item));
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      Expect('}', "or ',' in an object");
      return;
    }
  }

  void ParseArray(JSONValue* v, size_t depth) {
    v->kind = JSONValue::Kind::kArray;
    ++pos_;  // '['
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      SkipSpace();
      v->items.push_back(ParseValue(depth));
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      Expect(']', "or ',' in an array");
      return;
    }
  }

  // Reads 4 hex digits at pos_.
  uint32_t ParseHex4() {
    uint32_t u = 0;
    for (int i = 0; i < 4; ++i, ++pos_) {
      if (pos_ >= s_.size()) Fail(pos_, "truncated \\u escape");
      char c = s_[pos_];
      u <<= 4;
      if (c >= '0' && c <= '9') u |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') u |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') u |= static_cast<uint32_t>(c - 'A' + 10);
      else Fail(pos_, "invalid hex digit in \\u escape: " + Describe(pos_));
    }
    return u;
  }

  static void AppendUTF8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::string ParseString() {
    size_t start = pos_;
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) Fail(start, "unterminated string");
      char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c != '\\') {
        // Raw bytes, control characters included (MXNet writes them unescaped).
        out.push_back(c);
        ++pos_;
        continue;
      }
      size_t esc = pos_;
      ++pos_;
      if (pos_ >= s_.size()) Fail(start, "unterminated string");
      char e = s_[pos_++];
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          uint32_t cp = ParseHex4();
          // A NUL cannot cross the C ABI: names would come back cut short and
          // a re-saved file would not load again (issue 22).
          if (cp == 0) Fail(esc, "\\u0000 (NUL) in a string: names and attribute values cannot hold it");
          if (cp >= 0xDC00 && cp <= 0xDFFF) Fail(esc, "unpaired low surrogate in \\u escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (pos_ + 1 >= s_.size() || s_[pos_] != '\\' || s_[pos_ + 1] != 'u')
              Fail(esc, "high surrogate in \\u escape not followed by a low surrogate");
            pos_ += 2;
            uint32_t lo = ParseHex4();
            if (lo < 0xDC00 || lo > 0xDFFF) Fail(esc, "high surrogate in \\u escape not followed by a low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          AppendUTF8(cp, &out);
          break;
        }
        default:
          Fail(esc, "invalid escape \\" + (e >= 0x21 && e < 0x7f ? std::string(1, e) : Describe(esc + 1)));
      }
    }
  }

  void ParseNumber(JSONValue* v) {
    size_t start = pos_;
    auto digit = [&](size_t i) { return i < s_.size() && s_[i] >= '0' && s_[i] <= '9'; };
    if (s_[pos_] == '-') ++pos_;
    if (!digit(pos_)) Fail(start, "invalid number: expected a digit after '-'");
    if (s_[pos_] == '0') {
      ++pos_;
      if (digit(pos_)) Fail(start, "invalid number: leading zero");
    } else {
      while (digit(pos_)) ++pos_;
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!digit(pos_)) Fail(start, "invalid number: expected a digit after '.'");
      while (digit(pos_)) ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digit(pos_)) Fail(start, "invalid number: expected a digit in the exponent");
      while (digit(pos_)) ++pos_;
    }
    v->kind = JSONValue::Kind::kNumber;
    v->text = s_.substr(start, pos_ - start);
  }

  const std::string& s_;
  const std::string& source_;
  const JSONReadOptions& opt_;
  size_t pos_ = 0;
};

}  // namespace

bool JSONValue::is_integer() const {
  return kind == Kind::kNumber && text.find_first_of(".eE") == std::string::npos;
}

bool JSONValue::GetInt64(int64_t* out) const {
  if (!is_integer()) return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || end == text.c_str() || *end != '\0') return false;
  *out = static_cast<int64_t>(v);
  return true;
}

bool JSONValue::GetUInt32(uint32_t* out) const {
  int64_t v = 0;
  if (!GetInt64(&v) || v < 0 || v > static_cast<int64_t>(std::numeric_limits<uint32_t>::max())) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

const JSONValue* JSONValue::Find(const std::string& key) const {
  const JSONValue* found = nullptr;
  for (const auto& m : members)
    if (m.first == key) found = &m.second;
  return found;
}

const char* JSONValue::KindName(Kind k) {
  switch (k) {
    case Kind::kNull: return "null";
    case Kind::kBool: return "a boolean";
    case Kind::kNumber: return "a number";
    case Kind::kString: return "a string";
    case Kind::kArray: return "an array";
    case Kind::kObject: return "an object";
  }
  return "?";
}

JSONValue ParseJSON(const std::string& text, const std::string& source, const JSONReadOptions& options) {
  return Parser(text, source, options).ParseDocument();
}

}  // namespace weft
