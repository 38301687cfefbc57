# The C++ ImageRecordIter's decoders (core/io/, Note [Image decoders]):
# libjpeg-turbo's TurboJPEG API (Debian libturbojpeg0-dev) and libpng
# (libpng-dev). Included by the top CMakeLists.txt after the weft library
# targets exist; the dependency-free predictor (cmake/predict.cmake) leaves
# core/io/ and capi/src/c_api_image_iter.cc out and never links them.
# Only image_decode.cc includes their headers, so only it gets their compile
# flags (the rest of the core keeps its command lines, and its ccache hits);
# whatever links weft_objs' objects links the libraries.
if(NOT WEFT_PORTABLE)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(WEFT_IMAGE_CODECS REQUIRED libturbojpeg libpng)
  set_source_files_properties(core/io/image_decode.cc TARGET_DIRECTORY weft_objs PROPERTIES
                              INCLUDE_DIRECTORIES "${WEFT_IMAGE_CODECS_INCLUDE_DIRS}")
  target_link_directories(weft_objs INTERFACE ${WEFT_IMAGE_CODECS_LIBRARY_DIRS})
  target_link_libraries(weft_objs INTERFACE ${WEFT_IMAGE_CODECS_LIBRARIES})
  target_link_directories(weft PRIVATE ${WEFT_IMAGE_CODECS_LIBRARY_DIRS})
  target_link_libraries(weft PRIVATE ${WEFT_IMAGE_CODECS_LIBRARIES})
endif()
