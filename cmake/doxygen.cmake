# Doxygen documentation of the module (standalone builds).
#
#   cmake --build <build> --target rifl-doxygen   HTML in <build>/doc/doxygen/html
#   ctest --test-dir <build> -R '^rifl-doxygen$'  Doxygen with every warning on
#                                                 (undocumented members, missing
#                                                 parameters, doc errors); fails on
#                                                 any warning about the module's
#                                                 files or any class outside the
#                                                 \defgroup rifl tree.
#
# Doxygen (Debian package doxygen) is optional: without it the target and the
# test are skipped with a status message. RIFL_ENABLE_DOXYGEN=OFF skips them too.

option(RIFL_ENABLE_DOXYGEN "Doxygen target and test (if doxygen is found)" ON)
if(NOT RIFL_ENABLE_DOXYGEN)
  return()
endif()

find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  message(STATUS "doxygen not found: rifl-doxygen target and test skipped")
  return()
endif()

# ns-3's own headers of the base classes the module overrides (Object,
# NetDevice, Channel, Application, ErrorModel, the trace helpers,
# Ipv4RoutingProtocol): Doxygen reads
# them so the overrides inherit ns-3's documentation (INHERIT_DOCS).
find_path(RIFL_NS3_HEADER_DIR NAMES ns3/net-device.h ns3/object.h
          HINTS ${ns3_DIR}/../../../../include)
set(_rifl_dox_bases "")
if(RIFL_NS3_HEADER_DIR)
  foreach(_h object net-device channel application error-model trace-helper ipv4-routing-protocol)
    if(EXISTS ${RIFL_NS3_HEADER_DIR}/ns3/${_h}.h)
      string(APPEND _rifl_dox_bases " \"${RIFL_NS3_HEADER_DIR}/ns3/${_h}.h\"")
    endif()
  endforeach()
endif()

set(RIFL_DOXYGEN_SRC ${CMAKE_CURRENT_SOURCE_DIR})
set(RIFL_DOXYGEN_INCLUDE ${RIFL_HEADER_STAGE})
set(RIFL_DOXYGEN_BASES "${_rifl_dox_bases}")

# The HTML documentation.
set(RIFL_DOXYGEN_OUT ${CMAKE_BINARY_DIR}/doc/doxygen)
set(RIFL_DOXYGEN_HTML YES)
set(RIFL_DOXYGEN_XML NO)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/doc/doxygen/Doxyfile.in ${RIFL_DOXYGEN_OUT}/Doxyfile @ONLY)
add_custom_target(
  rifl-doxygen
  COMMAND ${DOXYGEN_EXECUTABLE} ${RIFL_DOXYGEN_OUT}/Doxyfile
  COMMAND ${CMAKE_COMMAND} -E echo "rifl-doxygen: ${RIFL_DOXYGEN_OUT}/html/index.html (warnings in ${RIFL_DOXYGEN_OUT}/doxygen-warnings.log)"
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  COMMENT "Doxygen: the rifl module's API documentation"
  VERBATIM
)

# The check: XML as well (the group membership is read from it). HTML stays on:
# Doxygen 1.9.4 reports documented parameters as undocumented when no HTML is
# generated.
if(NOT RIFL_NS3_HEADER_DIR)
  message(STATUS "ns-3 headers not found for Doxygen: rifl-doxygen test skipped")
  return()
endif()
set(RIFL_DOXYGEN_OUT ${CMAKE_BINARY_DIR}/doc/doxygen-check)
set(RIFL_DOXYGEN_XML YES)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/doc/doxygen/Doxyfile.in ${RIFL_DOXYGEN_OUT}/Doxyfile @ONLY)
add_test(
  NAME rifl-doxygen
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/doc/doxygen/rifl-doxygen-check.py
          --doxygen ${DOXYGEN_EXECUTABLE} --doxyfile ${RIFL_DOXYGEN_OUT}/Doxyfile
          --out ${RIFL_DOXYGEN_OUT} --source ${CMAKE_CURRENT_SOURCE_DIR}
)
set_tests_properties(rifl-doxygen PROPERTIES LABELS "quick;docs" TIMEOUT 300)
