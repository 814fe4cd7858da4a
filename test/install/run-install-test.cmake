# The rifl-install test (cmake -P; arguments from cmake/standalone-extras.cmake):
#  1. cmake --install the module's build tree into a scratch prefix;
#  2. check that nothing was installed outside the prefix (install_manifest.txt)
#     and the installed layout (library, headers with rifl-module.h, package);
#     and that <prefix>/<data dir> holds exactly the source tree's data/*.cdf,
#     byte for byte;
#  3. configure and build test/install/ against the prefix only
#     (CMAKE_PREFIX_PATH=prefix, find_package(ns3-rifl)) and run the program,
#     requiring its "... OK" line and both shipped CDFs loaded by name from
#     <prefix>/<data dir> (working directory outside the source tree,
#     RIFL_DATA_DIR unset);
#  4. with the installed data directory moved away, loading a CDF by name must
#     fail, naming the file and the places searched: <prefix>/<data dir> and
#     never the source tree (which still holds data/*.cdf, so any fallback to
#     it would be seen); with RIFL_DATA_DIR pointing at the moved directory it
#     loads from there (the override);
#  5. with bindings: import the installed ns3rifl package with
#     PYTHONPATH=<prefix>/<python dir> and call one binding.
# Inputs: RIFL_BUILD_DIR RIFL_SOURCE_DIR RIFL_WORK_DIR RIFL_GENERATOR
#         RIFL_CXX_COMPILER RIFL_CXX_LAUNCHER RIFL_PYTHON_DIR RIFL_WITH_PYTHON
#         RIFL_DATA_INSTALL_DIR

set(prefix ${RIFL_WORK_DIR}/prefix)
set(consumer ${RIFL_WORK_DIR}/consumer)
file(REMOVE_RECURSE ${prefix} ${RIFL_WORK_DIR}/moved-data)
file(MAKE_DIRECTORY ${RIFL_WORK_DIR})

# Every command runs in RIFL_WORK_DIR (in the build tree: no data/ there).
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${RIFL_WORK_DIR})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "FAIL ${what} (exit ${rc}):\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
  message(STATUS "PASS ${what}")
endfunction()

# run_fails(what code ...): the command must exit with this code.
function(run_fails what code)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${RIFL_WORK_DIR})
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "FAIL ${what}: exit ${rc}, expected ${code}:\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
  message(STATUS "PASS ${what}")
endfunction()

run("cmake --install into ${prefix}" ${CMAKE_COMMAND} --install ${RIFL_BUILD_DIR} --prefix ${prefix})

# Everything went under the prefix (install_manifest.txt lists what was installed).
file(STRINGS ${RIFL_BUILD_DIR}/install_manifest.txt _manifest)
list(LENGTH _manifest _n_installed)
foreach(f ${_manifest})
  string(FIND "${f}" "${prefix}/" _at)
  if(NOT _at EQUAL 0)
    message(FATAL_ERROR "FAIL installed outside the prefix: ${f}")
  endif()
endforeach()
message(STATUS "PASS all ${_n_installed} installed files are under the prefix")

foreach(f include/ns3/rifl-module.h include/ns3/rifl-helper.h include/ns3/rifl-check.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "FAIL installed file missing: ${f}")
  endif()
