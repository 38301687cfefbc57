// A device: type + index, like c10::Device. cpu(0) and cpu(1) are distinct
// devices so multi-device code is testable without GPUs.
#pragma once
#include <cstdint>
#include <string>

namespace weft {

// Values are MXNet's dev_type codes (FORMATS.md A.3), also used by the C ABI.
enum class DevType : int32_t { kCPU = 1, kGPU = 2, kCPUPinned = 3, kCPUShared = 5 };

struct Context {
  DevType dev_type = DevType::kCPU;
  int32_t dev_id = 0;

  static Context CPU(int id = 0) { return Context{DevType::kCPU, id}; }
  static Context GPU(int id = 0) { return Context{DevType::kGPU, id}; }
  bool is_cpu() const { return dev_type != DevType::kGPU; }
  bool operator==(const Context& o) const { return dev_type == o.dev_type && dev_id == o.dev_id; }
  bool operator!=(const Context& o) const { return !(*this == o); }
  bool operator<(const Context& o) const {
    return dev_type != o.dev_type ? dev_type < o.dev_type : dev_id < o.dev_id;
  }
  // "cpu(0)", "gpu(1)", "cpu_pinned(0)"
  std::string ToString() const;
  // Validates a (dev_type, dev_id) pair coming from outside; throws kInvalidArgument.
  static Context Make(int dev_type, int dev_id);
  // Parses "cpu(0)", "cpu:1", "gpu(0)", "cpu"; throws kInvalidArgument.
  static Context Parse(const std::string& s);
};

}  // namespace weft
