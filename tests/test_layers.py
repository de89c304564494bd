"""The package's layers (the import-linter contracts of pyproject.toml), and the errors a user
can fix as a leaf every layer may import."""
import os
import subprocess
import sys
from pathlib import Path

from briscasim.cards import CardError
from briscasim.errors import IllegalAction, UserError
from briscasim.rules import RulesError
from briscasim.strategies.params import StrategyError

ROOT = Path(__file__).resolve().parents[1]


def test_every_error_a_user_can_fix_is_a_user_error():
    for error in (CardError, RulesError, StrategyError, IllegalAction):
        assert issubclass(error, UserError), error


def test_the_errors_module_loads_nothing_of_the_library():
    code = ("import sys, briscasim.errors; "
            "print(sorted(m for m in sys.modules if m.startswith('briscasim')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['briscasim', 'briscasim.errors']"


def test_imports_keep_to_the_layers():
    """Every import, at module level or inside a function, goes down the layers of
    pyproject.toml: no module imports one of a layer above its own, so no import cycle."""
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports('pyproject.toml', no_cache=True, show_timings=False))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout, r.stdout