endforeach()
file(GLOB_RECURSE _libs ${prefix}/lib*/libns3-rifl.so*)
file(GLOB_RECURSE _cfg ${prefix}/*/ns3-rifl-config.cmake)
if(NOT _libs OR NOT _cfg)
  message(FATAL_ERROR "FAIL library (${_libs}) or package config (${_cfg}) not installed")
endif()
# Every header rifl-module.h includes is installed next to it.
file(STRINGS ${prefix}/include/ns3/rifl-module.h _incs REGEX "^#include ")
list(LENGTH _incs _n)
foreach(_l ${_incs})
  string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" _h "${_l}")
  if(NOT EXISTS ${prefix}/include/ns3/${_h})
    message(FATAL_ERROR "FAIL rifl-module.h includes ${_h}, which is not installed")
  endif()
endforeach()
message(STATUS "PASS installed: ${_libs}, ${_n} headers in rifl-module.h, ${_cfg}")

# The data directory holds exactly the source tree's CDFs, identical, and the
# manifest lists each of them.
if(NOT RIFL_DATA_INSTALL_DIR OR IS_ABSOLUTE "${RIFL_DATA_INSTALL_DIR}")
  message(FATAL_ERROR "FAIL RIFL_DATA_INSTALL_DIR must be relative to the prefix: "
                      "'${RIFL_DATA_INSTALL_DIR}'")
endif()
set(datadir ${prefix}/${RIFL_DATA_INSTALL_DIR})
file(GLOB _want RELATIVE ${RIFL_SOURCE_DIR}/data ${RIFL_SOURCE_DIR}/data/*.cdf)
file(GLOB _have RELATIVE ${datadir} ${datadir}/*)
list(SORT _want)
list(SORT _have)
if(NOT _want OR NOT _have STREQUAL _want)
  message(FATAL_ERROR "FAIL ${datadir} holds [${_have}], expected [${_want}]")
endif()
foreach(f ${_want})
  file(SHA256 ${RIFL_SOURCE_DIR}/data/${f} _a)
  file(SHA256 ${datadir}/${f} _b)
  list(FIND _manifest ${datadir}/${f} _in)
  if(NOT _a STREQUAL _b OR _in EQUAL -1)
    message(FATAL_ERROR "FAIL ${datadir}/${f} differs from data/${f} or is not in the manifest")
  endif()
endforeach()
list(JOIN _want ", " _wantText)
message(STATUS "PASS ${datadir} holds exactly ${_wantText}")

set(_launcher "")
if(RIFL_CXX_LAUNCHER)
  set(_launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${RIFL_CXX_LAUNCHER})
endif()
run("configure test/install against the prefix"
    ${CMAKE_COMMAND} -S ${RIFL_SOURCE_DIR}/test/install -B ${consumer} -G ${RIFL_GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${RIFL_CXX_COMPILER} ${_launcher}
    -DCMAKE_PREFIX_PATH=${prefix} -Dns3-rifl_DIR= --fresh)
string(REGEX MATCH "ns3-rifl [^\n]* from [^\n]*" _found "${run_out}")
message(STATUS "${_found}")
string(FIND "${_found}" "${prefix}/" _at)
if(NOT _at GREATER -1)
  message(FATAL_ERROR "FAIL find_package(ns3-rifl) did not take the scratch prefix: ${_found}")
endif()
run("build test/install" ${CMAKE_COMMAND} --build ${consumer})
set(_noenv ${CMAKE_COMMAND} -E env --unset=RIFL_DATA_DIR)
run("run rifl-install-consumer" ${_noenv} ${consumer}/rifl-install-consumer)
message(STATUS "${run_out}")
if(NOT run_out MATCHES "delivered 200/200 packets, 0 bad, [^\n]*: OK")
  message(FATAL_ERROR "FAIL unexpected output of rifl-install-consumer")
endif()
# Both CDFs by name, from the installed data directory, with their published means.
foreach(_cdf "web-search: 12 points, mean 1665831" "data-mining: 9 points, mean 7470236")
  string(REGEX MATCH "^[a-z-]+" _name "${_cdf}")
  string(FIND "${run_out}" "cdf ${_cdf} bytes, from ${datadir}/${_name}.cdf\n" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "FAIL the installed library did not load ${_name} from ${datadir}")
  endif()
endforeach()
message(STATUS "PASS both CDFs loaded by name from ${datadir}")

# The installed library does not fall back to the source tree: with the data
# directory moved away, the name is not found, and the message names the
# file and the installed location, not the source tree.
file(RENAME ${datadir} ${RIFL_WORK_DIR}/moved-data)
run_fails("rifl-install-consumer without the installed data fails" 2 ${_noenv}
          ${consumer}/rifl-install-consumer cdf)
file(RENAME ${RIFL_WORK_DIR}/moved-data ${datadir})
message(STATUS "${run_out}")
string(FIND "${run_out}" "web-search.cdf was not found; searched $RIFL_DATA_DIR (unset), ${datadir}, "
            _at_msg)
string(FIND "${run_out}" "${RIFL_SOURCE_DIR}/data" _at_src)
if(_at_msg EQUAL -1 OR NOT _at_src EQUAL -1)
  message(FATAL_ERROR "FAIL the not-found message does not name the installed data directory "
                      "alone (or names the source tree)")
endif()
message(STATUS "PASS not found without the installed data; the source tree is never searched")
# $RIFL_DATA_DIR overrides the installed directory.
file(COPY ${datadir}/ DESTINATION ${RIFL_WORK_DIR}/moved-data)
run("rifl-install-consumer with RIFL_DATA_DIR" ${CMAKE_COMMAND} -E env
    RIFL_DATA_DIR=${RIFL_WORK_DIR}/moved-data ${consumer}/rifl-install-consumer cdf)
file(REMOVE_RECURSE ${RIFL_WORK_DIR}/moved-data)
string(FIND "${run_out}" "from ${RIFL_WORK_DIR}/moved-data/data-mining.cdf" _at)
if(_at EQUAL -1)
  message(FATAL_ERROR "FAIL RIFL_DATA_DIR did not override the installed directory:\n${run_out}")
endif()
message(STATUS "PASS RIFL_DATA_DIR overrides the installed data directory")

if(RIFL_WITH_PYTHON AND NOT RIFL_PYTHON_DIR)
  message(FATAL_ERROR "FAIL the bindings are built but no Python install directory was set")
endif()
if(RIFL_PYTHON_DIR)
  file(GLOB _pyext ${prefix}/${RIFL_PYTHON_DIR}/ns3rifl/_core*.so)
  if(NOT _pyext OR NOT EXISTS ${prefix}/${RIFL_PYTHON_DIR}/ns3rifl/__init__.py)
    message(FATAL_ERROR "FAIL ns3rifl not installed in ${prefix}/${RIFL_PYTHON_DIR}/ns3rifl")
  endif()
  # Lines, not ';': run() passes its arguments on as a CMake list.
  string(CONCAT _pycode "import ns3rifl\n" "p = ns3rifl.__file__\n"
                "assert p.startswith('${prefix}/'), p\n"
                "print('ns3rifl from', p, 'RIFL256 payload bits', ns3rifl.rifl_payload_bits(256))\n")
  run("import the installed ns3rifl" ${CMAKE_COMMAND} -E env
      PYTHONPATH=${prefix}/${RIFL_PYTHON_DIR} /usr/bin/python3 -c "${_pycode}")
  message(STATUS "${run_out}")
  if(NOT run_out MATCHES "ns3rifl from ${prefix}/")
    message(FATAL_ERROR "FAIL the installed ns3rifl did not report itself")
  endif()
endif()
message(STATUS "rifl-install: all checks passed")
