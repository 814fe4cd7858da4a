# The module's model documentation (doc/*.rst, ns-3 outline) built to HTML
# with Debian's Sphinx (python3-sphinx).
#
#   RIFL_ENABLE_DOCS (default ON): look for sphinx-build; when it is found,
#     - target `rifl-doc-html` (not part of `all`) writes <build>/doc/html,
#       open <build>/doc/html/index.html;
#     - ctest test `rifl-doc-html` (label quick) builds the same sources with
#       warnings as errors (-W --keep-going -n) into <build>/doc/html-test;
#   when it is not found, both are skipped with a status message (the module
#   itself never needs Sphinx).
#
# Standalone builds only: in an ns-3 source tree, ns-3's own documentation
# build is the place for doc/*.rst.

if(NOT NS3_RIFL_STANDALONE)
  return()
endif()

option(RIFL_ENABLE_DOCS "Build the model documentation with Sphinx (target rifl-doc-html)" ON)
if(NOT RIFL_ENABLE_DOCS)
  message(STATUS "rifl docs: disabled (RIFL_ENABLE_DOCS=OFF)")
  return()
endif()

find_program(RIFL_SPHINX_BUILD NAMES sphinx-build sphinx-build3
             DOC "sphinx-build of Debian's python3-sphinx")
if(NOT RIFL_SPHINX_BUILD)
  message(STATUS "rifl docs: sphinx-build not found (Debian: python3-sphinx); "
                 "target rifl-doc-html and its test skipped")
  return()
endif()

execute_process(COMMAND ${RIFL_SPHINX_BUILD} --version OUTPUT_VARIABLE _rifl_sphinx_version
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
message(STATUS "rifl docs: ${_rifl_sphinx_version} (target rifl-doc-html)")

set(RIFL_DOC_SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/doc)
set(RIFL_DOC_HTML_DIR ${CMAKE_CURRENT_BINARY_DIR}/doc/html)
file(GLOB _rifl_doc_sources CONFIGURE_DEPENDS ${RIFL_DOC_SOURCE_DIR}/*.rst
     ${RIFL_DOC_SOURCE_DIR}/*.txt ${RIFL_DOC_SOURCE_DIR}/conf.py)

add_custom_command(
  OUTPUT ${RIFL_DOC_HTML_DIR}/index.html
  COMMAND ${RIFL_SPHINX_BUILD} -b html -q -d ${CMAKE_CURRENT_BINARY_DIR}/doc/doctrees
          ${RIFL_DOC_SOURCE_DIR} ${RIFL_DOC_HTML_DIR}
  DEPENDS ${_rifl_doc_sources}
  COMMENT "Sphinx: model documentation -> ${RIFL_DOC_HTML_DIR}"
  VERBATIM)
add_custom_target(rifl-doc-html DEPENDS ${RIFL_DOC_HTML_DIR}/index.html)

# -W: warnings are errors; --keep-going: report all of them; -n: nitpicky
# (every reference must resolve); -E: no saved environment, so every run reads
# every file and a stale environment cannot hide a warning.
add_test(NAME rifl-doc-html
         COMMAND ${RIFL_SPHINX_BUILD} -b html -W --keep-going -n -E -q
                 -d ${CMAKE_CURRENT_BINARY_DIR}/doc/doctrees-test
                 ${RIFL_DOC_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/doc/html-test)
set_tests_properties(rifl-doc-html PROPERTIES LABELS "quick;docs" TIMEOUT 300)
