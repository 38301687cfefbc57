// The headers nearly every translation unit of libweft.so includes, compiled
// once per build (CMake target_precompile_headers, see CMakeLists.txt): parsing
// them was about a third of each operator file's compile time, and the core
// build has a budget (6 minutes on 2 cores). Only widely used, stable headers
// belong here; a file still includes what it uses, so removing a line here
// never breaks a build.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/error.h"  // IWYU pragma: keep (the precompiled header exists to bring it)
#include "core/graph/grad_builder.h"  // IWYU pragma: keep (the precompiled header exists to bring it)
#include "core/op/axis_util.h"  // IWYU pragma: keep (the precompiled header exists to bring it)
#include "core/opdef/op_def.h"  // IWYU pragma: keep (the precompiled header exists to bring it)
#include "core/op/op_util.h"  // IWYU pragma: keep (the precompiled header exists to bring it)
