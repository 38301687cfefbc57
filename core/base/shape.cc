#include "core/base/shape.h"

#include <cctype>
#include <cstdlib>

#include "core/base/error.h"

namespace weft {

std::string Shape::ToString() const {
  if (!known_) return "?";
  std::string s = "(";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(dims_[i]);
  }
  if (dims_.size() == 1) s += ",";
  return s + ")";
}

void Shape::ThrowSizeOverflow() const {
  WEFT_THROW(kShape) << "shape " << ToString() << " has more elements than int64 can count (its product "
                     << "overflows; Note [Checked shape arithmetic])";
}

Shape Shape::Parse(const std::string& text) {
  std::vector<int64_t> dims;
  size_t i = 0, n = text.size();
  auto skip = [&] {
    while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip();
  char close = 0;
  if (i < n && (text[i] == '(' || text[i] == '[')) {
    close = text[i] == '(' ? ')' : ']';
    ++i;
  }
  while (true) {
    skip();
    if (i >= n) break;
    if (close && text[i] == close) {
      ++i;
      close = 0;
      break;
    }
    const char* start = text.c_str() + i;
    char* end = nullptr;
    long long v = std::strtoll(start, &end, 10);
    WEFT_CHECK(end != start, kInvalidArgument) << "cannot parse shape '" << text << "'";
    dims.push_back(v);
    i += static_cast<size_t>(end - start);
    skip();
    if (i < n && text[i] == ',') ++i;
  }
  skip();
  WEFT_CHECK(close == 0 && i == n, kInvalidArgument) << "cannot parse shape '" << text << "'";
  return Shape(std::move(dims));
}

}  // namespace weft
