// Errors: one exception type carrying a status code, so the C ABI can map
// codes to binding error classes without parsing message text (docs/STYLE.md).
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace weft {

// Values match enum weft_status in capi/include/weft/c_api.h.
enum class Status : int {
  kOk = 0,
  kInvalidArgument = 1,
  kShape = 2,
  kDType = 3,
  kOutOfMemory = 4,
  kNotFound = 5,
  kEngine = 6,
  kIO = 7,
  kInternal = 8,
};

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& msg) : std::runtime_error(msg), status_(status) {}
  Status status() const { return status_; }

 private:
  Status status_;
};

// Collects a message with operator<< and throws it when destroyed.
class ErrorBuilder {
 public:
  explicit ErrorBuilder(Status s) : status_(s) {}
  template <typename T>
  ErrorBuilder& operator<<(const T& v) {
    os_ << v;
    return *this;
  }
  [[noreturn]] ~ErrorBuilder() noexcept(false) { throw Error(status_, os_.str()); }

 private:
  Status status_;
  std::ostringstream os_;
};

}  // namespace weft

// WEFT_CHECK(cond, kShape) << "message"; throws weft::Error when cond is false.
#define WEFT_CHECK(cond, code) \
  if (cond) {                  \
  } else                       \
    ::weft::ErrorBuilder(::weft::Status::code)
#define WEFT_THROW(code) ::weft::ErrorBuilder(::weft::Status::code)
