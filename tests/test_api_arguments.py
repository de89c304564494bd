"""The Python API names its mistakes: a wrong type is a TypeError, a bad value a ValueError
(the package's own errors are both ValueErrors), each naming the argument; nothing leaks an
AttributeError or a KeyError from inside. Preset names are taken wherever a Rules is."""
import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from briscasim import Deal, Lineup, Rules, analyze, load, simulate
from briscasim.envs.vector import VectorEnv
from briscasim.errors import ArgumentTypeError, UserError
from briscasim.rules import PRESETS, RulesError

WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.binary(max_size=6), st.lists(st.one_of(st.none(), st.integers(), st.text(max_size=3)),
                                    max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
    st.tuples(st.integers()), st.builds(object), st.just(np.float64("nan")),
    st.just(np.int64(-3)), st.just(np.array([1, 2])), st.just(math.inf))
"""Arguments of every kind, most of them wrong anywhere."""


def whole(x, low, high=None) -> bool:
    return (isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))
            and x >= low and (high is None or x < high))


DEAL = Deal.from_seed("brisca-2", 3)


def _simulate(**kw):
    args = dict(rules="brisca-2", specs="random", deals=1, seed=1, workers=1)
    args.update(kw)
    return simulate(**args)


# entry point -> argument -> (call with that argument, is the value valid?, names the
# message may use for it)
ENTRY_POINTS = {
    "simulate": {
        "rules": (lambda x: _simulate(rules=x), lambda x: False, "rules|preset"),
        "specs": (lambda x: _simulate(specs=x), lambda x: False, "specs|strateg"),
        "deals": (lambda x: _simulate(deals=x), lambda x: whole(x, 1), "deals"),
        "seed": (lambda x: _simulate(seed=x), lambda x: whole(x, 0, 2 ** 64), "seed"),
        "duplicate": (lambda x: _simulate(duplicate=x),
                      lambda x: isinstance(x, (bool, np.bool_)), "duplicate"),
        "workers": (lambda x: _simulate(workers=x), lambda x: x is None or whole(x, 1),
                    "workers"),
        "chunk_size": (lambda x: _simulate(chunk_size=x), lambda x: x is None or whole(x, 1),
                       "chunk_size"),
        "progress": (lambda x: _simulate(progress=x),
                     lambda x: isinstance(x, (bool, np.bool_)), "progress"),
    },
    "Deal": {
        "rules": (lambda x: Deal(x, DEAL.deck), lambda x: False, "rules|preset"),
        "deck": (lambda x: Deal("brisca-2", x), lambda x: False, "deck"),
    },
    "Deal.from_seed": {
        "rules": (lambda x: Deal.from_seed(x, 1), lambda x: False, "rules|preset"),
        "seed": (lambda x: Deal.from_seed("brisca-2", x), lambda x: whole(x, 0, 2 ** 64),
                 "seed"),
        "deal_index": (lambda x: Deal.from_seed("brisca-2", 1, x),
                       lambda x: whole(x, 0, 2 ** 63), "deal_index"),
    },
    "Deal methods": {
        "seat": (lambda x: DEAL.view(x), lambda x: whole(x, 0, 2), "seat"),
        "hand": (lambda x: DEAL.hand(x), lambda x: whole(x, 0, 2), "seat"),
        "action": (lambda x: DEAL.copy().play(x), lambda x: False, "action|legal"),
        "decide": (lambda x: DEAL.copy().play_out(x), lambda x: False, "decide|action|legal"),
    },
    "Rules.preset": {
        "name": (lambda x: Rules.preset(x), lambda x: x in PRESETS if isinstance(x, str)
                 else False, "name|preset"),
        "override": (lambda x: Rules.preset("brisca-2", hand_size=x),
                     lambda x: whole(x, 1, 4), "hand_size"),
        "option": (lambda x: Rules.preset("brisca-2", **{str(x): 1}), lambda x: False,
                   "option"),
        "options": (lambda x: Rules.from_options(x), lambda x: isinstance(x, dict) and not x,
                    "option"),
    },
    "load": {
        "path": (lambda x: load(x), lambda x: False, "path|results directory"),
    },
    "analyze": {
        "deal": (lambda x: analyze(x), lambda x: False, "deal"),
        "iterations": (lambda x: analyze(DEAL, x), lambda x: whole(x, 1), "iterations"),
        "seconds": (lambda x: analyze(DEAL, 10, x),
                    lambda x: x is None or (isinstance(x, (int, float)) and not isinstance(x, bool)
                                            and math.isfinite(x) and x > 0), "seconds"),
        "seed": (lambda x: analyze(DEAL, 10, None, x), lambda x: whole(x, 0, 2 ** 64), "seed"),
    },
    "VectorEnv": {
        "rules": (lambda x: VectorEnv(x, 2), lambda x: False, "rules|preset"),
        "num_envs": (lambda x: VectorEnv("brisca-2", x), lambda x: whole(x, 1, 2 ** 31),
                     "num_envs"),
        "seed": (lambda x: VectorEnv("brisca-2", 2, x), lambda x: whole(x, 0, 2 ** 64),
                 "seed"),
        "reward": (lambda x: VectorEnv("brisca-2", 2, reward=x), lambda x: False, "reward"),
        "opponent": (lambda x: VectorEnv("brisca-2", 2, opponent=x), lambda x: x is None,
                     "opponent|specs|strateg"),
        "agent_seats": (lambda x: VectorEnv("brisca-2", 2, opponent="random", agent_seats=x),
                        lambda x: x is None, "agent_seats"),
    },
}
CASES = [(entry, arg) for entry, args in ENTRY_POINTS.items() for arg in args]


