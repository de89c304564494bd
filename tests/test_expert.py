"""``expert``, ``hoard`` and ``counter`` in crafted positions; expert's exact endgame against
the alpha-beta solver; expert's strength against greedy on duplicate deals, with two players
and more."""

import pytest

from briscasim.analysis.compare import duplicate_scores
from briscasim.cards import card_id
from briscasim.engine import layout as L
from briscasim.rules import Rules
from briscasim.strategies.expert import endgame_value
import repo_scripts
from test_greedy import choice, crafted
from test_solver import _positions, _solve

# trump is oros (o) below: the face-up card is 4o


@pytest.mark.parametrize("spec, lead, hand, expected, why", [
    ("expert", "Ac", ["2o", "6e", "Re"], "2o", "a load is worth a low trump"),
    ("expert", "5c", ["2o", "6e", "Re"], "6e", "a blank is not worth a trump: throw a blank"),
    ("expert", "4c", ["6e", "Ac", "2o"], "Ac", "a plain win banks the most points"),
    ("hoard", "Rc", ["2o", "6e", "Sb"], "6e", "a 4-point trick is not worth a hoarded trump"),
    ("hoard", "3c", ["5o", "2o", "6e"], "2o", "a load is: the weakest trump that wins"),
    ("hoard", "4c", ["6e", "Ac", "2o"], "Ac", "a plain win banks the most points"),
    ("counter", "Rc", ["2o", "6e", "Sb"], "2o", "a 4-point trick is worth a low trump"),
    ("counter", "Rc", ["Ao", "6e", "Sb"], "6e", "the trump A waits for 10 points"),
])
def test_second_hand(spec, lead, hand, expected, why):
    deal = crafted("brisca-2", [["Cb", "7b", lead], hand], "4o")
    deal.play(lead)
    assert choice(deal, spec) == expected, why


def test_pairs_load_a_partner_sure_to_win():
    # the partner led the trump A: nothing beats it, so seat 2 adds its 3 of espadas
    deal = crafted("brisca-4-pairs", [["Ao", "6c", "7c"], ["5e", "6e", "7e"],
                                      ["2o", "3e", "6b"], ["5b", "7b", "4b"]], "4o")
    deal.play("Ao")
    deal.play("5e")
    assert choice(deal, "expert") == "3e"


def test_pairs_bank_an_ace_an_opponent_behind_is_unlikely_to_trump():
    # seat 1 follows 4c with a partner last: greedy banks only a sure win, expert weighs the
    # chance that seat 2 trumps an 11-point trick
    deal = crafted("brisca-4-pairs", [["4c", "6c", "7c"], ["Ac", "6e", "Rb"],
                                      ["5e", "7e", "Cb"], ["5b", "7b", "4b"]], "4o")
    deal.play("4c")
    assert choice(deal, "greedy") == "6e"
    assert choice(deal, "expert") == "Ac"


@pytest.mark.parametrize("preset", ["brisca-4-pairs", "brisca-3-remove2"])
def test_last_hand_trumps_a_load(preset):
    # the seat playing last takes a 3 on the table with its low trump
    n = 4 if preset == "brisca-4-pairs" else 3
    hands = [["3c", "6c", "7c"], ["5e", "6e", "7e"], ["Cb", "Re", "Sb"], ["5o", "5b", "6b"]]
    hands = hands[:n - 1] + [hands[3]]
    deal = crafted(preset, hands, "4o")
    for card in ("3c", "5e", "Cb")[:n - 1]:
        deal.play(card)
    assert choice(deal, "expert") == "5o"


