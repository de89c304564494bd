"""The strategy registry: spec parsing, typed parameters, labels, user and prototype
strategies, the ``strategies`` command."""
import dataclasses
import json
import pathlib
import re

import numpy as np
import pytest
from click.testing import CliRunner

from briscasim import batch
from briscasim.cli.main import cli
from briscasim.driver import play_prototype_chunk
from briscasim.engine.layout import EVERY_FEATURE, REC_POINTS, REC_WINNER
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies.api import KIND_USER, SWAP_BY_PLAY, SWAP_HOLD, SWAP_NEVER
from briscasim.strategies.dispatch import EVERY_SHAPE
from briscasim.strategies.registry import (KIND_PYTHON, REGISTRY, SWAP_POLICIES, Param,
                                           StrategyError, register_strategy, resolve,
                                           unregister_strategy)

FIXTURES = pathlib.Path(__file__).parent / "strategy_fixtures"


@pytest.fixture
def user_path(monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURES))


def test_builtins_registered():
    assert {"random", "greedy"} <= set(REGISTRY)
    assert {"by_play", "immediate", "never", "hold"} <= set(SWAP_POLICIES)


def test_resolve_play_and_swap_parts():
    s = resolve("greedy:trump_threshold=4+hold:stock=6,trumps_gone=yes")
    assert s.kinds == (REGISTRY["greedy"].kind, SWAP_HOLD)
    assert s.params[0, 0] == 4
    assert s.params[1, 0] == 6 and s.params[1, 1] == 1 and s.params[1, 2] == 1
    assert s.label == "greedy:trump_threshold=4+hold:stock=6,trumps_gone=true"
    assert resolve("random").kinds == (REGISTRY["random"].kind, SWAP_BY_PLAY)
    assert resolve("random+never").kinds == (REGISTRY["random"].kind, SWAP_NEVER)
    # the random strategy keeps its historical parameter slot
    assert resolve("random:swap_prob=0.5").params[0, 0] == 0.5


def test_choice_parameters_are_indices():
    s = resolve("greedy:objective=fewest,swap=keep")
    d = REGISTRY["greedy"]
    names = [p.name for p in d.params]
    assert s.params[0, names.index("objective")] == 2
    assert s.params[0, names.index("swap")] == 2


def _sample_value(p, rng):
    if p.type is bool:
        return bool(rng.integers(2))
    if p.type is str:     # a choice, or free text such as a model (its default or a name)
        return p.choices[rng.integers(len(p.choices))] if p.choices else \
            (p.default, "brisca-2", "models/m.npz")[rng.integers(3)]
    lo = p.low if p.low is not None else -5
    hi = p.high if p.high is not None else lo + 100
    if p.type is int:
        return int(rng.integers(int(lo), int(hi) + 1))
    return float(np.round(rng.uniform(lo, hi), 3))


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_labels_round_trip(name):
    rng = np.random.default_rng(1)
    d = REGISTRY[name]
    for _ in range(5):
        values = {p.name: _sample_value(p, rng) for p in d.params}
        spec = name + ":" + ",".join(f"{k}={v}" for k, v in values.items()) + \
            "+hold:stock=7,last_chance=false"
        s = resolve(spec)
        again = resolve(s.label)
        assert again.label == s.label
        assert again.kinds == s.kinds
        np.testing.assert_array_equal(again.params, s.params)
    assert resolve(name).label == name


