"""``briscasim analyze``: sampled values with intervals, exact values where the rest of the
deal is perfect information, and bad input."""
import json

import numpy as np
import pytest

from briscasim.position import analyze, deal_at, typed_position
from briscasim.engine import layout as L
from briscasim.game import Deal, action_code
from briscasim.replay import load_deal_file, replay_deal
from briscasim.rules import Rules
from test_cli_simulate import run


def test_sampled_values_of_a_simulated_position(capsys):
    argv = ["analyze", "--preset", "brisca-2", "--strategy", "greedy", "--seed", "1",
            "--deal", "3", "--at", "6", "--iterations", "128", "--json"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    d = json.loads(out)
    rules = Rules.preset("brisca-2")
    pos = deal_at(replay_deal(rules, ["greedy"], 1, 3), 6)
    assert d["position"]["seat"] == pos.turn and d["position"]["at"] == 6
    assert d["position"]["hand"] == [action_code(c) for c in pos.hand(pos.turn)]
    assert sorted(a["action"] for a in d["actions"]) == sorted(pos.legal_codes())
    for a in d["actions"]:
        assert set(a) == {"action", "score", "score_ci95", "margin", "margin_ci95", "exact"}
        assert 0 <= a["score"] <= 1 and a["exact"] is False
        assert a["score_ci95"][0] <= a["score"] <= a["score_ci95"][1]
        assert a["margin_ci95"][0] <= a["margin"] <= a["margin_ci95"][1]
        assert -120 <= a["margin"] <= 120
    # the same seed gives the same figures; the text form lists every action
    assert json.loads(run(argv, capsys)[1]) == d
    code, text, _ = run(argv[:-1], capsys)
    assert code == 0 and "95% interval" in text
    assert all(a["action"] in text for a in d["actions"])


def _outcome(deal: Deal, side: int) -> tuple[float, int]:
    p = deal.points
    margin = p[side] - p[1 - side]
    w = deal.outcome.winner
    return (0.5 if w is None else float(w == side)), margin


def _best(deal: Deal, side: int) -> tuple[float, int]:
    """Minimax by brute force over copies of the deal: (score, margin) for ``side``, the
    side maximising (score, margin) and the other minimising it."""
    if deal.over:
        return _outcome(deal, side)
    values = []
    for a in deal.legal_actions():
        child = Deal(deal.rules, deal.deck)
        for x in deal.actions + [a]:
            child.play(x)
        values.append(_best(child, side))
    mine = deal.rules.side_of[deal.turn] == side
    return max(values) if mine else min(values)


def test_exact_values_once_the_stock_is_empty():
    rules = Rules.preset("brisca-2")
    for index in (0, 1, 2):
        full = replay_deal(rules, ["random"], 5, index)
        # the first position with the stock empty, a few cards from the end
        at = next(k for k in range(len(full.actions))
                  if deal_at(full, k).state[L.S_TO_DRAW] == 0
                  and len(full.actions) - k <= 5)
        pos = deal_at(full, at)
        result = analyze(pos, iterations=10)
        side = rules.side_of[pos.turn]
        assert result.actions and all(a.exact for a in result.actions)
        for a in result.actions:
            child = Deal(rules, pos.deck)
            for x in pos.actions + [a.action]:
                child.play(x)
            score, margin = _best(child, side)
            assert (a.score, a.margin) == (score, margin), (index, action_code(a.action))
            assert a.score_ci95 == (score, score)


def test_bad_input_is_one_line_and_status_2(tmp_path, capsys):
    rules = Rules.preset("brisca-2")
    full = replay_deal(rules, ["random"], 1, 0)
    deck = " ".join(action_code(c) for c in full.deck)
    actions = [action_code(a) for a in full.actions]
    twice = deck.replace(deck.split()[1], deck.split()[0])
    cases = {
        "past.toml": (f'preset = "brisca-2"\ndeck = "{deck}"\nactions = "{" ".join(actions)}"\n',
                      "999", "past the end"),
        "twice.toml": (f'preset = "brisca-2"\ndeck = "{twice}"\n', "0", "repeated"),
        "played_twice.toml": (f'preset = "brisca-2"\ndeck = "{deck}"\nactions = '
                              f'"{actions[0]} {actions[1]} {actions[0]}"\n', "1", "action 3"),
    }
    for name, (text, at, words) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        code, out, err = run(["analyze", "--file", str(path), "--at", at], capsys)
        assert code == 2, (name, err)
        assert words in err and len(err.strip().splitlines()) == 1, (name, err)
    code, _, err = run(["analyze", "--preset", "brisca-2", "--seed", "1", "--at",
                        str(len(actions))], capsys)
    assert code == 2 and "over" in err
    code, _, err = run(["analyze", "--preset", "brisca-2", "--at", "0", "--iterations", "0"],
                       capsys)
    assert code == 2 and "--iterations" in err


def test_the_budget_in_seconds_stops_sampling():
    pos = deal_at(replay_deal(Rules.preset("brisca-4-pairs"), ["random"], 2, 1), 3)
    result = analyze(pos, iterations=10 ** 7, seconds=0.2)
    assert 0 < result.worlds < 10 ** 7
    assert np.isfinite([a.score for a in result.actions]).all()


def _typed_in(pos: Deal) -> list[str]:
    """The typed-in options of ``pos``, for the seat to act: what it may know (the plays
    and swaps with their seats, its own declined offers, its hand, the card turned)."""
    history, replay = [], Deal(pos.rules, pos.deck)
    for a in pos.actions:
        if a != L.ACTION_KEEP or replay.turn == pos.turn:
            history.append(f"{replay.turn}:{action_code(a)}")
        replay.play(a)
    return ["--preset", pos.rules.name, "--seat", str(pos.turn),
            "--hand", " ".join(action_code(c) for c in pos.hand(pos.turn)),
            "--face-up", action_code(pos.turned), "--played", " ".join(history)]


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs", "brisca-3-hidden"])
def test_a_typed_in_position_is_what_the_seat_knows(preset):
    rules = Rules.preset(preset)
    for index in range(4):
        full = replay_deal(rules, ["random"], 9, index)
        for at in range(0, len(full.actions), 3):
            pos = deal_at(full, at)
            if pos.phase != "play":
                continue
            argv = _typed_in(pos)
            typed = typed_position(rules, pos.turn, argv[5], argv[7], argv[9])
            mine, real = typed.view(pos.turn), pos.view(pos.turn)
            assert (mine.public == real.public).all(), (index, at)
            assert sorted(mine.hand_cards) == sorted(real.hand_cards)
            assert sorted(typed.legal_actions()) == sorted(pos.legal_actions())


def test_typed_in_analysis_on_the_command_line(capsys):
    rules = Rules.preset("brisca-2")
    pos = deal_at(replay_deal(rules, ["greedy"], 1, 3), 9)
    argv = ["analyze", *_typed_in(pos), "--iterations", "128", "--json"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["position"]["seat"] == pos.turn and d["worlds"] == 128
    assert sorted(d["position"]["hand"]) == sorted(action_code(c) for c in pos.hand(pos.turn))
    assert sorted(a["action"] for a in d["actions"]) == sorted(pos.legal_codes())
    # the worlds are sampled from what the seat knows alone: the same figures as the
    # position of the real deal
    assert d["actions"] == analyze(pos, 128).to_dict()["actions"]


@pytest.mark.parametrize("options, words", [
    (["--hand", "Ao 3c 3c", "--face-up", "4o"], "--hand 'Ao 3c 3c': 3c is given twice"),
    (["--hand", "Ao 3c 5e", "--face-up", "4o", "--played", "0:Ao"],
     "--hand 'Ao 3c 5e': Ao is also in --played"),
    (["--hand", "Ao 3c", "--face-up", "4o", "--played", "0:Rb"],
     "--hand 'Ao 3c': 2 cards, but seat 1 holds 3"),
    (["--hand", "Ao 3c 5e", "--face-up", "4o", "--played", "0:Rb 0:2b"],
     "--played '0:2b' (item 2): seat 1 is to play, not seat 0"),
    (["--hand", "Ao 3c 5e", "--face-up", "4o", "--played", "0:Rb 1:2b 0:7c 1:4o"],
     "--played '1:4o' (item 4): seat 1 cannot hold 4o"),
    (["--hand", "Ao 3c 5e", "--face-up", "4o", "--played", "0:Rb 1:2b"],
     "--seat 1: after --played it is seat 0 to act"),
    (["--hand", "Ao 3c 9e", "--face-up", "4o"], "9e is not in play in brisca-2"),
    (["--hand", "Ao 3c 5e", "--face-up", "4o", "--played", "7:Rb"], "--played '7:Rb'"),
    (["--hand", "Ao 3c 5e", "--face-up", "Xo"], "--face-up: unknown card code 'Xo'"),
    (["--hand", "Ao 3c 5e"], "needs --face-up too"),
])
def test_a_typed_in_position_that_cannot_be_is_one_line(options, words, capsys):
    code, out, err = run(["analyze", "--preset", "brisca-2", "--seat", "1", *options], capsys)
    assert code == 2 and words in err, err
    assert len(err.strip().splitlines()) == 1 and not out


def test_a_typed_in_chiamata_position_is_refused_in_one_line(capsys):
    code, out, err = run(["analyze", "--preset", "chiamata-5", "--seat", "0", "--hand",
                          "Ao 3o Ro Co So 7o 6o 5o", "--face-up", "4o"], capsys)
    assert code == 2 and "a typed-in position has no auction" in err and "--file" in err
    assert len(err.strip().splitlines()) == 1 and not out


def test_a_chiamata_deal_from_a_file_in_the_auction_at_the_call_and_in_play(tmp_path, capsys):
    code, out, err = run(["replay", "--preset", "chiamata-5", "--strategy", "greedy",
                          "--seed", "3", "--json"], capsys)
    assert code == 0, err
    path = tmp_path / "deal.json"
    path.write_text(out)
    deal = load_deal_file(path)
    call = next(i for i, a in enumerate(deal.actions) if a >= L.ACTION_CALL)
    for at, phase in ((0, "auction"), (call, "call"), (call + 1, "play")):
        code, out, err = run(["analyze", "--file", str(path), "--at", str(at),
                              "--iterations", "16", "--json"], capsys)
        assert code == 0, err
        result = json.loads(out)
        assert result["position"]["phase"] == phase and result["worlds"] == 16
        assert [a["action"] for a in result["actions"]] == result["position"]["legal"]
        assert all(0.0 <= a["score"] <= 1.0 for a in result["actions"])
        assert len(result["position"]["auction"]) == min(at, call)


def test_ties_with_the_best_and_sampling_until_it_stands_apart():
    pos = deal_at(replay_deal(Rules.preset("brisca-4-pairs"), ["random"], 2, 1), 3)
    result = analyze(pos, iterations=256)
    assert result.tied[0] == result.ranked[0].action
    assert set(result.tied) <= {a.action for a in result.actions}
    assert result.to_dict()["tied_with_best"] == [action_code(a) for a in result.tied]
    assert all(0 <= a.score_ci95[0] <= a.score <= a.score_ci95[1] <= 1 for a in result.actions)
    apart = analyze(pos, iterations=4096, separate=True)
    assert len(apart.tied) == 1 or apart.worlds == 4096
    # the worlds are those of a run of as many worlds
    assert apart.to_dict() == analyze(pos, iterations=apart.worlds).to_dict()
