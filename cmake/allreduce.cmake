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
endif()
