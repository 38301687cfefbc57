# Note [Unity build]
#   The core build has a budget (6 minutes on 2 cores, CI's clean build). About
#   400 small .cc files each paid the same fixed cost (the precompiled header,
#   the registry's templates, code generation of the same inline functions):
#   compiled one by one, core/op/shape's 19 files took 17.6 CPU-s, as one unity
#   file 8.3 s. So the .cc files of each source folder are compiled together,
#   in groups of at most WEFT_UNITY_GROUP_SIZE (CMake's UNITY_BUILD_MODE GROUP).
#   A file stays on its own when
#     - it is one of the heaviest translation units (WEFT_UNITY_ALONE): alone it
#       compiles in parallel with the groups instead of lengthening one;
#     - it declares a name that a neighbour in its folder declares too
#       (WEFT_UNITY_COLLIDES): a file-local helper of the same name in two
#       files is legal C++, but not in one translation unit;
#     - it has compile options of its own (the BLAS files, the .cu kernels
#       compiled as C++, the CUDA host files): CMake keeps those out itself.
#   A new file that collides with a neighbour breaks the build with
#   "redefinition of ..." naming both files: rename the helper, or list the
#   file below. Each group's name is its folder, so an error names the folder.
#   -DWEFT_UNITY_BUILD=OFF compiles every file on its own (quicker incremental
#   rebuilds of one file while working on it).
option(WEFT_UNITY_BUILD "Compile each source folder's .cc files as a few unity translation units (Note [Unity build])" ON)
set(WEFT_UNITY_GROUP_SIZE 8 CACHE STRING "Most .cc files in one unity translation unit")

set(WEFT_UNITY_ALONE
    core/op/elemwise/elemwise_cpu.cc core/op/elemwise/binary_cpu.cc core/op/reduce/reduce_cpu.cc
    core/op/act/activation_cpu.cc core/op/custom/custom.cc)

set(WEFT_UNITY_COLLIDES
    capi/src/c_api_subgraph.cc
    core/engine/threaded_engine.cc
    core/op/layer/deconvolution.cc core/op/layer/fully_connected.cc
    core/op/spatial/pooling.cc core/op/spatial/pooling_dnnl.cc
    core/op/elemwise/broadcast_cpu.cc core/op/elemwise/contrib_pointwise.cc
    core/op/index/indexing_backward.cc core/op/index/indexing_cpu.cc
    core/op/loss/kl_sparse_reg.cc core/op/loss/svm_output.cc
    core/op/norm/l2_normalization.cc
    core/op/optim/optim_single.cc core/op/optim/reset_arrays.cc
    core/op/random/sample_ops.cc
    core/op/seq/rnn_cpu.cc core/op/seq/sequence_reverse.cc
    core/op/spatial/bilinear_resize.cc core/op/spatial/deformable_psroi.cc core/op/spatial/psroi_pooling.cc
    core/op/spatial/roi_align.cc core/op/spatial/roi_pooling.cc core/op/spatial/sampler_cpu.cc)

# Assigns UNITY_GROUP to the .cc files among SOURCES (paths absolute or
# relative to the project) and turns the unity build on for TARGET.
function(weft_unity_build target)
  if(NOT WEFT_UNITY_BUILD)
    return()
  endif()
  set(count_per_dir "")
  foreach(src ${ARGN})
    if(NOT src MATCHES "\\.cc$" OR src MATCHES "_cuda\\.cc$")
      continue()
    endif()
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${src})
    if(rel IN_LIST WEFT_UNITY_ALONE OR rel IN_LIST WEFT_UNITY_COLLIDES)
      continue()
    endif()
    get_filename_component(dir ${rel} DIRECTORY)
    string(MAKE_C_IDENTIFIER ${dir} key)
    if(NOT DEFINED n_${key})
      set(n_${key} 0)
    endif()
    math(EXPR part "${n_${key}} / ${WEFT_UNITY_GROUP_SIZE}")
    math(EXPR n_${key} "${n_${key}} + 1")
    set_property(SOURCE ${src} TARGET_DIRECTORY ${target} PROPERTY UNITY_GROUP "${key}_${part}")
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
