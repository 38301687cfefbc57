// GoogleTest and the core headers every C++ test includes, compiled once for
// weft_cpp_tests (tests/CMakeLists.txt): gtest's templates dominated each test
// file's parse time. A test still includes what it uses.
#pragma once

#include <gtest/gtest.h>

#include "core/precompiled.h"
