/* The expectation macro the plain-C tests share: a failed condition is
 * printed with the library's last error and counted; main returns non-zero
 * when g_failures is. Include once per test program. */
#ifndef WEFT_TESTS_C_EXPECT_H_
#define WEFT_TESTS_C_EXPECT_H_
#include <stdio.h>

#include "weft/c_api.h"

static int g_failures = 0;
#define EXPECT(cond)                                                                                  \
  do {                                                                                                \
    if (!(cond)) {                                                                                    \
      fprintf(stderr, "%s:%d: expectation failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
              weft_last_error());                                                                     \
      g_failures++;                                                                                   \
    }                                                                                                 \
  } while (0)

#endif /* WEFT_TESTS_C_EXPECT_H_ */
