# The dependency-free predictor (issue 6 part 2), configured with
# -DWEFT_PORTABLE=ON: the top CMakeLists.txt includes this file first thing and
# returns right after, so none of the full build's rules (BLAS, oneDNN, ZeroMQ,
# GoogleTest, tests, benchmarks) apply. In the normal build (the OPTIONAL
# include after the `weft` target) it adds nothing.
#
# The build needs only a C++17 compiler and the C library's threads: GEMM
# falls back to core/op/dense/portable_gemm.cc, convolution, pooling and
# normalisation to the portable kernels (no WEFT_USE_DNNL), and the KVStore is
# left out. It makes
#   weft_predict            a static library of the inference path (link it
#                           with --whole-archive: operators register themselves
#                           from static initialisers);
#   weft-predict-portable   the command line, tools/predict_portable/main.cc
#                           (-DWEFT_PREDICT_STATIC=ON links it -static, as
#                           scripts/build_predict_aarch64.sh does).
# Cross-compiling: -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake.
if(NOT WEFT_PORTABLE)
  return()
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_C_STANDARD 99)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # As the full build: plain kernel loops over two pointers vectorise too.
  set(CMAKE_CXX_FLAGS_RELEASE "-O2 -fvect-cost-model=cheap")
else()
  set(CMAKE_CXX_FLAGS_RELEASE "-O2")
endif()
add_compile_options(-Wall -Wextra -Wno-unused-parameter)
option(WEFT_PREDICT_STATIC "Link weft-predict-portable with -static" OFF)
find_package(Threads REQUIRED)  # the C library's threads, not a dependency

# Inference needs the engine, storage, NDArray, graph passes, executor and the
# operators (they register themselves, so all of them come along). Left out:
# the KVStore (ZeroMQ), oneDNN glue (compiled empty without WEFT_USE_DNNL
# anyway), data iterators, hybridize's CachedOp and the optimizer updates
# (training only), and every C ABI file but the predict API and the
# error/misc one it needs (weft_last_error).
file(GLOB_RECURSE WEFT_PREDICT_SRCS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/core/*.cc)
list(FILTER WEFT_PREDICT_SRCS EXCLUDE REGEX "/core/(kvstore|io)/")
list(FILTER WEFT_PREDICT_SRCS EXCLUDE REGEX "/core/op/[a-z]+/[a-z_]*_dnnl\\.cc$")
list(FILTER WEFT_PREDICT_SRCS EXCLUDE REGEX "/core/op/common/dnnl_common\\.cc$")
list(FILTER WEFT_PREDICT_SRCS EXCLUDE REGEX "/core/executor/cached_op\\.cc$")
# The control-flow kernels run subgraphs through CachedOp::RunInline: without
# them a _foreach/_while_loop/_cond node says this build cannot run it.
list(FILTER WEFT_PREDICT_SRCS EXCLUDE REGEX "/core/executor/subgraph_kernels\\.cc$")
list(FILTER WEFT_PREDICT_SRCS EXCLUDE REGEX "/core/op/optim/")
# The linalg family calls LAPACK/BLAS (core/op/linalg/lapack_cpu.cc), which the
# predictor does not link; inference graphs do not use it.
list(FILTER WEFT_PREDICT_SRCS EXCLUDE REGEX "/core/op/linalg/")
# GPU: only the device layer's host emulation (the engine and storage call
# it; it reports no device). No GPU kernels, no GEMM.
list(FILTER WEFT_PREDICT_SRCS EXCLUDE REGEX "/core/gpu/(blas_[a-z]*|[a-z_]*_cuda)\\.cc$")
list(APPEND WEFT_PREDICT_SRCS ${PROJECT_SOURCE_DIR}/capi/src/c_predict_api.cc
                              ${PROJECT_SOURCE_DIR}/capi/src/c_api_misc.cc)

add_library(weft_predict_objs OBJECT ${WEFT_PREDICT_SRCS})
include(${PROJECT_SOURCE_DIR}/cmake/unity.cmake)  # as the full build (Note [Unity build])
weft_unity_build(weft_predict_objs ${WEFT_PREDICT_SRCS})
target_include_directories(weft_predict_objs PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/capi/include)
target_compile_definitions(weft_predict_objs PUBLIC WEFT_PORTABLE=1
                           PRIVATE WEFT_VERSION_STRING="${PROJECT_VERSION}" WEFT_BUILDING_LIB=1)
target_link_libraries(weft_predict_objs PUBLIC Threads::Threads)
# The full build's precompiled header (core/precompiled.h says why): the
# cross-compiled predictor is a CI step of its own, about 300 s without it.
target_precompile_headers(weft_predict_objs PRIVATE ${PROJECT_SOURCE_DIR}/core/precompiled.h)

add_library(weft_predict STATIC $<TARGET_OBJECTS:weft_predict_objs>)
target_include_directories(weft_predict PUBLIC ${PROJECT_SOURCE_DIR}/capi/include)
target_link_libraries(weft_predict PUBLIC Threads::Threads)

# The command line links the objects themselves, so every operator's
# registration is kept.
add_executable(weft-predict-portable ${PROJECT_SOURCE_DIR}/tools/predict_portable/main.cc)
target_link_libraries(weft-predict-portable PRIVATE weft_predict_objs)
if(WEFT_PREDICT_STATIC)
  target_link_options(weft-predict-portable PRIVATE -static)
endif()
