# ctest rifl-cmake-pgo-options (cmake -P): configuring the module with a bad
# RIFL_PGO setting must fail at configure time with a message that names the
# setting and what it accepts.
#
#   cmake -DSOURCE_DIR=<module source> -DWORK_DIR=<scratch dir> -P check-pgo-options.cmake

foreach(_var SOURCE_DIR WORK_DIR)
  if(NOT ${_var})
    message(FATAL_ERROR "check-pgo-options: -D${_var}=... is required")
  endif()
endforeach()

# expect_refused(<name> <regex> <cmake args...>): a fresh configuration with the
# arguments fails, and its output matches the regex.
function(expect_refused name regex)
  set(_dir ${WORK_DIR}/${name})
  file(REMOVE_RECURSE ${_dir})
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${_dir} -DRIFL_ENABLE_PYTHON=OFF ${ARGN}
    RESULT_VARIABLE _rc
    OUTPUT_VARIABLE _out
    ERROR_VARIABLE _err
  )
  file(REMOVE_RECURSE ${_dir})
  if(_rc EQUAL 0)
    message(FATAL_ERROR "${name}: configuring with ${ARGN} succeeded; it must fail")
  endif()
  # CMake wraps a long message over indented lines: compare with the white space
  # collapsed.
  string(REGEX REPLACE "[ \t\r\n]+" " " _all "${_out}${_err}")
  if(NOT "${_all}" MATCHES "${regex}")
    message(FATAL_ERROR "${name}: configuring with ${ARGN} failed without the message "
                        "'${regex}':\n${_out}${_err}")
  endif()
  message(STATUS "${name}: refused as expected")
endfunction()

expect_refused(bad-value "RIFL_PGO must be OFF, GENERATE or USE, not 'sometimes'"
               -DRIFL_PGO=sometimes)
file(MAKE_DIRECTORY ${WORK_DIR}/empty-profiles)
expect_refused(use-without-profiles "RIFL_PGO=USE: no profiles \\(.gcda files\\) in RIFL_PGO_DIR"
               -DRIFL_PGO=USE -DRIFL_PGO_DIR=${WORK_DIR}/empty-profiles)
expect_refused(with-sanitizers "RIFL_PGO=GENERATE and RIFL_SANITIZE=ON do not go together"
               -DRIFL_PGO=GENERATE -DRIFL_SANITIZE=ON)
file(REMOVE_RECURSE ${WORK_DIR}/empty-profiles)
