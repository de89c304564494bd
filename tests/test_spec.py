"""Experiment specs: expansion order, and a precise error for every kind of bad input."""
import subprocess
import sys
from pathlib import Path

import pytest

from briscasim.errors import UserError
from briscasim.experiments.records import seat_entries
from briscasim.experiments.spec import load_spec, parse_spec
from briscasim.strategies.registry import REGISTRY

BASE = """
name = "t"
seed = 1
deals = 100
lineup = ["random", "random:swap_prob=1"]
[[variants]]
preset = "brisca-2"
"""


def write(tmp_path, text, name="spec.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def error_of(tmp_path, text) -> str:
    p = write(tmp_path, text)
    with pytest.raises(UserError) as e:
        load_spec(p)
    msg = str(e.value)
    assert msg.startswith(str(p) + ": "), msg       # names the file
    return msg


def test_expansion_order_variants_then_grids_then_product(tmp_path):
    spec = load_spec(write(tmp_path, BASE + """
[[variants]]
preset = "briscola-2"
[[grid]]
"rules.swap_timing" = ["before_draw", "after_draw"]
"lineup.1.swap_prob" = [0.0, 0.5]
[[grid]]
"rules.tie" = ["last_trick"]
"""))
    got = [(c.variant, tuple(c.point.values())) for c in spec.cells]
    assert got == [
        ("brisca-2", ("before_draw", 0.0)), ("brisca-2", ("before_draw", 0.5)),
        ("brisca-2", ("after_draw", 0.0)), ("brisca-2", ("after_draw", 0.5)),
        ("brisca-2", ("last_trick",)),
        ("briscola-2", ("before_draw", 0.0)), ("briscola-2", ("before_draw", 0.5)),
        ("briscola-2", ("after_draw", 0.0)), ("briscola-2", ("after_draw", 0.5)),
        ("briscola-2", ("last_trick",))]
    assert [c.id for c in spec.cells] == list(range(10))
    c = spec.cells[3]
    assert c.rules.swap_timing == "after_draw"
    assert c.labels == ("random", "random:swap_prob=0.5")
    assert c.rotations == 2 and c.blocks == 1           # a lineup is duplicate by default


def test_lineup_fills_the_seats_and_seats_mode(tmp_path):
    spec = load_spec(write(tmp_path, BASE.replace("brisca-2", "brisca-4-pairs")))
    c = spec.cells[0]
    assert c.seating == (0, 1, 0, 1) and c.rotations == 2
    assert seat_entries(c.to_dict(), 2)[1, :4].tolist() == [1, 0, 1, 0]
    text = BASE.replace('lineup = ["random", "random:swap_prob=1"]', 'seats = ["random"]')
    c = load_spec(write(tmp_path, text)).cells[0]
    assert c.lineup == ("random", "random") and c.rotations == 1 and c.blocks == 1
    text = BASE.replace("deals = 100", "deals = 100\nduplicate = false")
    c = load_spec(write(tmp_path, text)).cells[0]
    assert c.rotations == 1 and c.blocks == 2


def test_grid_over_whole_lineup_and_digest(tmp_path):
    spec = load_spec(write(tmp_path, BASE + """
[grid]
lineup = [["random", "random"], ["random:swap_prob=1", "random"]]
"""))
    assert [c.labels for c in spec.cells] == [("random", "random"),
                                              ("random:swap_prob=1", "random")]
    again = load_spec(write(tmp_path, "# a comment\n" + BASE + """
[grid]
lineup = [["random", "random"], ["random:swap_prob=1", "random"]]
""", "other.toml"))
    assert again.digest() == spec.digest()


@pytest.mark.parametrize("text, key, words", [
    ("colour = 3\n" + BASE, "colour = 3", ["unknown key", "valid keys", "seed"]),
    (BASE + "[target]\nci_half_width = 0.01\n", "target", ["exactly one of"]),
    (BASE + "colour = 3\n", "variants[0].colour = 3", ["unknown key", "preset, rules"]),
])
def test_top_level_errors(tmp_path, text, key, words):
    msg = error_of(tmp_path, text)
    assert key in msg
    for w in words:
        assert w in msg


def test_wrong_type(tmp_path):
    msg = error_of(tmp_path, BASE.replace("seed = 1", 'seed = "one"'))
    assert "seed = 'one'" in msg and "whole number" in msg


def test_unknown_preset(tmp_path):
    msg = error_of(tmp_path, BASE.replace('"brisca-2"', '"brisca-9"'))
    assert "variants[0].preset = 'brisca-9'" in msg and "briscola-2" in msg


def test_unknown_rule_option(tmp_path):
    msg = error_of(tmp_path, BASE + "rules = { colour = 'red' }\n")
    assert "variants[0].rules.colour = 'red'" in msg and "swap_timing" in msg


def test_bad_rule_value_is_wrapped(tmp_path):
    msg = error_of(tmp_path, BASE + "rules = { swap_timing = 'never' }\n")
    assert "variants[0].rules" in msg and "swap_timing" in msg and "after_draw" in msg


def test_unknown_strategy(tmp_path):
    msg = error_of(tmp_path, BASE.replace('"random:swap_prob=1"', '"clever"'))
    assert "lineup[1] = 'clever'" in msg and "valid strategies" in msg and "random" in msg


def test_unknown_strategy_parameter_in_grid(tmp_path):
    msg = error_of(tmp_path, BASE + '[grid]\n"lineup.0.depth" = [1, 2]\n')
    assert 'grid."lineup.0.depth"[0] = 1' in msg and "valid: swap_prob" in msg


def test_bad_parameter_value_in_grid(tmp_path):
    msg = error_of(tmp_path, BASE + '[grid]\n"lineup.0.swap_prob" = [0.5, 7]\n')
    assert 'grid."lineup.0.swap_prob"[1] = 7' in msg and "swap_prob" in msg


def test_empty_grid_axis(tmp_path):
    msg = error_of(tmp_path, BASE + '[grid]\n"rules.tie" = []\n')
    assert 'grid."rules.tie" = []' in msg and "empty" in msg


def test_unknown_grid_key(tmp_path):
    msg = error_of(tmp_path, BASE + '[grid]\n"rules.colour" = ["red"]\n')
    assert "rules.colour" in msg and "valid options" in msg
    msg = error_of(tmp_path, BASE + '[grid]\n"seats.0" = ["random"]\n')
    assert "lineup" in msg


def test_invalid_combination_names_the_cell(tmp_path):
    msg = error_of(tmp_path, BASE + '[grid]\n"rules.teams" = ["none", "pairs"]\n')
    assert "variants[0] (brisca-2)" in msg and 'grid."rules.teams"[1] = \'pairs\'' in msg
    assert "needs 4 or 6 players" in msg


def test_lineup_must_divide_the_seats(tmp_path):
    msg = error_of(tmp_path, BASE.replace('lineup = ["random", "random:swap_prob=1"]',
                                          'lineup = ["random", "random", "random"]'))
    assert "3 entries" in msg and "2 seats" in msg


def test_not_toml(tmp_path):
    msg = error_of(tmp_path, "name = \n")
    assert "not valid TOML" in msg


def test_validate_command(tmp_path):
    good = write(tmp_path, BASE + '[grid]\n"rules.swap_timing" = ["before_draw", "after_draw"]\n')
    r = subprocess.run([sys.executable, "-c", "from briscasim.cli.main import main; main()",
                        "validate", str(good)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "2 cells" in r.stdout and "cell 1: brisca-2 [swap_timing=after_draw]" in r.stdout
    bad = write(tmp_path, BASE.replace("brisca-2", "nope"), "bad.toml")
    r = subprocess.run([sys.executable, "-c", "from briscasim.cli.main import main; main()",
                        "validate", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2
    assert "bad.toml: variants[0].preset = 'nope'" in r.stderr and "Traceback" not in r.stderr


def test_parse_spec_from_a_dict():
    spec = parse_spec(dict(name="d", seed=3, deals=10, seats=["random"],
                           variants=[dict(preset="brisca-3-faceup")]))
    assert spec.cells[0].rules.players == 3 and spec.chunk == 10


def test_the_ladder_plays_every_built_in_strategy():
    """The ladder's specs (``briscasim research ladder``) pair every built-in strategy, the
    cheating references included, in every variant they rate."""
    root = Path(__file__).resolve().parent.parent / "experiments"
    played = {}
    for name in ("ladder.toml", "ladder_search.toml"):
        for cell in load_spec(root / name).cells:
            played.setdefault(cell.variant, set()).update(s.split(":")[0] for s in cell.lineup)
    assert set(played) == {"brisca-2", "briscola-2", "brisca-4-pairs"}
    for variant, names in played.items():
        assert names == set(REGISTRY), variant
