// Reads configuration from environment variables (WEFT_ENGINE, WEFT_MEM_POOL, ...).
#pragma once
#include <cstdlib>
#include <string>

namespace weft {

inline std::string GetEnv(const char* name, const std::string& def) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : def;
}
inline int GetEnvInt(const char* name, int def) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : def;
}

}  // namespace weft
