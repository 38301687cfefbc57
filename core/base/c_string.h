// The one rule for strings that cross the C ABI (Note [C strings]).
//
// Note [C strings]
// Every name, key, attribute value and text crosses the C ABI as a C string,
// so a NUL inside one would cut it short without a word: `Variable("p\0q")`
// became a variable named "p", and "a" and "a\0zzz" two arguments both named
// "a". The C side cannot see past a NUL, so each binding finds it where the
// string still has its length (Python's c_str in weft/base.py, Go's cString in
// bindings/go/cstring.go; R refuses embedded NULs in its own strings) and
// hands the bytes to weft_check_string, whose message comes from here; the
// loaders (symbol JSON's \u0000, .params names) and the JSON writer apply the
// same rule to what they read and write. One rule, one message, everywhere.
#pragma once
#include <cstddef>
#include <string>

namespace weft {

// Throws kInvalidArgument naming `what`, the string (printable, cut at 64
// bytes) and the offset of its first NUL, if data[0, size) holds a NUL.
void CheckCString(const char* data, size_t size, const char* what);
inline void CheckCString(const std::string& s, const char* what) { CheckCString(s.data(), s.size(), what); }

}  // namespace weft
