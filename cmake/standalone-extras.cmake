# Standalone-only parts of the build: installation, the CMake package, the
# Doxygen target and the build-description tests.
#
#   cmake --install <build> [--prefix P]   (P defaults to CMAKE_INSTALL_PREFIX)
#
# installs
#   P/<libdir>/libns3-rifl.so*                  the module library
#   P/include/ns3/*.h                           its headers and rifl-module.h
#   P/<libdir>/cmake/ns3-rifl/                  CMake package: find_package(ns3-rifl)
#                                               gives the target ns3-rifl::rifl
#                                               (alias ns3::librifl), which brings
#                                               in ns-3 (find_package(ns3 3.37))
#                                               and Boost
#   P/${RIFL_PYTHON_INSTALL_DIR}/ns3rifl/       the Python package (with bindings):
#                                               lib/python3.X/dist-packages, on
#                                               Debian's sys.path for P=/usr/local;
#                                               otherwise PYTHONPATH=P/lib/python3.X/dist-packages
#   P/share/doc/ns3-rifl/examples/              the example programs' sources
#   P/${RIFL_DATA_INSTALL_DIR}/*.cdf            the flow-size CDFs (web-search,
#                                               data-mining; share/ns3-rifl by
#                                               default), found by the installed
#                                               library relative to itself (the
#                                               install rule is in CMakeLists.txt,
#                                               shared with in-tree builds)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RIFL_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ns3-rifl
    CACHE STRING "Where the ns3-rifl CMake package goes (relative to the prefix)")

get_property(_rifl_headers GLOBAL PROPERTY RIFL_STAGED_HEADERS)
install(FILES ${_rifl_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3 COMPONENT rifl)

# Users of the installed target compile ns-3 headers: C++17 at least.
target_compile_features(librifl PUBLIC cxx_std_17)
set_target_properties(librifl PROPERTIES EXPORT_NAME rifl)
install(
  TARGETS librifl
  EXPORT ns3-riflTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT rifl
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT rifl
  INCLUDES
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
)
install(
  EXPORT ns3-riflTargets
  NAMESPACE ns3-rifl::
  DESTINATION ${RIFL_CMAKE_INSTALL_DIR}
  COMPONENT rifl
)

# The Python package: the pure-Python files and the _core extension. The
# extension finds libns3-rifl through a relative RPATH (from the package
# directory back to the library directory), so the prefix can be moved.
# _rifl_python_dir: the Python install directory when bindings are built, else
# empty (a separate name: a normal variable would shadow the cache entry).
set(_rifl_python_dir "")
if(TARGET ns3rifl-core)
  if(NOT DEFINED Python_VERSION_MINOR)
    execute_process(
      COMMAND ${Python_EXECUTABLE} -c "import sys; print('%d;%d' % sys.version_info[:2])"
      OUTPUT_VARIABLE _rifl_pyver OUTPUT_STRIP_TRAILING_WHITESPACE
    )
    list(GET _rifl_pyver 0 Python_VERSION_MAJOR)
    list(GET _rifl_pyver 1 Python_VERSION_MINOR)
  endif()
  set(RIFL_PYTHON_INSTALL_DIR
      lib/python${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}/dist-packages
      CACHE STRING "Where the ns3rifl Python package goes (relative to the prefix)"
  )
  if(NOT RIFL_PYTHON_INSTALL_DIR OR IS_ABSOLUTE "${RIFL_PYTHON_INSTALL_DIR}")
    message(FATAL_ERROR "RIFL_PYTHON_INSTALL_DIR must be a directory relative to the prefix, "
                        "not '${RIFL_PYTHON_INSTALL_DIR}'")
  endif()
  set(_rifl_python_dir ${RIFL_PYTHON_INSTALL_DIR})
  file(RELATIVE_PATH _rifl_py_rpath ${CMAKE_INSTALL_PREFIX}/${RIFL_PYTHON_INSTALL_DIR}/ns3rifl
       ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}
  )
  set_target_properties(ns3rifl-core PROPERTIES INSTALL_RPATH "$ORIGIN/${_rifl_py_rpath}")
  file(GLOB _rifl_py_files CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/bindings/ns3rifl/*.py)
  install(FILES ${_rifl_py_files} DESTINATION ${RIFL_PYTHON_INSTALL_DIR}/ns3rifl COMPONENT python)
  install(TARGETS ns3rifl-core LIBRARY DESTINATION ${RIFL_PYTHON_INSTALL_DIR}/ns3rifl
                                       COMPONENT python)
endif()

configure_package_config_file(
  ${CMAKE_CURRENT_SOURCE_DIR}/cmake/ns3-rifl-config.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/ns3-rifl-config.cmake
  INSTALL_DESTINATION ${RIFL_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR
)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/cmake/ns3-rifl-config-version.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion
)
install(FILES ${CMAKE_BINARY_DIR}/cmake/ns3-rifl-config.cmake
              ${CMAKE_BINARY_DIR}/cmake/ns3-rifl-config-version.cmake
        DESTINATION ${RIFL_CMAKE_INSTALL_DIR} COMPONENT rifl
)

install(
  DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/examples/
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
  COMPONENT examples
  FILES_MATCHING
  PATTERN "*.cc"
)

# The waf description (wscript-compat/) must list the same files as this build.
add_test(NAME rifl-build-consistency
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test/rifl-build-consistency.py
                 ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(rifl-build-consistency PROPERTIES LABELS "quick;python" TIMEOUT 60)

# The sources use the version-neutral spellings of model/core/rifl-compat.h
# (refresh with: test/rifl-compat-spellings.py <source dir> --write).
add_test(NAME rifl-compat-spellings
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test/rifl-compat-spellings.py
                 ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(rifl-compat-spellings PROPERTIES LABELS "quick;python" TIMEOUT 60)

# Install into a scratch prefix, build test/install/ (an out-of-tree program)
# against it with find_package(ns3-rifl), run it, and import the installed
# Python package.
add_test(
  NAME rifl-install
  COMMAND
    ${CMAKE_COMMAND} -DRIFL_BUILD_DIR=${CMAKE_BINARY_DIR}
    -DRIFL_SOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR} -DRIFL_WORK_DIR=${CMAKE_BINARY_DIR}/install-test
    "-DRIFL_GENERATOR=${CMAKE_GENERATOR}" -DRIFL_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DRIFL_CXX_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER} -DRIFL_PYTHON_DIR=${_rifl_python_dir}
    -DRIFL_WITH_PYTHON=$<TARGET_EXISTS:ns3rifl-core> -DRIFL_DATA_INSTALL_DIR=${RIFL_DATA_INSTALL_DIR}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/test/install/run-install-test.cmake
)
set_tests_properties(rifl-install PROPERTIES LABELS "quick;install" TIMEOUT 600)

include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/doxygen.cmake)
