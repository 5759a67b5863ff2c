"""Sphinx configuration of the library's documentation site (``sphinx-build -W docs/site build/docs``)."""

from __future__ import annotations

import hive

project = "hive"
author = "the hive authors"
copyright = "2026, the hive authors"
release = hive.__version__
version = hive.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
]

root_doc = "index"
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_title = f"hive {release}"
html_static_path: list[str] = []
nitpicky = False

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}

intersphinx_mapping: dict[str, tuple[str, str | None]] = {}

# Every example is run by ``sphinx-build -b doctest``; they start from a fresh namespace with hive imported.
doctest_global_setup = "import hive"

# A property's return annotation reaches autodoc unqualified (``Board``), and the short name matches a class of each
# game (hive.Board, hive.games.hivequeen.Board); such references go to the first match.
suppress_warnings = ["ref.python"]