@pytest.mark.parametrize("spec, words", [
    ("nosuch", ["unknown strategy 'nosuch'", "greedy", "random", "module:function"]),
    ("greedy:depth=3", ["unknown parameter 'depth'", "trump_threshold (int in 0..120)"]),
    ("greedy:trump_threshold=ten", ["trump_threshold='ten'", "not an integer",
                                    "int in 0..120"]),
    ("greedy:trump_threshold=2.5", ["not an integer"]),
    ("greedy:trump_threshold=500", ["trump_threshold=500", "out of range", "0..120"]),
    ("random:swap_prob=1.5", ["swap_prob=1.5", "out of range", "0..1"]),
    ("greedy:objective=least", ["objective='least'", "auto, most, fewest"]),
    ("greedy:trump_threshold", ["has no value"]),
    ("greedy+sometimes", ["unknown swap policy 'sometimes'", "immediate", "hold"]),
    ("greedy+hold:stock=-5", ["stock=-5", "out of range"]),
    ("greedy+hold:last_chance=maybe", ["last_chance='maybe'", "bool"]),
    ("", ["empty strategy spec"]),
])
def test_bad_specs_name_the_problem(spec, words):
    with pytest.raises(StrategyError) as e:
        resolve(spec)
    msg = str(e.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg


def test_user_module_strategy_runs_in_the_kernels(user_path):
    rules = Rules.preset("brisca-2")
    s = resolve("user_strategies:first_card:swap=false")
    assert s.kinds == (KIND_USER, SWAP_BY_PLAY) and s.user_fn is not None
    assert s.label == "user_strategies:first_card:swap=false"
    assert resolve(s.label).params[0, 0] == 0
    out = play_chunk(rules, Lineup.build(rules, [s, "greedy"]), 3, 0, 200, rotations=2)
    assert (out[:, REC_POINTS] + out[:, REC_POINTS + 1] <= 120).all()
    # greedy (entry 1, at seat (1 - r) % 2 in rotation r) beats a first-card player
    assert (out[:, REC_WINNER] == (1 - np.arange(400) % 2)).mean() > 0.6
    # and the engine does not recompile for another user function
    kernels = batch.compiled_kernels()
    assert kernels.count(("deal", EVERY_SHAPE, EVERY_FEATURE)) == 1
    lazy = resolve("user_strategies:lazy_last_card")
    play_chunk(rules, Lineup.build(rules, [lazy, "random"]), 3, 0, 20)
    assert batch.compiled_kernels() == kernels


def test_a_strategy_bound_to_the_rules_of_its_lineup(user_path):
    """A definition's bind gives the strategy a lineup built for the rules plays: here one
    whose parameter comes from the rules."""
    import user_strategies as u

    def bind(rules, s):
        params = s.params.copy()
        params[0, 0] = rules.players + 1
        return dataclasses.replace(s, params=params)

    n = (Param("n", int, 0, 0, 9),)
    register_strategy("nth", u.nth_card, n)
    register_strategy("nth-bound", u.nth_card, n, bind=bind)
    try:
        rules = Rules.preset("brisca-2")
        bound = Lineup.build(rules, ["nth-bound", "random"])
        assert bound.strategies[0].params[0, 0] == 3 and resolve("nth-bound").params[0, 0] == 0
        np.testing.assert_array_equal(
            play_chunk(rules, bound, 5, 0, 50, 2),
            play_chunk(rules, Lineup.build(rules, ["nth:n=3", "random"]), 5, 0, 50, 2))
    finally:
        unregister_strategy("nth")
        unregister_strategy("nth-bound")


@pytest.mark.parametrize("spec, words", [
    ("no_such_module_xyz:fn", ["cannot import module 'no_such_module_xyz'", "PYTHONPATH"]),
    ("user_strategies:missing", ["has no 'missing'", "first_card", "lazy_last_card"]),
    ("user_strategies:wrong_signature", ["wrong_signature", "expected int64(int64[::1] rules"]),
    ("user_strategies:returns_int16", ["returns_int16", "wrong signature", "-> int16",
                                       "return an int64"]),
    ("user_strategies:NOT_A_FUNCTION", ["is not a function", "expected a numba function"]),
    ("user_strategies:first_card:depth=2", ["unknown parameter 'depth'", "swap (bool"]),
])
def test_bad_user_strategies(user_path, spec, words):
    with pytest.raises(StrategyError) as e:
        resolve(spec)
    for w in words:
        assert w in str(e.value)


def test_register_strategy_from_python(user_path):
    import user_strategies as u
    d = register_strategy("first", u.first_card, (Param("swap", bool, False),), "first card")
    try:
        s = resolve("first:swap=true+never")
        assert s.kinds == (KIND_USER, SWAP_NEVER) and s.user_fn is u.first_card
        assert s.label == "first:swap=true+never"
        assert REGISTRY["first"] is d
        with pytest.raises(StrategyError, match="built-in"):
            register_strategy("greedy", u.first_card)
        with pytest.raises(StrategyError, match="wrong signature"):
            register_strategy("bad", u.returns_int16)
        with pytest.raises(StrategyError, match="strategy name"):
            register_strategy("a:b", u.first_card)
    finally:
        unregister_strategy("first")
    assert "first" not in REGISTRY


def test_any_number_of_user_strategies_in_one_lineup(user_path):
    """Each lineup entry has its own user slot: two user functions (and a built-in) play
    together in the kernels, deal for deal as the driver plays them."""
    rules = Rules.preset("brisca-3-remove2")
    lineup = Lineup.build(rules, ["user_strategies:first_card", "user_strategies:lazy_last_card",
                                  "greedy"])
    out = play_chunk(rules, lineup, 4, 0, 30, rotations=3)
    np.testing.assert_array_equal(out, play_prototype_chunk(rules, lineup, 4, 0, 30, 3))
    # the two functions play differently: swapping them changes the records
    other = Lineup.build(rules, ["user_strategies:lazy_last_card", "user_strategies:first_card",
                                 "greedy"])
    assert not np.array_equal(out, play_chunk(rules, other, 4, 0, 30, rotations=3))


def test_an_illegal_user_action_names_deal_seat_decision_and_replay(user_path, capsys):
    """The error says who chose what, where, and how to see it again; the command given
    reproduces it."""
    rules = Rules.preset("brisca-2")
    lineup = Lineup.build(rules, ["greedy", "user_strategies:illegal_in_trick_5"])
    with pytest.raises(StrategyError) as e:
        play_chunk(rules, lineup, 7, 40, 5, rotations=2)
    msg = str(e.value)
    assert re.search(r"illegal_in_trick_5 at seat \d, decision \d+ of deal 40 \(seed 7",
                     msg), msg
    for words in ("not legal", "briscasim replay --preset brisca-2 --strategy "
                  "greedy --strategy user_strategies:illegal_in_trick_5 --seed 7 --deal 40"):
        assert words in msg, msg
    from briscasim.cli.main import main
    command = msg.split("reproduce it with: ")[1].split()
    with pytest.raises(SystemExit) as exit_:
        main(command[1:])
    assert exit_.value.code == 2 and "decision" in capsys.readouterr().err


def test_a_user_strategy_that_raises_names_deal_seat_and_replay(user_path):
    rules = Rules.preset("brisca-2")
    lineup = Lineup.build(rules, ["user_strategies:raises_in_trick_3", "random"])
    with pytest.raises(StrategyError) as e:
        play_chunk(rules, lineup, 2, 10, 3)
    msg = str(e.value)
    for words in ("raised ValueError: no idea what to play", "at seat 0, decision",
                  "of deal 10 (seed 2",
                  "briscasim replay --preset brisca-2 --strategy "
                  "user_strategies:raises_in_trick_3 --strategy random --seed 2 --deal 10"):
        assert words in msg, msg


def test_prototype_strategy_plays_through_play_chunk(user_path):
    rules = Rules.preset("brisca-2")
    s = resolve("user_strategies:python_lowest+immediate")
    assert s.kinds[0] == KIND_PYTHON and s.python_fn is not None
    out = play_chunk(rules, Lineup.build(rules, [s, "greedy"]), 5, 0, 30, rotations=2)
    again = play_chunk(rules, Lineup.build(rules, [s, "greedy"]), 5, 0, 30, rotations=2)
    np.testing.assert_array_equal(out, again)
    assert (out[:, REC_POINTS] + out[:, REC_POINTS + 1] <= 120).all()


def test_prototype_errors(user_path):
    rules = Rules.preset("brisca-2")
    register_strategy("bad_proto", lambda view, params, rng: "Zz")
    try:
        with pytest.raises(StrategyError, match="bad_proto.*'Zz'"):
            play_chunk(rules, Lineup.build(rules, ["bad_proto", "random"]), 1, 0, 1)
        with pytest.raises(StrategyError, match="single deals only"):
            r = Rules.preset("brisca-2", match="deals 3")
            play_chunk(r, Lineup.build(r, ["bad_proto", "random"]), 1, 0, 1)
    finally:
        unregister_strategy("bad_proto")


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs-signals", "brisca-3-hidden"])
def test_python_loop_matches_the_kernels(preset):
    """The prototype loop uses the kernels' random streams: same records for jitted lineups."""
    rules = Rules.preset(preset)
    lineup = Lineup.build(rules, ["greedy", "random:swap_prob=0.5"] * (rules.players // 2)
                          + ["greedy+hold"] * (rules.players % 2))
    a = play_chunk(rules, lineup, 11, 5, 20, rotations=rules.players)
    b = play_prototype_chunk(rules, lineup, 11, 5, 20, rotations=rules.players)
    np.testing.assert_array_equal(a, b)


def test_strategies_command_lists_everything():
    # through the group, as the command line runs it
    runner = CliRunner()
    text = runner.invoke(cli, ["strategies"]).output
    for name in list(REGISTRY) + list(SWAP_POLICIES):
        assert name in text
    assert "trump_threshold=2  (int in 0..120)" in text
    data = json.loads(runner.invoke(cli, ["strategies", "--json"]).output)
    greedy = next(d for d in data["strategies"] if d["name"] == "greedy")
    p = next(p for p in greedy["params"] if p["name"] == "objective")
    assert p["choices"] == ["auto", "most", "fewest"] and p["default"] == "auto"
    hold = next(d for d in data["swap_policies"] if d["name"] == "hold")
    assert {p["name"] for p in hold["params"]} == {"stock", "last_chance", "trumps_gone",
                                                  "hold_two"}
    for d in data["strategies"]:
        if d.get("omniscient"):
            assert "CHEATING" in text.split(d["name"] + "  ", 1)[1].split("\n")[0]
