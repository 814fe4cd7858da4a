# RIFL_SANITIZE: build the module, its test runner and the examples with
# AddressSanitizer + UndefinedBehaviorSanitizer (standalone builds; in an ns-3
# tree use ns-3's own NS3_SANITIZE).
#
#   cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
#         -DCMAKE_CXX_COMPILER=clang++ -DRIFL_SANITIZE=ON [-DRIFL_FUZZ=ON]
#   ctest --test-dir build-san -L quick -LE python
#
# Works with g++ (libasan/libubsan) and clang++ (compiler-rt). UBSan does not
# recover (-fno-sanitize-recover=undefined): the first report aborts the run.
#
# Only the module is instrumented; Debian's libns3*.so and libstdc++ are not.
# What that mixed instrumentation needs at run time (RIFL_SANITIZER_ENV, put
# on every ctest test of this directory; export the same for manual runs):
#  * detect_leaks=0: test cases that end without Simulator::Destroy() leave
#    events in ns-3's scheduler (e.g. rifl-net-device's device-configuration
#    case: the event RiflChannel::Attach schedules), which LeakSanitizer reports
#    at exit (80 bytes in 2 allocations); these are not leaks of the module;
#  * detect_odr_violation=0 is *not* needed (no global is defined both in the
#    module and in an ns-3 library), nor detect_container_overflow=0 (libstdc++
#    annotates containers only with _GLIBCXX_SANITIZE_VECTOR, which nothing
#    here defines): both stay at their defaults, and no such report came
#    from any quick suite (clang 14, Debian's g++-built ns-3 3.37);
#  * UBSan: print_stacktrace=1, halt_on_error=1.
# The Python bindings are not built (the extension would need the sanitizer
# runtime preloaded into /usr/bin/python3): RIFL_ENABLE_PYTHON is shadowed
# by OFF (the cache keeps its value).

option(RIFL_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)

set(RIFL_SANITIZE_FLAGS "")
set(RIFL_SANITIZER_ENV "")
if(RIFL_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "RIFL_SANITIZE needs g++ or clang++ (have ${CMAKE_CXX_COMPILER_ID})")
  endif()
  set(RIFL_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                          -fno-omit-frame-pointer)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=address,undefined")
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=address,undefined)
  check_cxx_source_compiles("int main() { return 0; }" RIFL_HAVE_SANITIZERS)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT RIFL_HAVE_SANITIZERS)
    message(FATAL_ERROR "RIFL_SANITIZE: ${CMAKE_CXX_COMPILER} cannot build and link "
                        "-fsanitize=address,undefined (clang++ needs libclang-rt-14-dev, "
                        "g++ needs libasan/libubsan)")
  endif()
  set(RIFL_SANITIZER_ENV
      "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1"
      "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  # A normal variable shadows the option (policy CMP0077) without touching the cache.
  set(RIFL_ENABLE_PYTHON OFF)
  message(STATUS "RIFL_SANITIZE: Python bindings not built")
  message(STATUS "RIFL_SANITIZE: ${RIFL_SANITIZE_FLAGS}")
endif()

# rifl_sanitizer_test_environment(): give every ctest test of the current
# directory the sanitizer run-time options (called at the end of the top-level
# CMakeLists.txt, after every test exists).
function(rifl_sanitizer_test_environment)
  if(NOT RIFL_SANITIZE)
    return()
  endif()
  get_property(_tests DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY TESTS)
  foreach(_t ${_tests})
    set_property(TEST ${_t} APPEND PROPERTY ENVIRONMENT ${RIFL_SANITIZER_ENV})
  endforeach()
endfunction()
