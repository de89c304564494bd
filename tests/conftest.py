"""Shared test set-up: the helper module ``deckbuild`` importable from every test file."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
