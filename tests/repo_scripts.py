"""Test helper: the repository's scripts (``scripts/NAME.py``) loaded as modules."""
import importlib.util
import pathlib
import sys

SCRIPTS = pathlib.Path(__file__).resolve().parents[1] / "scripts"


def load(path, name=None):
    """The module of the Python file ``path`` (a script's name alone: ``scripts/NAME.py``),
    registered under ``name`` (default: the file's stem)."""
    path = pathlib.Path(path)
    if not path.suffix:
        path = SCRIPTS / f"{path}.py"
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
