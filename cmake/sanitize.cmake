# Loaded by scripts/build_asan.sh (CMAKE_PROJECT_INCLUDE; Note [One
# sanitizer build] there): what the ASan + UBSan build leaves out, to keep it
# within CI's time. The GPU kernels compiled as C++ for the host emulation
# (core/op/**/*.cu, run only under WEFT_GPU_EMULATE) are built plain at -O0:
# the sanitizer build checks the CPU paths that files and requests reach; the
# emulated GPU path keeps the normal build's tests. Without the precompiled
# header: it was built with the sanitizers and -O1, which clang would refuse.
function(weft_sanitize_skip_gpu_kernels)
  file(GLOB_RECURSE kernels ${PROJECT_SOURCE_DIR}/core/op/*.cu)
  set_property(SOURCE ${kernels} APPEND PROPERTY COMPILE_OPTIONS -fno-sanitize=all -O0)
  set_property(SOURCE ${kernels} PROPERTY SKIP_PRECOMPILE_HEADERS ON)
endfunction()
cmake_language(DEFER CALL weft_sanitize_skip_gpu_kernels)
# clang-14 crashes (in the PCH reader's diagnostics) on files whose compile
# definitions differ from the precompiled header's: the BLAS files
# (CMakeLists.txt's scipy-openblas32 block) compile without it.
set_property(SOURCE core/op/common/cpu_blas.cc core/op/dense/gemm_cpu.cc core/op/linalg/lapack_cpu.cc
             core/gpu/blas_emulated.cc capi/src/c_api_blas.cc PROPERTY SKIP_PRECOMPILE_HEADERS ON)