def test_chance_counts_cards_known_in_the_hands_behind():
    # two cards out of sight, one of them a beater, one slot to fill besides the known cards
    from briscasim.strategies.expert import _none_among
    ace, trump_ace = 1 << card_id("Ae"), 1 << card_id("Ao")
    trumps = 0xFFF << (12 * (card_id("Ao") // 12))
    assert _none_among(2, 1.0, 1, 0, ace, trumps, 1.0) == pytest.approx(0.5)
    # a plain beater known to be behind beats for sure; a known trump in proportion to ruff
    assert _none_among(2, 1.0, 2, ace, ace, trumps, 1.0) == 0.0
    assert _none_among(2, 1.0, 2, trump_ace, trump_ace, trumps, 0.4) == pytest.approx(0.3)
    # a known card that does not beat only takes a slot
    assert _none_among(2, 1.0, 2, trump_ace, ace, trumps, 0.4) == pytest.approx(0.5)


def test_three_players_no_ace_under_a_trump_known_to_be_behind():
    # seat 2 took the face-up Ae (the trump A) by the swap; seat 1 follows a 2 of copas with
    # Cb, Ac, Rc and seat 2 behind: expert wins with the king and keeps the ace, which it
    # banks once the Ae is thought to be anywhere out of sight
    from briscasim.game import Deal
    from briscasim.rules import Rules
    deal = Deal.from_seed(Rules.preset("brisca-3-remove2"), 7, 30)
    for a in ["5b", "6o", "So", "5o", "4c", "Ao", "swap", "3o", "Se", "7o", "7b", "6c", "5c",
              "2c"]:
        deal.play(a)
    ace = card_id("Ae")
    assert deal.turn == 1 and deal.state[L.S_KNOWN + ace] == 2
    assert choice(deal, "expert") == "Rc"
    deal.state[L.S_KNOWN + ace] = L.KNOWN_UNSEEN
    assert choice(deal, "expert") == "Ac"


def test_hoard_leads_plain_before_trump():
    deal = crafted("brisca-2", [["2o", "Re", "5o"], ["5c", "6c", "7c"]], "4o")
    assert choice(deal, "hoard") == "Re"


def test_counter_leads_plain_before_trump():
    deal = crafted("brisca-2", [["2o", "Re", "5o"], ["5c", "6c", "7c"]], "4o")
    assert choice(deal, "counter") == "Re"


@pytest.mark.parametrize("preset, n", [("brisca-2", 8), ("brisca-2-blackhand", 150)])
def test_endgame_matches_the_solver(preset, n):
    # 2 players with 6 cards left: the stock is empty and every card known to both. Under
    # tie = last_trick (brisca-2-blackhand) a 60-60 deal is won by the last trick's taker:
    # worth +-1000 with a margin of 0, a draw (0) under tie = draw
    r, positions = _positions(preset, 6, n, seed=3)
    assert len(positions) == n
    ties = 0
    for state in positions:
        seat = state[L.S_TURN]
        public = state[:L.PUBLIC_LEN]
        hand = state[L.S_HANDS + seat * L.MAX_HAND:L.S_HANDS + seat * L.MAX_HAND + 3]
        _, actions, values = _solve(r, state)
        for a, v in zip(actions, values):
            assert endgame_value(r, public, hand, seat, a) == pytest.approx(v)
            ties += abs(v) == 1000
    if preset == "brisca-2-blackhand":
        assert ties, "no position decides a 60-60 tie"


@pytest.mark.parametrize("preset, floor", [("brisca-2", 0.58), ("brisca-4-pairs", 0.57),
                                           ("brisca-3-remove2", 0.37), ("briscola-2-31", 0.56)])
def test_expert_beats_greedy(preset, floor):
    # duplicate deals, every rotation (at three players expert against two greedy players, a
    # fair share of 1/3): the measured scores are quoted in the module docstring of
    # scripts/tune_expert.py; 4,000 deals give an interval of about +-0.013
    a, _ = duplicate_scores(Rules.preset(preset), "expert", "greedy", 4000, 7)
    assert a.mean() > floor


def test_expert_gains_among_greedy_chiamata_players():
    # chiamata-5, duplicate deals (the lineup rotated over the five seats): game points sum to
    # zero over the seats, so greedy in expert's place would average zero
    from briscasim.rules import Rules
    from briscasim.simulate import simulate
    rules = Rules.preset("chiamata-5")
    res = simulate(rules, ["expert"] + ["greedy"] * 4, 4000, 3, duplicate=True, workers=1)
    expert = res.by_strategy[0]
    assert expert["strategy"] == "expert"
    assert expert["mean_points_ci95"][0] > 0


def test_tuning_script_runs_and_keeps_player_counts_apart(capsys):
    import json
    tune = repo_scripts.load("tune_expert")
    tune.main(["--preset", "brisca-4-pairs", "--deals", "100", "--rounds", "1",
               "--check-deals", "100"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert set(lines[0]["start"]) == set(tune.MANY_STEPS)
    assert lines[-1]["preset"] == "brisca-4-pairs" and lines[-1]["deals"] == 100
    with pytest.raises(SystemExit, match="apart"):
        tune.main(["--preset", "brisca-2", "--preset", "brisca-4-pairs", "--deals", "10"])
    with pytest.raises(SystemExit, match="Chiamata apart"):
        tune.main(["--preset", "chiamata-5", "--preset", "brisca-4-pairs", "--deals", "10"])


def test_tuning_scores_chiamata_in_game_points():
    # greedy in expert's place: every seat greedy, and game points sum to zero over the seats
    tune = repo_scripts.load("tune_expert")
    assert tune.expert_scores("chiamata-5", "greedy", 200, 5) == pytest.approx(0.0)
    assert tune.expert_scores("chiamata-5", "expert", 2000, 5).mean() > 0
