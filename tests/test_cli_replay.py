"""Replays: simulated deals bit for bit, typed-in deals, and ``briscasim replay``."""
import json
import subprocess
import sys

import pytest

from briscasim.cli.main import main
from briscasim.game import IllegalAction, action_code
from briscasim.replay import deal_record, load_deal_file, replay_deal, replay_match, replay_typed
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk


def run(argv, capsys):
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    try:
        main(argv)
        code = 0
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("preset,specs,deals", [
    ("brisca-2", ["random"], (0, 1, 123)),
    ("brisca-2", ["greedy", "random:swap_prob=0.5"], (3, 77)),
    ("brisca-2-blackhand", ["random:swap_prob=0.5", "greedy"], (5, 6)),
    ("brisca-3-faceup", ["random:swap_prob=0.5"], (2, 40)),
    ("brisca-4-pairs-signals", ["greedy", "random", "greedy", "random:swap_prob=1"], (9,)),
    ("briscola-6", ["random"], (11,)),
    ("brisca-2", ["ismcts:iterations=30", "greedy"], (4,)),
])
def test_replay_equals_the_batch_record(preset, specs, deals):
    rules = Rules.preset(preset)
    lineup = Lineup.build(rules, specs)
    n = rules.players
    for i in deals:
        batch = play_chunk(rules, lineup, 17, i, 1, n)
        for rot in range(n):
            deal = replay_deal(rules, lineup, 17, i, rot)
            assert deal.over
            assert deal_record(deal).tolist() == batch[rot].tolist(), (preset, i, rot)


@pytest.mark.slow     # the match kernel
def test_replay_match_equals_the_batch_record():
    rules = Rules.preset("brisca-4-pairs", match="points 121")
    lineup = Lineup.build(rules, ["random", "greedy", "random", "greedy"])
    for i in (0, 5):
        batch = play_chunk(rules, lineup, 3, i, 1, 4)
        for rot in range(4):
            m = replay_match(rules, lineup, 3, i, rot)
            assert m.record.tolist() == batch[rot].tolist()
            assert len(m.deals) == batch[rot][1]


def test_typed_deal_reproduces_a_simulated_one():
    rules = Rules.preset("brisca-2")
    sim = replay_deal(rules, Lineup.build(rules, "random:swap_prob=1"), 1, 8)
    typed = replay_typed(rules, " ".join(map(str, _codes(sim.deck))),
                         [action_code(a) for a in sim.actions])
    assert typed.log() == sim.log()
    assert typed.to_dict() == sim.to_dict()


def _codes(ids):
    from briscasim.cards import card_code
    return [card_code(c) for c in ids]


def test_typed_deal_errors_name_the_place():
    rules = Rules.preset("brisca-2")
    deck = _codes(rules.deck_ids)
    with pytest.raises(IllegalAction, match=r"missing .*Ao"):
        replay_typed(rules, deck[1:])
    with pytest.raises(IllegalAction, match=r"repeated 3o"):
        replay_typed(rules, [deck[1]] + deck[1:])
    with pytest.raises(Exception, match=r"deck: unknown card code 'Zz'"):
        replay_typed(rules, ["Zz"] + deck[1:])
    # seat 0 holds the first, third and fifth cards: the second card is seat 1's
    with pytest.raises(IllegalAction, match=r"action 1 \('" + deck[1] + r"'\)"):
        replay_typed(rules, deck, [deck[1]])


def test_deal_file_round_trip(tmp_path, capsys):
    code, out, _ = run(["replay", "--preset", "brisca-4-pairs", "--strategy", "greedy",
                        "--seed", "3", "--deal", "12", "--json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert d["seed"] == 3 and d["deal_index"] == 12 and len(d["strategies"]) == 4
    f = tmp_path / "deal.json"
    f.write_text(out)
    again = load_deal_file(f)
    assert again.to_dict()["tricks"] == d["tricks"]
    assert again.outcome.to_dict() == d["outcome"]
    t = tmp_path / "deal.toml"
    t.write_text(f'preset = "brisca-4-pairs"\ndeck = {json.dumps(d["deck"])}\n'
                 f'actions = "{" ".join(d["actions"][:5])}"\n')
    code, out, _ = run(["replay", "--file", str(t)], capsys)
    assert code == 0
    assert "to act: seat" in out and "legal:" in out


def test_cli_replay_text_log(capsys):
    code, out, _ = run(["replay", "--preset", "brisca-2", "--strategy", "random", "--seed",
                        "1", "--deal", "123"], capsys)
    assert code == 0
    assert out.startswith("deal 123 of seed 1, rotation 0: seat 0 random, seat 1 random")
    for part in ("face-up card:", "seat 0 (side 0) hand:", "trick  1:", "trick 20:",
                 "draws:", "result:"):
        assert part in out


def test_cli_replay_typed_deck(capsys):
    rules = Rules.preset("brisca-2")
    sim = replay_deal(rules, Lineup.build(rules, "random"), 1, 2)
    code, out, _ = run(["replay", "--deck", " ".join(_codes(sim.deck)), "--actions",
                        " ".join(action_code(a) for a in sim.actions)], capsys)
    assert code == 0
    assert out.strip() == sim.log()


def test_cli_replay_match(capsys):
    code, out, _ = run(["replay", "--rule", "match=deals 2", "--deal", "4"], capsys)
    assert code == 0
    assert "== match 4, deal 1" in out and "match result:" in out


@pytest.mark.parametrize("argv,message", [
    (["--preset", "brisca-9"], "unknown preset 'brisca-9'"),
    (["--rule", "players=7"], "players = 7"),
    (["--rule", "colour=red"], "unknown rule option 'colour'"),
    (["--rule", "swap_timing=never"], "swap_timing = 'never'"),
    (["--strategy", "clever"], "unknown strategy 'clever'"),
    (["--deck", "Ao 3o Xo"], "deck: unknown card code 'Xo'"),
    (["--deck", "Ao Ao"], "repeated Ao"),
    (["--deck", "Ao", "--strategy", "random"], "--strategy"),
    (["--actions", "Ao"], "--actions needs --deck"),
    (["--rotation", "2"], "rotation = 2"),
    (["--deal", "-1"], "deal = -1"),
    (["--file", "/nonexistent/deal.json"], "/nonexistent/deal.json: cannot read"),
])
def test_cli_replay_bad_input(argv, message, capsys):
    code, out, err = run(["replay", *argv], capsys)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_replay_bad_files(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(["replay", "--file", str(bad)], capsys)
    assert code == 2 and "bad.json: not valid JSON" in err
    nodeck = tmp_path / "nodeck.toml"
    nodeck.write_text('preset = "brisca-2"\n')
    code, _, err = run(["replay", "--file", str(nodeck)], capsys)
    assert code == 2 and "nodeck.toml: missing key 'deck'" in err
    wrong = tmp_path / "wrong.toml"
    rules = Rules.preset("brisca-2")
    wrong.write_text(f'deck = "{" ".join(_codes(rules.deck_ids))}"\nactions = "swap"\n')
    code, _, err = run(["replay", "--file", str(wrong)], capsys)
    assert code == 2 and "wrong.toml: action 1 ('swap')" in err


def test_console_script_bad_input_has_no_traceback():
    p = subprocess.run([sys.executable, "-c", "from briscasim.cli.main import main; main()",
                        "replay", "--deck",
                        "Ao 3o", "--preset", "brisca-6", "--rule", "deck=spanish40"],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert "do not divide among players = 6" in p.stderr
    assert "Traceback" not in p.stderr