@pytest.mark.parametrize("entry, arg", CASES, ids=[f"{e}-{a}" for e, a in CASES])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=WRONG)
def test_a_wrong_argument_is_named(entry, arg, value):
    call, valid, names = ENTRY_POINTS[entry][arg]
    assume(not valid(value))
    try:
        call(value)
    except (TypeError, ValueError) as e:
        assert isinstance(e, ValueError) or type(e) is ArgumentTypeError, repr(e)
        assert re.search(names, str(e), re.IGNORECASE), (arg, str(e))
    except Exception as e:        # AttributeError, KeyError, ... from inside
        pytest.fail(f"{entry} {arg}={value!r} raised {type(e).__name__}: {e}")


def test_the_top_level_names_are_the_functions_and_classes():
    import briscasim.simulate  # noqa: F401  (the module of the same name, imported)
    from briscasim import simulate as f
    assert callable(f) and f is briscasim.simulate and f.__module__ == "briscasim.simulate"
    assert isinstance(Lineup, type) and callable(analyze) and callable(load)
    from briscasim.simulate import play_chunk       # the module is still there by its path
    assert callable(play_chunk)


def test_a_preset_name_is_taken_wherever_a_rules_is():
    assert Rules.coerce("brisca-4-pairs") == Rules.preset("brisca-4-pairs")
    r = Rules.preset("brisca-2")
    assert Rules.coerce(r) is r
    assert Deal.from_seed("brisca-2", 5).deck == Deal.from_seed(r, 5).deck
    a = simulate("brisca-2", "random", 50, 1, workers=1).to_dict()
    b = simulate(r, "random", 50, 1, workers=1).to_dict()
    assert a["by_seat"] == b["by_seat"]
    with pytest.raises(RulesError, match="rules: unknown preset 'brisca-9'"):
        simulate("brisca-9", "random", 10, 1)
    with pytest.raises(TypeError, match="rules must be a Rules value or a preset name"):
        simulate(None, "random", 10, 1)


@pytest.mark.parametrize("specs, words", [([None, "random"], "specs: None is not a strategy"),
                                          ([5], "specs: 5 is not a strategy"),
                                          (5, "specs must be a strategy spec"),
                                          ({"a": 1}, "specs must be")])
def test_a_lineup_of_wrong_things_is_a_type_error(specs, words):
    with pytest.raises(TypeError, match=words):
        simulate("brisca-2", specs, 10, 1)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, np.float64("nan")])
def test_the_api_refuses_numbers_that_are_not_finite(value):
    with pytest.raises(UserError, match="seconds = .* must be a finite number"):
        analyze(DEAL, 10, value)


def test_wrong_types_are_also_user_errors_for_the_command_line():
    """A TypeError of the API is a UserError too: the command line prints it as one line."""
    with pytest.raises(UserError):
        Deal.from_seed("brisca-2", "1")
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentTypeError, ValueError)
