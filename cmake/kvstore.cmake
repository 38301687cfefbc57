# The distributed KVStore's transport: ZeroMQ (Debian libzmq3-dev) and
# OpenSSL's libcrypto (libssl-dev). Included
# by the top CMakeLists.txt after the weft library targets exist. The portable
# build (WEFT_PORTABLE) leaves core/kvstore/** and capi/src/c_api_kvstore.cc
# out of the sources and never reaches this code.
if(NOT WEFT_PORTABLE)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(ZMQ REQUIRED IMPORTED_TARGET libzmq)
  target_link_libraries(weft_objs PUBLIC PkgConfig::ZMQ)
  target_link_libraries(weft PRIVATE PkgConfig::ZMQ)
  # HMAC-SHA256 of every PS message (Note [PS authentication] in
  # core/kvstore/ps_auth.h): OpenSSL's libcrypto (Debian libssl-dev).
  pkg_check_modules(CRYPTO REQUIRED IMPORTED_TARGET libcrypto)
  target_link_libraries(weft_objs PUBLIC PkgConfig::CRYPTO)
  target_link_libraries(weft PRIVATE PkgConfig::CRYPTO)

  # Raw-ZeroMQ baseline for benchmarks/kvstore.py: the same bytes moved by
  # libzmq alone (DEALER/ROUTER request-reply), so the KVStore's overhead is
  # measured in one run against the bare transport.
  if(WEFT_BUILD_BENCHMARKS OR WEFT_BUILD_KVSTORE_BENCH)
    add_executable(bench_zmq_pingpong benchmarks/zmq_pingpong.cc)
    target_link_libraries(bench_zmq_pingpong PRIVATE PkgConfig::ZMQ Threads::Threads)
  endif()
endif()
