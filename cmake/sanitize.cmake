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
# clang-14 crashes (in the PCH reader's diagnostics) on a file whose options or
# definitions differ from the precompiled header's (the BLAS files' definitions,
# op_util.cc's -fopenmp): every such file of weft_objs compiles without it.
function(weft_sanitize_skip_pch_on_own_options)
  get_target_property(srcs weft_objs SOURCES)
  foreach(src ${srcs})
    get_source_file_property(opts ${src} COMPILE_OPTIONS)
    get_source_file_property(defs ${src} COMPILE_DEFINITIONS)
    if(opts OR defs)
      set_property(SOURCE ${src} PROPERTY SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
cmake_language(DEFER CALL weft_sanitize_skip_pch_on_own_options)
