# Sphinx configuration of the rifl module's model documentation.
#
# Built by the CMake target `rifl-doc-html` (cmake/docs.cmake) with Debian's
# Sphinx (python3-sphinx); the ctest test `rifl-doc-html` builds it with
# warnings as errors (-W --keep-going -n). By hand:
#
#   sphinx-build -b html -W --keep-going -n doc build/doc/html
#
# The .rst files follow the ns-3 model-documentation outline, so they can also
# be listed in an ns-3 tree's doc/models/source/index.rst.

project = "rifl: reliable link layers for ns-3"
author = "the rifl authors"
copyright = "the rifl authors, GPL-2.0-only"
version = "0.1"
release = "0.1.0"

master_doc = "index"
source_suffix = {".rst": "restructuredtext"}
# replace.txt is included by every chapter (the |ns3| substitution), never a page.
exclude_patterns = ["_build", "replace.txt"]

extensions = []
highlight_language = "cpp"
pygments_style = "sphinx"
numfig = False

# Debian's python3-sphinx ships alabaster; no other theme is needed.
html_theme = "alabaster"
html_title = "rifl: reliable link layers for ns-3"
html_static_path = []
html_show_sourcelink = False
