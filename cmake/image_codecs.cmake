# The C++ ImageRecordIter's decoders (core/io/, Note [Image decoders]):
# libjpeg-turbo's libjpeg API (Debian libjpeg62-turbo-dev) and libpng
# (libpng-dev). Included by the top CMakeLists.txt after the weft library
# targets exist; the dependency-free predictor (cmake/predict.cmake) leaves
# core/io/ and capi/src/c_api_image_iter.cc out and never links them.
# Only jpeg_decode.cc and png_decode.cc include their headers, so only they get
# their compile flags (the rest of the core keeps its command lines, and its ccache hits);
# whatever links weft_objs' objects links the libraries.
if(NOT WEFT_PORTABLE)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(WEFT_IMAGE_CODECS REQUIRED libjpeg libpng)
  set_source_files_properties(core/io/jpeg_decode.cc core/io/png_decode.cc TARGET_DIRECTORY weft_objs PROPERTIES
                              INCLUDE_DIRECTORIES "${WEFT_IMAGE_CODECS_INCLUDE_DIRS}")
  target_link_directories(weft_objs INTERFACE ${WEFT_IMAGE_CODECS_LIBRARY_DIRS})
  target_link_libraries(weft_objs INTERFACE ${WEFT_IMAGE_CODECS_LIBRARIES})
  target_link_directories(weft PRIVATE ${WEFT_IMAGE_CODECS_LIBRARY_DIRS})
  target_link_libraries(weft PRIVATE ${WEFT_IMAGE_CODECS_LIBRARIES})
endif()
