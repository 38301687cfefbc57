#include "core/base/c_string.h"

#include <cstring>

#include "core/base/error.h"

namespace weft {

namespace {

// The string as Python would print it: printable ASCII as is, the rest \xNN.
std::string Printable(const char* data, size_t size) {
  constexpr size_t kShown = 64;
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size && i < kShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(data[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (size > kShown) out += "...";
  return out;
}

}  // namespace

void CheckCString(const char* data, size_t size, const char* what) {
  if (size == 0) return;
  const void* nul = std::memchr(data, 0, size);
  if (nul == nullptr) return;
  const size_t at = static_cast<size_t>(static_cast<const char*>(nul) - data);
  WEFT_THROW(kInvalidArgument) << (what != nullptr && *what != '\0' ? what : "string") << " '"
                               << Printable(data, size) << "' holds a NUL byte at offset " << at
                               << ": names and texts cross the C ABI as C strings, so it would be cut short";
}

}  // namespace weft
