"""``briscasim analyze``: sampled values with intervals, exact values where the rest of the
deal is perfect information, and bad input."""
import json

import numpy as np

from briscasim.position import analyze, deal_at
from briscasim.engine import layout as L
from briscasim.game import Deal, action_code
from briscasim.replay import replay_deal
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
