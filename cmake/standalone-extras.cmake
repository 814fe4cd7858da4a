# Standalone-only parts of the build: installation and the CMake package.
include(GNUInstallDirs)
get_property(_rifl_headers GLOBAL PROPERTY RIFL_STAGED_HEADERS)
install(FILES ${_rifl_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
install(TARGETS librifl EXPORT ns3-riflTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# The waf description (wscript-compat/) must list the same files as this build.
add_test(NAME rifl-build-consistency
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test/rifl-build-consistency.py
                 ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(rifl-build-consistency PROPERTIES LABELS "quick;python" TIMEOUT 60)
include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/doxygen.cmake)
