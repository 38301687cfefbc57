#include "core/base/context.h"

#include <cstring>

#include "core/base/error.h"

namespace weft {

std::string Context::ToString() const {
  const char* name = "cpu";
  switch (dev_type) {
    case DevType::kCPU: name = "cpu"; break;
    case DevType::kGPU: name = "gpu"; break;
    case DevType::kCPUPinned: name = "cpu_pinned"; break;
    case DevType::kCPUShared: name = "cpu_shared"; break;
  }
  return std::string(name) + "(" + std::to_string(dev_id) + ")";
}

Context Context::Make(int dev_type, int dev_id) {
  WEFT_CHECK(dev_type == 1 || dev_type == 2 || dev_type == 3 || dev_type == 5, kInvalidArgument)
      << "unknown device type " << dev_type << " (expected 1 cpu, 2 gpu, 3 cpu_pinned, 5 cpu_shared)";
  WEFT_CHECK(dev_id >= 0 && dev_id < 1024, kInvalidArgument) << "device id " << dev_id << " out of range";
  // Whether gpu(i) exists is checked where it is used (storage, the GPU device
  // layer), so contexts can be named and compared on any machine.
  return Context{static_cast<DevType>(dev_type), dev_id};
}

Context Context::Parse(const std::string& s) {
  static const struct { const char* name; int type; } kNames[] = {
      {"cpu_pinned", 3}, {"cpu_shared", 5}, {"cpu", 1}, {"gpu", 2}};
  for (const auto& n : kNames) {
    size_t len = std::strlen(n.name);
    if (s.compare(0, len, n.name) != 0) continue;
    std::string rest = s.substr(len);
    if (rest.empty()) return Make(n.type, 0);
    char open = rest[0];
    std::string digits = rest.substr(1);
    if (open == '(' && !digits.empty() && digits.back() == ')') digits.pop_back();
    else if (open != ':') break;
    WEFT_CHECK(!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos,
               kInvalidArgument)
        << "cannot parse context '" << s << "' (expected e.g. cpu(0) or gpu(1))";
    return Make(n.type, std::stoi(digits));
  }
  WEFT_THROW(kInvalidArgument) << "cannot parse context '" << s << "' (expected e.g. cpu(0) or gpu(1))";
}

}  // namespace weft
