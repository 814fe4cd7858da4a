# RIFL_FUZZ: libFuzzer targets for the module's decoders, engines and text
# parsers (fuzz/*.cc), standalone builds with clang++ only.
#
#   cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
#         -DCMAKE_CXX_COMPILER=clang++ -DRIFL_SANITIZE=ON -DRIFL_FUZZ=ON
#   cmake --build build-san --target rifl-fuzz-all
#   tools/run-fuzz all 30          # or: tools/run-fuzz rifl-frame 600
#
# The module library is compiled with -fsanitize=fuzzer-no-link, so libFuzzer's
# coverage (cov:, ft:) covers the module's code, not only the target file; each
# target links -fsanitize=fuzzer. The test runner and the examples are not
# instrumented for coverage (they link the library; the sanitizer runtime
# provides the coverage callbacks' default definitions; without RIFL_SANITIZE they link
# -fsanitize=fuzzer-no-link for them).
# With RIFL_SANITIZE=ON (the intended use) the targets also run under ASan and
# UBSan. Targets are written to <build>/fuzz/rifl-fuzz-<name>; each also gets a
# ctest entry (labels quick;fuzz) that replays its seed corpus fuzz/corpus/<name>
# once (-runs=0), so every reproducer kept there is a regression test.

option(RIFL_FUZZ "Build the libFuzzer targets in fuzz/ (clang++ only)" OFF)
option(RIFL_FUZZ_TRACE_CMP
       "Instrument the module library's comparisons for libFuzzer's value profile (OFF: edge coverage only, about twice as fast on the engine targets)"
       ON)

set(RIFL_FUZZ_FLAGS "")
set(RIFL_FUZZ_LIBNAME rifl)
set(RIFL_FUZZ_TARGETS
    rifl-frame
    direct-link-flit
    rifl-engine
    direct-link-engine
    error-list
    scenario-attributes
    line-records
    flow-size-cdf
)
if(RIFL_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "RIFL_FUZZ needs clang++ (-DCMAKE_CXX_COMPILER=clang++); "
                        "have ${CMAKE_CXX_COMPILER_ID}")
  endif()
  set(RIFL_FUZZ_FLAGS -fsanitize=fuzzer-no-link)
  if(NOT RIFL_FUZZ_TRACE_CMP)
    list(APPEND RIFL_FUZZ_FLAGS -fno-sanitize-coverage=trace-cmp)
  endif()
  if(NOT RIFL_SANITIZE)
    message(STATUS "RIFL_FUZZ without RIFL_SANITIZE: no ASan/UBSan in the fuzz targets")
  endif()
endif()

# rifl_add_fuzz_targets(): the fuzz targets, their aggregate target
# rifl-fuzz-all and their corpus-replay tests (after the library exists).
function(rifl_add_fuzz_targets)
  if(NOT RIFL_FUZZ)
    return()
  endif()
  # Coverage for libFuzzer in the module library only (the test runner and the
  # examples stay free of it, and fast).
  target_compile_options(lib${RIFL_FUZZ_LIBNAME} PRIVATE ${RIFL_FUZZ_FLAGS})
  if(NOT RIFL_SANITIZE)
    # Without ASan no runtime defines the coverage callbacks the library calls:
    # everything that links the library links libFuzzer's no-main runtime.
    target_link_options(lib${RIFL_FUZZ_LIBNAME} INTERFACE -fsanitize=fuzzer-no-link)
  endif()
  add_custom_target(rifl-fuzz-all)
  foreach(_t ${RIFL_FUZZ_TARGETS})
    add_executable(rifl-fuzz-${_t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/${_t}.cc)
    rifl_apply_common(rifl-fuzz-${_t})
    target_compile_options(rifl-fuzz-${_t} PRIVATE -fsanitize=fuzzer)
    target_link_options(rifl-fuzz-${_t} PRIVATE -fsanitize=fuzzer)
    target_include_directories(rifl-fuzz-${_t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
    target_link_libraries(
      rifl-fuzz-${_t} PRIVATE -Wl,--no-as-needed ${librifl} ${libcore} ${libnetwork}
                              -Wl,--as-needed
    )
    set_target_properties(rifl-fuzz-${_t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                                     ${CMAKE_BINARY_DIR}/fuzz)
    add_dependencies(rifl-fuzz-all rifl-fuzz-${_t})
    add_test(NAME fuzz-corpus-${_t}
             COMMAND rifl-fuzz-${_t} -runs=0 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${_t})
    set_tests_properties(fuzz-corpus-${_t} PROPERTIES LABELS "quick;fuzz" TIMEOUT 600)
  endforeach()
endfunction()
