"""``import briscasim`` from any folder, the one holding the clone included, and an import
failure inside the lazy top-level names raised as what it is."""
import subprocess
import sys
import textwrap
from pathlib import Path

import briscasim

CLONE_LIKE = ["briscasim/experiments/quickstart.toml", "briscasim/docs/rules.md",
              "briscasim/tests/conftest.py", "briscasim/README.md"]


def run(code: str, cwd: Path, **env) -> subprocess.CompletedProcess:
    import os
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, **env})


def test_the_package_imports_from_the_folder_that_holds_a_clone(tmp_path):
    """A folder ``briscasim/`` in the working directory (a clone: no ``__init__.py`` at its
    top) must not be taken for the package as a namespace package."""
    for name in CLONE_LIKE:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    r = run("""
        import briscasim
        from briscasim import load, simulate, Rules, Deal, analyze, Lineup
        print(briscasim.__file__)
        print(callable(load), callable(simulate), briscasim.load is load)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    where, ok = r.stdout.splitlines()
    assert Path(where) == Path(briscasim.__file__) and ok == "True True True"


def test_an_import_failure_inside_the_lazy_loader_is_raised_as_itself(tmp_path):
    """A module behind a top-level name that fails to import: its own error, not
    AttributeError (nor `cannot import name`)."""
    r = run("""
        import sys, types
        sys.modules["pyarrow"] = None                  # not installed
        import briscasim
        try:
            from briscasim import load
        except ImportError as e:
            print(type(e).__name__, e.name)
        sys.modules["pyarrow"] = types.ModuleType("pyarrow")   # a version without names
        try:
            briscasim.load
        except AttributeError as e:
            print("AttributeError", e)
        except ImportError as e:
            print("ImportError", e.name)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["ModuleNotFoundError pyarrow",
                                     "ImportError briscasim.experiments.runner"]


def test_an_unknown_name_is_an_attribute_error():
    import pytest
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        briscasim.nosuch
