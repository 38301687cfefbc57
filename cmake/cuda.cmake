# CUDA build (-DWEFT_USE_CUDA=ON): the toolkit's runtime, and cuBLAS.
#
# The machines have nvcc and cudart (CUDA 13) but no cuBLAS, so cuBLAS comes
# from PyPI's wheel `nvidia-cublas` (13.x, headers and libcublas.so.13 under
# site-packages/nvidia/cu13); scripts/setup.sh installs it. WEFT_CUBLAS_ROOT
# overrides where it is looked for (a toolkit with cuBLAS works too).
find_package(CUDAToolkit REQUIRED)
if(NOT WEFT_CUBLAS_ROOT)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    execute_process(
      COMMAND ${Python3_EXECUTABLE} -c
              "import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], 'cu13'))"
      OUTPUT_VARIABLE WEFT_CUBLAS_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
endif()
find_path(WEFT_CUBLAS_INCLUDE_DIR cublas_v2.h
          HINTS ${WEFT_CUBLAS_ROOT}/include ${CUDAToolkit_INCLUDE_DIRS})
find_library(WEFT_CUBLAS_LIBRARY NAMES cublas libcublas.so.13
             HINTS ${WEFT_CUBLAS_ROOT}/lib ${CUDAToolkit_LIBRARY_DIR})
if(NOT WEFT_CUBLAS_INCLUDE_DIR OR NOT WEFT_CUBLAS_LIBRARY)
  message(FATAL_ERROR "weft: cuBLAS not found; `pip install nvidia-cublas` (CUDA 13) or set WEFT_CUBLAS_ROOT")
endif()
message(STATUS "weft: CUDA ${CUDAToolkit_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}, cuBLAS ${WEFT_CUBLAS_LIBRARY}")
