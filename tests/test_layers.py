"""The package's layers: the errors a user can fix are a leaf every layer may import."""
import subprocess
import sys

from briscasim.cards import CardError
from briscasim.errors import IllegalAction, UserError
from briscasim.rules import RulesError
from briscasim.strategies.params import StrategyError


def test_every_error_a_user_can_fix_is_a_user_error():
    for error in (CardError, RulesError, StrategyError, IllegalAction):
        assert issubclass(error, UserError), error


def test_the_errors_module_loads_nothing_of_the_library():
    code = ("import sys, briscasim.errors; "
            "print(sorted(m for m in sys.modules if m.startswith('briscasim')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['briscasim', 'briscasim.errors']"
