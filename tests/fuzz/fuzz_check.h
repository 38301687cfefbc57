// What a fuzz target asserts beyond "no sanitizer report": a failed call
// must leave a message, and an invariant that breaks aborts with its reason
// (libFuzzer then saves the input as a crash).
#pragma once
#include <cstdio>
#include <cstdlib>

#include "weft/c_api.h"

#define FUZZ_CHECK(cond, ...)                                           \
  do {                                                                  \
    if (!(cond)) {                                                      \
      std::fprintf(stderr, "fuzz invariant failed: %s: ", #cond);       \
      std::fprintf(stderr, __VA_ARGS__);                                \
      std::fprintf(stderr, "\n");                                       \
      std::abort();                                                     \
    }                                                                   \
  } while (0)

// A nonzero status from the C ABI must come with a message saying why.
inline bool FuzzFailed(int status) {
  if (status == 0) return false;
  const char* why = weft_last_error();
  FUZZ_CHECK(why != nullptr && why[0] != '\0', "a call failed with status %d and no message", status);
  return true;
}
