# The allreduce KVStore's MPI plugin (plugins/mpi): libweft_mpi.so, next to
# libweft.so, built when CMake finds an MPI (Debian libopenmpi-dev). libweft.so
# itself never links MPI: it dlopens the plugin when a store of type
# 'allreduce' is created (Note [MPI as a plugin] in docs/ARCHITECTURE.md).
if(NOT WEFT_PORTABLE)
  find_package(MPI COMPONENTS C QUIET)
  if(MPI_C_FOUND)
    add_library(weft_mpi SHARED plugins/mpi/weft_mpi.c)
    target_link_libraries(weft_mpi PRIVATE MPI::MPI_C)
    set_target_properties(weft_mpi PROPERTIES C_VISIBILITY_PRESET default)
    add_dependencies(weft weft_mpi)  # `ninja weft` builds the plugin too
    install(TARGETS weft_mpi LIBRARY DESTINATION lib)
  else()
    message(STATUS "weft: no MPI found; the 'allreduce' KVStore will refuse to start (apt install libopenmpi-dev)")
  endif()
  target_link_libraries(weft PRIVATE ${CMAKE_DL_LIBS})

  # The CUDA build's NCCL plugin (plugins/nccl): libweft_nccl.so, against the
  # nvidia-nccl-cu13 wheel (nvidia/nccl/{include,lib} in site-packages;
  # scripts/setup.sh installs it) or WEFT_NCCL_ROOT.
  if(WEFT_USE_CUDA)
    if(NOT WEFT_NCCL_ROOT)
      find_package(Python3 COMPONENTS Interpreter)
      if(Python3_Interpreter_FOUND)
        execute_process(
          COMMAND ${Python3_EXECUTABLE} -c
                  "import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], 'nccl'))"
          OUTPUT_VARIABLE WEFT_NCCL_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      endif()
    endif()
    find_path(WEFT_NCCL_INCLUDE_DIR nccl.h HINTS ${WEFT_NCCL_ROOT}/include)
    find_library(WEFT_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${WEFT_NCCL_ROOT}/lib)
    if(WEFT_NCCL_INCLUDE_DIR AND WEFT_NCCL_LIBRARY)
      add_library(weft_nccl SHARED plugins/nccl/weft_nccl.cu)
      target_include_directories(weft_nccl PRIVATE ${WEFT_NCCL_INCLUDE_DIR})
      target_link_libraries(weft_nccl PRIVATE ${WEFT_NCCL_LIBRARY} CUDA::cudart)
      add_dependencies(weft weft_nccl)
      install(TARGETS weft_nccl LIBRARY DESTINATION lib)
      message(STATUS "weft: NCCL plugin against ${WEFT_NCCL_LIBRARY}")
    else()
      message(STATUS "weft: NCCL not found (pip install nvidia-nccl-cu13 or set WEFT_NCCL_ROOT): no libweft_nccl.so")
    endif()
  endif()
endif()
