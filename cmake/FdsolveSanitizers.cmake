# Sanitizer and fuzzing builds of the host code (CUDA off), used by tools/run-tests.sh:
#   -DFDSOLVE_SANITIZE=address,undefined   every target instrumented (the test suite under ASan
#                                          and UBSan; any UBSan finding aborts)
#   -DFDSOLVE_BUILD_FUZZERS=ON             clang only: adds tests/fuzz (libFuzzer), instruments
#                                          every target for coverage, address and undefined
set(FDSOLVE_SANITIZE "" CACHE STRING "Sanitizers for every host target, e.g. address,undefined")
option(FDSOLVE_BUILD_FUZZERS "Build the libFuzzer targets of tests/fuzz (clang)" OFF)

if(FDSOLVE_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "FDSOLVE_BUILD_FUZZERS needs clang (libFuzzer is part of it): "
                        "configure with CC=clang CXX=clang++")
  endif()
  if(NOT FDSOLVE_SANITIZE)
    set(FDSOLVE_SANITIZE address,undefined)
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)
endif()

if(FDSOLVE_SANITIZE)
  if(FDSOLVE_ENABLE_CUDA)
    message(FATAL_ERROR "FDSOLVE_SANITIZE instruments host code only: add -DFDSOLVE_ENABLE_CUDA=OFF")
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${FDSOLVE_SANITIZE}>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>)
  add_link_options(-fsanitize=${FDSOLVE_SANITIZE})
endif()
