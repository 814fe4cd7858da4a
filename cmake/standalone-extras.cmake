# Standalone-only parts of the build: installation and the CMake package.
include(GNUInstallDirs)
get_property(_rifl_headers GLOBAL PROPERTY RIFL_STAGED_HEADERS)
install(FILES ${_rifl_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
install(TARGETS librifl EXPORT ns3-riflTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
