"""Shared test set-up: the helper modules (``deckbuild``, ``repo_scripts``, ``chartcheck``,
``command_line``)
importable from every test file."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
