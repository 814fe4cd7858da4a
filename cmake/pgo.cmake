# Profile-guided optimisation of the module's library, libns3-rifl (GCC only).
#
#   -DRIFL_PGO=GENERATE  the library is built instrumented; a program using it
#                        writes its profiles to RIFL_PGO_DIR when it exits
#   -DRIFL_PGO=USE       the library is compiled with the profiles in RIFL_PGO_DIR
#   -DRIFL_PGO=OFF       (default) neither
#
# tools/pgo-build runs the two steps and a training in between. Included by
# cmake/build-lib-standalone.cmake, after cmake/sanitize.cmake; the ctest test
# rifl-cmake-pgo-options checks that bad values are refused at configure time.

# With the profiles the compiler lays out and inlines the code a packet runs
# through as the training ran it (hot paths together, cold ones apart). Only the
# library: the tests, the examples and the benchmark programs are compiled as
# before.
set(RIFL_PGO
    OFF
    CACHE STRING
          "Profile-guided optimisation of libns3-rifl: OFF, GENERATE or USE (see tools/pgo-build)"
)
set_property(CACHE RIFL_PGO PROPERTY STRINGS OFF GENERATE USE)
set(RIFL_PGO_DIR
    ${CMAKE_BINARY_DIR}/pgo-profiles
    CACHE PATH "Where RIFL_PGO=GENERATE writes its profiles and RIFL_PGO=USE reads them"
)
set(RIFL_PGO_OPTIONS "")
set(RIFL_PGO_LINK_OPTIONS "")
if(NOT RIFL_PGO MATCHES "^(OFF|GENERATE|USE)$")
  message(FATAL_ERROR "RIFL_PGO must be OFF, GENERATE or USE, not '${RIFL_PGO}'")
endif()
if(NOT RIFL_PGO STREQUAL "OFF")
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "RIFL_PGO=${RIFL_PGO} needs g++ (have ${CMAKE_CXX_COMPILER_ID}): "
                        "its profiles are GCC's .gcda files")
  endif()
  if(RIFL_SANITIZE)
    message(FATAL_ERROR "RIFL_PGO=${RIFL_PGO} and RIFL_SANITIZE=ON do not go together")
  endif()
  message(STATUS "RIFL_PGO: ${RIFL_PGO} (profiles in ${RIFL_PGO_DIR})")
endif()
if(RIFL_PGO STREQUAL "GENERATE")
  # One thread runs a simulation: counters need no atomic updates.
  set(RIFL_PGO_OPTIONS -fprofile-generate -fprofile-update=single -fprofile-dir=${RIFL_PGO_DIR})
  set(RIFL_PGO_LINK_OPTIONS -fprofile-generate)
elseif(RIFL_PGO STREQUAL "USE")
  file(GLOB_RECURSE _gcda ${RIFL_PGO_DIR}/*.gcda)
  if(NOT _gcda)
    message(FATAL_ERROR "RIFL_PGO=USE: no profiles (.gcda files) in RIFL_PGO_DIR=${RIFL_PGO_DIR}; "
                        "build with RIFL_PGO=GENERATE and run the training first (tools/pgo-build)")
  endif()
  # Functions the training did not run are optimised as without profiles
  # (-fprofile-partial-training), not for size; a source file without a profile
  # is not an error, and a function edited since the training is a warning (its
  # profile is not used): run tools/pgo-build again after editing the module.
  set(RIFL_PGO_OPTIONS -fprofile-use -fprofile-partial-training -fprofile-dir=${RIFL_PGO_DIR}
                       -Wno-missing-profile -Wno-error=coverage-mismatch)
endif()

# The settings above refuse bad values at configure time: checked by ctest.
add_test(NAME rifl-cmake-pgo-options
         COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
                 -DWORK_DIR=${CMAKE_BINARY_DIR}/pgo-options-check -P
                 ${CMAKE_CURRENT_LIST_DIR}/check-pgo-options.cmake
)
set_tests_properties(rifl-cmake-pgo-options PROPERTIES LABELS quick TIMEOUT 300)
