"""Every command on every preset, as text and as JSON, with a handful of deals: each ends with
status 0 and no traceback (or, where a command does not apply, with one line and status 2),
and shows only the columns that apply to the rules.

The presets are grouped by the batch kernel ``simulate`` compiles for them (the rule features
and the kind of match, :func:`briscasim.simulate.needed_features`), one test per group, so
that each kernel compiles once; ``replay``, ``analyze`` and ``play`` share one compiled engine
for every preset.
"""
import io
import json
from collections import defaultdict

import pytest

from briscasim.lineup import Lineup, needed_features
from briscasim.rules import PRESETS, Rules
from test_cli_simulate import run


def seats(rules) -> list[str]:
    """Greedy and random by turns round the table."""
    return ["greedy" if s % 2 == 0 else "random" for s in range(rules.players)]


def _kernel(name: str) -> str:
    rules = Rules.preset(name)
    return f"{rules.match_kind}-{needed_features(rules, Lineup.build(rules, seats(rules)))}"


GROUPS = defaultdict(list)
for _name in PRESETS:
    GROUPS[_kernel(_name)].append(_name)

ANSWERS = "keep\npass\n1\n2\n3\n4\n5\n6\n7\n8\n" * 3000
"""What the player types: declines every swap, passes in every auction, plays the first card
that is legal (a word that does not fit the decision is answered and asked again)."""


def ok(argv, capsys) -> str:
    code, out, err = run(argv, capsys)
    assert code == 0 and "Traceback" not in err, (argv, err)
    return out


def check_simulate(name, rules, capsys):
    strategies = [x for s in seats(rules) for x in ("--strategy", s)]
    base = ["simulate", "--preset", name, *strategies, "--deals", "3"]
    for duplicate in ([], ["--duplicate"]):
        text = ok(base + duplicate, capsys)
        table = text.split("\n\n")[1]
        assert ("black hand" in table) == rules.black_hand, text
        assert ("caller" in table) == (rules.chiamata and rules.match_kind == "deal"), text
        assert ("deals won" in table) == (rules.match_kind != "deal"), text
        assert ("paired on the same" in text) == bool(duplicate), text
        d = json.loads(ok(base + duplicate + ["--json"], capsys))
        assert d["rules"] == name and ("paired" in d) == bool(duplicate)
        if duplicate:
            p = d["paired"]
            assert (p["a"], p["b"]) == ("greedy", "random") and p["deals"] == 3


def check_replay_and_analyze(name, rules, capsys):
    base = ["--preset", name, "--strategy", "greedy"]
    assert ok(["replay", *base, "--deal", "1"], capsys)
    json.loads(ok(["replay", *base, "--deal", "1", "--json"], capsys))
    argv = ["analyze", *base, "--at", "2", "--iterations", "4"]
    if rules.match_kind != "deal":
        code, _, err = run(argv, capsys)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "match" in err, err
        return
    assert "values:" in ok(argv, capsys)
    d = json.loads(ok(argv + ["--json"], capsys))
    assert all(0 <= a["score_ci95"][0] <= a["score"] <= a["score_ci95"][1] <= 1
               for a in d["actions"])


def check_play(name, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(ANSWERS))
    out = ok(["play", "--preset", name, "--strategy", "random", "--seed", "3", "--hint",
              "--iterations", "4", "--seconds", "0.05", "--save", f"{name}.json"], capsys)
    assert "values:" in out and "saved in" in out
    for saved in sorted(tmp_path.glob(f"{name}*.json")):
        assert ok(["replay", "--file", str(saved)], capsys)
        json.loads(ok(["replay", "--file", str(saved), "--json"], capsys))


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_command_on_every_preset(group, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name in GROUPS[group]:
        rules = Rules.preset(name)
        check_simulate(name, rules, capsys)
        check_replay_and_analyze(name, rules, capsys)
        check_play(name, tmp_path, monkeypatch, capsys)


def test_run_report_and_plot_of_every_preset(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    variants = "".join(f'[[variants]]\npreset = "{name}"\n\n' for name in PRESETS)
    (tmp_path / "all.toml").write_text(f'name = "all"\nseed = 2\ndeals = 3\nlineup = '
                                       f'["greedy"]\n\n{variants}')
    assert f"{len(PRESETS)} cells" in ok(["validate", "all.toml"], capsys)
    ok(["run", "all.toml"], capsys)
    out = ok(["report", "runs/all", "--no-charts"], capsys)      # plot draws the charts
    assert "runs/all/report/report.md" in out
    text = (tmp_path / "runs/all/report/report.md").read_text()
    assert all(name in text for name in PRESETS)
    ok(["plot", "runs/all"], capsys)


def test_presets_one_line_each_and_every_option_of_one(capsys):
    lines = ok(["presets"], capsys).splitlines()
    for name in PRESETS:
        (line,) = [x for x in lines if x.split(" ", 1)[0] == name]
        changed = Rules.preset(name).differences()
        assert all(f"{k}=" in line for k in changed)
        assert "max_deals" not in line and "claim" not in line    # the defaults are left out
    assert "players=3 leftover=remove removed_cards=2o" in ok(["presets"], capsys)
    full = ok(["presets", "chiamata-5-pagat"], capsys)
    options = Rules.preset("chiamata-5-pagat").options()
    assert all(k in full for k in options)
    assert [x.split()[0] for x in full.splitlines() if x.endswith("*")] == [
        "players", "hand_size", "swap_seven", "swap_two", "auction", "cappotto",
        "bid_multiplier"]
    d = json.loads(ok(["presets", "chiamata-5-pagat", "--json"], capsys))
    assert d["options"] == options and d["differences"]["cappotto"] == "tricks"
    assert json.loads(ok(["presets", "--json"], capsys))["brisca-2"] == \
        Rules.preset("brisca-2").options()
    code, _, err = run(["presets", "brisca-9"], capsys)
    assert code == 2 and "unknown preset 'brisca-9'" in err
