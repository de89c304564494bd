"""The strategy example of docs/strategies.md (examples/last_word.py) from the command line, a
spec and Python."""
import json
import pathlib

import pytest
from click.testing import CliRunner

from briscasim.cli.main import cli
from briscasim.rules import Rules
from briscasim.simulate import simulate
from briscasim.strategies.registry import register_strategy, unregister_strategy

EXAMPLES = pathlib.Path(__file__).parent.parent / "examples"


@pytest.fixture
def examples(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))


def test_from_the_command_line(examples):
    result = CliRunner().invoke(cli, [
        "simulate", "--preset", "brisca-2", "--strategy", "last_word:last_word:min_points=4",
        "--strategy", "random", "--duplicate", "--deals", "2000", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    rate = {s["strategy"]: s["win_rate"] for s in out["by_strategy"]}
    assert rate["last_word:last_word:min_points=4"] > 0.6       # it beats random


def test_from_a_spec(examples, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text('name = "last-word"\nseed = 1\ndeals = 500\nchunk = 250\n'
                    'lineup = ["last_word:last_word:min_points=0", "greedy"]\n'
                    '[[variants]]\npreset = "brisca-2"\n')
    runner = CliRunner()
    result = runner.invoke(cli, ["run", str(spec), "-o", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["report", str(tmp_path / "run"), "-o", str(tmp_path / "rep"),
                                 "--no-charts"])
    assert result.exit_code == 0, result.output
    assert "last_word:last_word:min_points=0" in (tmp_path / "rep" / "report.md").read_text()


def test_from_python(examples):
    import last_word
    register_strategy("last_word", last_word.last_word, last_word.STRATEGY_PARAMS["last_word"])
    try:
        rules = Rules.preset("brisca-4-pairs")
        res = simulate(rules, ["last_word:min_points=10", "greedy"] * 2, deals=400, seed=2,
                       duplicate=True).to_dict()
        assert {s["strategy"] for s in res["by_strategy"]} == {"last_word:min_points=10",
                                                                "greedy"}
    finally:
        unregister_strategy("last_word")


@pytest.mark.slow      # compiles the exact solver into a user strategy
def test_exact_endgame_in_a_user_strategy(examples):
    """last_word_exact (last_word plus the solver once the stock is empty) plays the same
    deals better than last_word: every decision it changes is an exact best one."""
    import last_word
    for name in ("last_word", "last_word_exact"):
        register_strategy(name, getattr(last_word, name), last_word.STRATEGY_PARAMS[name])
    try:
        res = simulate(Rules.preset("brisca-2"), ["last_word_exact", "last_word"], deals=2000,
                       seed=3, duplicate=True).to_dict()
        rate = {s["strategy"]: s["win_rate"] for s in res["by_strategy"]}
        assert rate["last_word_exact"] > rate["last_word"] + 0.05
    finally:
        for name in ("last_word", "last_word_exact"):
            unregister_strategy(name)
