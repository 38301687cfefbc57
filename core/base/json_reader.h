// A small, strict JSON reader (RFC 8259) into a value tree, for model files
// (the symbol JSON, FORMATS.md part B) and other small texts. No third-party
// code: the dependency-free predict build reuses it.
//
// Strict except for one thing MXNet's writer needs: raw control characters
// inside strings are accepted, because MXNet escapes only five characters and
// writes every other byte as it is (FORMATS.md B.7). Bytes are not checked for
// valid UTF-8 either, for the same reason. Errors throw weft::Error(kIO) whose
// message names the source and the byte offset.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace weft {

struct JSONValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Kind kind = Kind::kNull;
  size_t offset = 0;  // byte offset of the value's first character in the text
  bool boolean = false;
  std::string text;  // kString: the decoded string; kNumber: the number as written
  std::vector<JSONValue> items;  // kArray
  // kObject: members in text order; duplicate keys are kept, callers decide.
  std::vector<std::pair<std::string, JSONValue>> members;

  bool is_null() const { return kind == Kind::kNull; }
  bool is_bool() const { return kind == Kind::kBool; }
  bool is_number() const { return kind == Kind::kNumber; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_object() const { return kind == Kind::kObject; }
  // A number written without fraction or exponent ("12", "-3").
  bool is_integer() const;
  // The integer value when is_integer() and it fits; false otherwise.
  bool GetInt64(int64_t* out) const;
  bool GetUInt32(uint32_t* out) const;
  // The last member named `key`, or nullptr.
  const JSONValue* Find(const std::string& key) const;

  // "null", "true", "a number", "a string", "an array", "an object".
  static const char* KindName(Kind k);
};

struct JSONReadOptions {
  size_t max_depth = 1000;  // nesting deeper than this is an error, not a stack overflow
};

// Parses `text` (one value, surrounded only by whitespace). `source` names the
// file or buffer in error messages ("model-symbol.json: invalid JSON at byte 17: ...").
JSONValue ParseJSON(const std::string& text, const std::string& source, const JSONReadOptions& options = {});

}  // namespace weft
