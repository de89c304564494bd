"""Briscola Chiamata (docs/rules.md): rule scenarios from hand-built decks through the engine.

Every deal here is dealt from an explicit deck order (:func:`deckbuild.deck_order`: the hands
wanted, the rest filled with the weakest cards), bid, called and played through the step API.
"""
import numpy as np
import pytest

from briscasim import cards as C
from briscasim.engine import core
from briscasim.engine import layout as L
from briscasim.errors import IllegalAction
from briscasim.game import Deal
from briscasim.rules import PRESETS, Rules, RulesError

from deckbuild import deck_order, new_deal, play_out

CH = Rules.preset("chiamata-5")
RANKS = ["bid:" + r for r in "A3RCS7654"]


def points_bids(low, high=120):
    return [f"bid:{p}" for p in range(low, high + 1)]


def run(deal, *codes):
    for c in codes:
        deal.play(c)
    return deal


def lowest(deal):
    """A fixed play policy: the lowest legal card id."""
    return min(deal.legal_actions())


def record(deal):
    out = np.zeros(L.CHIAMATA_RECORD_LEN, np.int32)
    core.write_record(deal._r, deal.state, out)
    return out


def side_points(deal, caller, partner):
    """The caller's side's card points, summed from the tricks as they were won."""
    side = {caller, partner}
    return sum(t.points for t in deal.tricks if t.winner in side)


# ---- the deal (11.6.1) --------------------------------------------------------------------

def test_all_forty_cards_dealt_one_at_a_time_from_the_eldest_no_stock_no_trump():
    deck = [C.card_code(c) for c in np.random.default_rng(5).permutation(CH.deck_ids)]
    deal = Deal(CH, deck)
    for s in range(5):
        assert deal.hand(s) == [C.card_id(c) for c in deck[s::5]]
    assert (deal.phase, deal.turn, deal.trump, deal.called) == ("auction", 0, -1, None)
    assert not any(e.kind in ("turned", "draw") for e in deal.events)
    known = deal.view(0).public[L.S_KNOWN:L.S_KNOWN + L.N_CARD_IDS]
    assert L.KNOWN_FACE_UP not in known
    assert int(deal.state[L.S_TO_DRAW]) == 0 and int(deal.state[L.S_N_TRICKS]) == 8


# ---- the auction (11.1, 11.6.2, 11.6.3) -----------------------------------------------------

def test_bids_run_from_the_ace_to_the_two_then_points_and_may_jump():
    deal = new_deal(CH)
    assert deal.legal_codes() == ["pass"] + RANKS + points_bids(61)
    deal.play("bid:R")
    assert deal.turn == 1
    assert deal.legal_codes() == ["pass"] + RANKS[3:] + points_bids(61)
    deal.play("bid:75")       # a jump
    assert deal.legal_codes() == ["pass"] + points_bids(76)
    with pytest.raises(IllegalAction):
        deal.play("bid:75")   # not above the standing bid
    with pytest.raises(IllegalAction):
        deal.play("bid:S")


def test_a_pass_is_final_and_the_turn_skips_seats_that_passed():
    deal = run(new_deal(CH), "bid:A", "pass", "bid:3", "pass", "pass")
    assert deal.turn == 0
    deal.play("bid:R")
    assert deal.turn == 2            # seats 1, 3 and 4 have passed
    deal.play("bid:C")
    assert deal.turn == 0
    deal.play("pass")                # seat 2 is the last bidder, the other four passed
    assert deal.phase == "call" and deal.turn == 2
    assert deal.auction == [(0, "bid:A"), (1, "pass"), (2, "bid:3"), (3, "pass"), (4, "pass"),
                            (0, "bid:R"), (2, "bid:C"), (0, "pass")]


def test_if_the_first_four_pass_the_fifth_may_bid_and_is_the_caller_at_once():
    deal = run(new_deal(CH), "pass", "pass", "pass", "pass")
    assert deal.turn == 4 and "bid:A" in deal.legal_codes()
    deal.play("bid:A")
    assert deal.phase == "call" and deal.turn == 4


def test_with_the_top_bid_standing_the_others_are_asked_and_can_only_pass():
    deal = run(new_deal(CH), "bid:120")
    for seat in (1, 2, 3, 4):
        assert deal.turn == seat and deal.legal_codes() == ["pass"]
        deal.play("pass")
    assert deal.phase == "call" and deal.turn == 0


def test_rank_only_stops_at_the_plain_two():
    deal = new_deal(Rules.preset("chiamata-5", auction="rank_only"))
    assert deal.legal_codes() == ["pass"] + RANKS + ["bid:61"]
    deal.play("bid:61")
    assert deal.legal_codes() == ["pass"]


def test_min_points_is_the_rank_contract_target_and_the_lowest_point_bid():
    deal = new_deal(Rules.preset("chiamata-5", min_points=70))
    assert deal.legal_codes() == ["pass"] + RANKS + points_bids(70)
    deal.play("bid:R")
    assert [e for e in deal.events if e.kind == "bid"][-1].b == 70
    pts = new_deal(Rules.preset("chiamata-5-points", min_points=70))
    assert pts.legal_codes() == ["pass"] + points_bids(70)


def test_everybody_passes_the_deal_is_thrown_in_and_scores_nothing():
    deal = run(new_deal(CH), *["pass"] * 5)
    assert deal.over and deal.outcome.winner is None
    k = deal.contract
    assert (k.caller, k.bid, k.multiplier, k.game_points) == (None, None, 0, (0,) * 5)
    rec = record(deal)
    assert rec[L.REC_WINNER] == L.DRAW and rec[L.REC_SUCCESS] == -1
    assert rec[L.REC_CONTRACT] == -1 and not rec[L.REC_GAME_POINTS:].any()


# ---- reopen_61 (11.6.4) -----------------------------------------------------------------

SUBITO = Rules.preset("chiamata-5-subito-al-due")


def test_subito_al_due_bids_points_only_and_calls_a_two():
    deal = new_deal(SUBITO, hands=[["2o"]])
    assert deal.legal_codes() == ["pass"] + points_bids(61)
    run(deal, "bid:64", "pass", "pass", "pass", "pass")
    assert deal.legal_codes() == ["call:2o", "call:2c", "call:2e", "call:2b"]


def test_reopen_asks_eldest_first_and_the_first_to_accept_bids_the_two_at_min_points():
    deal = run(new_deal(SUBITO), *["pass"] * 5)
    assert (deal.phase, deal.turn) == ("reopen", 0)
    assert deal.legal_codes() == ["pass", "bid:61"]
    run(deal, "pass", "bid:61")
    assert (deal.phase, deal.turn) == ("auction", 2)
    assert [e.a for e in deal.events if e.kind == "reopen"] == [0, 1]
    run(deal, "pass", "pass", "pass")
    assert deal.turn == 0 and "bid:62" in deal.legal_codes()   # earlier passes notwithstanding
    deal.play("pass")
    assert deal.phase == "call" and deal.turn == 1
    assert [e.b for e in deal.events if e.kind == "bid"] == [61]


def test_five_refusals_throw_the_deal_in():
    deal = run(new_deal(SUBITO), *["pass"] * 10)
    assert deal.over and deal.contract.caller is None


# ---- the call (11.1, 11.6.6) -------------------------------------------------------------

def test_the_call_names_the_trump_and_the_card_of_the_bid_rank_whose_holder_is_secret():
    deal = new_deal(CH, hands=[[], [], ["Ro"]])
    run(deal, "bid:R", *["pass"] * 4)
    assert deal.legal_codes() == ["call:Ro", "call:Rc", "call:Re", "call:Rb"]
    deal.play("call:Ro")
    assert (deal.phase, deal.trump, deal.called, deal.turn) == ("play", 0, C.card_id("Ro"), 0)
    assert L.S_HOLDER >= L.PUBLIC_LEN and deal.state[L.S_HOLDER] == 2
    for s in range(5):
        assert deal.view(s).public[L.S_PARTNER] == -1
    while deal.turn != 2 or C.card_id("Ro") not in deal.legal_actions():
        deal.play(max(a for a in deal.legal_actions() if a != C.card_id("Ro")))
    deal.play("Ro")
    while deal.current_trick:
        deal.play(lowest(deal))
    assert all(deal.view(s).public[L.S_PARTNER] == 2 for s in range(5))


def test_a_points_auction_calls_any_card():
    deal = run(new_deal(Rules.preset("chiamata-5-points")), "bid:70", *["pass"] * 4)
    assert sorted(deal.legal_actions()) == [L.ACTION_CALL + c for c in CH.deck_ids]


def test_without_self_call_the_caller_may_not_call_his_own_card():
    rules = Rules.preset("chiamata-5", self_call=False)
    deal = run(new_deal(rules, hands=[["Ro", "Rc"]]), "bid:R", *["pass"] * 4)
    assert deal.legal_codes() == ["call:Re", "call:Rb"]
    with pytest.raises(IllegalAction):
        deal.play("call:Ro")


def test_without_self_call_a_caller_holding_every_card_he_could_call_calls_one_of_them():
    rules = Rules.preset("chiamata-5", self_call=False)
    deal = run(new_deal(rules, hands=[["Ro", "Rc", "Re", "Rb"]]), "bid:R", *["pass"] * 4)
    assert deal.legal_codes() == ["call:Ro", "call:Rc", "call:Re", "call:Rb"]


@pytest.mark.parametrize("options", [
    {}, {"min_points": 75}, {"auction": "rank_only", "min_points": 70},
    {"auction": "points_only"}, {"auction": "subito_al_due", "all_pass": "reopen_61"},
    {"self_call": False}, {"self_call": False, "auction": "points_only"}])
def test_the_legal_bids_and_calls_of_random_auctions_follow_the_rules(options):
    """At every decision of random auctions the legal list is, in this order: a pass, then
    every bid above the standing one that the auction has (ranks A..4 in the rank auctions,
    the point contracts from min_points, only the plain two at min_points in rank_only); at
    the call the cards of the contract's rank in the deck (any card after a points auction),
    not the caller's own without self_call unless he holds them all."""
    rules = Rules.preset("chiamata-5", **options)
    low = rules.min_points
    ranks = rules.auction in ("rank_then_points", "rank_only")
    levels = [lv for lv in range(L.N_BID_LEVELS)
              if (lv < L.N_RANK_BIDS and ranks)
              or (lv >= L.N_RANK_BIDS and lv - L.N_RANK_BIDS + L.FIRST_POINT_BID >= low
                  and (rules.auction != "rank_only"
                       or lv - L.N_RANK_BIDS + L.FIRST_POINT_BID == low))]
    pick = np.random.default_rng(7)
    calls = 0
    for i in range(60):
        deal = Deal.from_seed(rules, 11, i)
        while deal.phase in ("auction", "reopen", "call"):
            legal = deal.legal_actions()
            if deal.phase == "auction":
                bid = int(deal.state[L.S_BID])
                assert legal == [L.ACTION_PASS] + [L.ACTION_BID + lv for lv in levels
                                                   if lv > bid]
            elif deal.phase == "call":
                calls += 1
                level = int(deal.state[L.S_BID])
                face = (-1 if rules.auction == "points_only" else L.BID_FACES[level]
                        if level < L.N_RANK_BIDS else C.TWO)
                cards = [c for c in rules.deck_ids if face < 0 or c % 12 == face]
                hand = set(deal._hand_slots(deal.turn).tolist())
                free = [c for c in cards if c not in hand]
                if not rules.self_call and free:
                    cards = free
                assert legal == [L.ACTION_CALL + c for c in sorted(cards)]
            deal.play(legal[int(pick.integers(len(legal)))])
    assert calls > 20


def test_the_caller_leads_with_first_lead_caller():
    deal = run(new_deal(Rules.preset("chiamata-5-caller-leads")), "pass", "pass", "bid:A",
               "pass", "pass", "call:Ao")
    assert (deal.phase, deal.turn) == ("play", 2)


# ---- play and result (11.1, 11.6.7) --------------------------------------------------------

def test_play_is_briscola_no_duty_to_follow_eight_tricks():
    deal = run(new_deal(CH, hands=[["5c"], ["Ab", "4c"]]), "bid:A", *["pass"] * 4, "call:Ao")
    deal.play("5c")
    assert C.card_id("Ab") in deal.legal_actions()
    play_out(deal, lowest)
    assert len(deal.tricks) == 8 and sum(deal.points) == 120


HANDS = [["Ao", "3o", "Ro", "Ac", "3c", "Co", "Sc", "7b"], ["Rc", "Ae", "3e", "So"],
         ["Ab", "3b", "Rb"], ["Re", "Ce"], ["Cc", "Cb"]]


def played(rules, bid, call="call:Rc", hands=HANDS):
    """Seat 0 wins the auction with ``bid`` and calls ``call``; the play is :func:`lowest`."""
    deal = run(new_deal(rules, hands=hands), bid, *["pass"] * 4, call)
    return play_out(deal, lowest)


def test_success_needs_the_target_and_scores_two_one_and_minus_one():
    base = played(CH, "bid:R")
    partner = int(base.state[L.S_HOLDER])
    x = side_points(base, 0, partner)
    assert partner == 1 and 61 <= x < 120, x
    assert base.contract.target == 61
    # the same cards and play with the target at the side's points: made; one more: failed
    for target, success in ((x, True), (x + 1, False)):
        deal = played(Rules.preset("chiamata-5", min_points=target), "bid:R")
        k = deal.contract
        assert (k.target, k.side_points, k.success) == (target, x, success)
        unit = 1 if success else -1
        assert k.game_points == (2 * unit, unit, -unit, -unit, -unit)
        assert deal.outcome.winner == (0 if success else None)
        rec = record(deal)
        assert rec[L.REC_SUCCESS] == success and rec[L.REC_PARTNER] == 1
        assert rec[L.REC_SIDE_POINTS] == x and rec[L.REC_CALLER] == 0
        assert sum(rec[L.REC_GAME_POINTS:L.REC_GAME_POINTS + 6]) == 0


def test_a_self_call_plays_alone_for_four_against_one_each():
    deal = played(Rules.preset("chiamata-5", cappotto="off"), "bid:A", "call:Ao")
    k = deal.contract
    assert k.partner == 0
    x = side_points(deal, 0, 0)
    unit = 1 if x >= 61 else -1
    assert k.side_points == x and k.game_points == (4 * unit, -unit, -unit, -unit, -unit)


ALL_TRUMPS = [["Ao", "3o", "Ro", "Co", "So", "7o", "6o", "5o"]]
NO_TRICK = [["6o", "5o", "4o", "2o", "6c", "5c", "4c", "2c"],
            ["Ao", "3o", "Ro", "Co", "So", "7o", "Ac", "3c"]]


@pytest.mark.parametrize("cappotto, doubled", [("points", True), ("tricks", True),
                                              ("off", False)])
def test_cappotto_doubles_the_game_points_of_either_side(cappotto, doubled):
    rules = Rules.preset("chiamata-5", cappotto=cappotto)
    m = 2 if doubled else 1
    deal = played(rules, "bid:A", "call:Ao", ALL_TRUMPS)      # alone, every trick
    assert deal.contract.side_points == 120 and all(t.winner == 0 for t in deal.tricks)
    assert deal.contract.game_points == (4 * m, -m, -m, -m, -m)
    deal = played(rules, "bid:61", "call:2o", NO_TRICK)       # alone, no trick
    assert deal.contract.side_points == 0 and not any(t.winner == 0 for t in deal.tricks)
    assert deal.contract.game_points == (-4 * m, m, m, m, m)
    assert deal.contract.multiplier == m


# seat 0 takes every counting card with its trumps but loses the last, blank trick
BLANK_TRICK = [["Ao", "3o", "Ro", "Co", "So", "7o", "6o", "2b"],
               ["5o", "Ac", "3c", "Rc", "Cc", "Sc", "7c", "7b"],
               ["4o", "Ae", "3e", "Re", "Ce", "Se", "7e", "6b"],
               ["2o", "Ab", "3b", "Rb", "Cb", "Sb", "6c", "5b"],
               ["5c", "4c", "2c", "6e", "5e", "4e", "2e", "4b"]]


@pytest.mark.parametrize("cappotto, m", [("points", 2), ("tricks", 1)])
def test_cappotto_by_points_counts_points_not_tricks(cappotto, m):
    deal = played(Rules.preset("chiamata-5", cappotto=cappotto), "bid:A", "call:Ao",
                  BLANK_TRICK)
    k = deal.contract
    assert k.side_points == 120 and [t.winner == 0 for t in deal.tricks] == [True] * 7 + [False]
    assert k.multiplier == m and k.game_points == (4 * m, -m, -m, -m, -m)


@pytest.mark.parametrize("target, unit", [(61, 1), (70, 1), (71, 2), (80, 2), (81, 3),
                                          (91, 4), (100, 4), (101, 5), (120, 5)])
def test_the_ladder_unit_comes_from_the_contract_target(target, unit):
    rules = Rules.preset("chiamata-5", bid_multiplier="ladder", cappotto="off",
                         min_points=target)
    deal = played(rules, "bid:R")                 # a rank contract counts as min_points
    k = deal.contract
    sign = 1 if k.success else -1
    assert k.multiplier == unit
    assert k.game_points == (2 * unit * sign, unit * sign, -unit * sign, -unit * sign,
                             -unit * sign)


# ---- options (11.6.9) and presets ----------------------------------------------------------

def test_every_chiamata_preset_exists_and_plays():
    for name in ("chiamata-5", "chiamata-5-pagat", "chiamata-5-points",
                 "chiamata-5-subito-al-due", "chiamata-5-caller-leads"):
        assert name in PRESETS
        rules = Rules.preset(name)
        deal = Deal.from_seed(rules, 3, 0)
        k = 0
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(legal[k % len(legal)])
            k = k * 7 + 1
        assert deal.over and sum(deal.contract.game_points) == 0
    assert Rules.preset("chiamata-5-pagat").bid_multiplier == "ladder"
    assert Rules.preset("chiamata-5-pagat").cappotto == "tricks"


@pytest.mark.parametrize("option, value", [
    ("swap_seven", True), ("swap_two", True), ("teams", "pairs"), ("leftover", "face_up"),
    ("objective", "fewest"), ("tie", "last_trick"), ("black_hand", True),
    ("signals", "honest"), ("jack_over_horse", True), ("face_up_reshuffle", True),
    ("hand_size", 7), ("players", 4), ("deck", "spanish48"), ("match", "rounds_to_win 3"),
    ("min_points", 60), ("min_points", 121), ("auction", "blind"), ("cappotto", "all"),
])
def test_options_that_do_not_apply_to_chiamata_are_refused_naming_them(option, value):
    with pytest.raises(RulesError, match=option):
        Rules.preset("chiamata-5", **{option: value})


@pytest.mark.parametrize("option, value", [
    ("auction", "rank_then_points"), ("all_pass", "reopen_61"), ("min_points", 70),
    ("self_call", False), ("first_lead", "caller"), ("cappotto", "off"),
    ("bid_multiplier", "ladder"),
])
def test_chiamata_options_are_refused_in_brisca_and_briscola(option, value):
    for preset in ("brisca-2", "briscola-4"):
        with pytest.raises(RulesError, match=option):
            Rules.preset(preset, **{option: value})


def test_a_trick_game_keeps_its_options_and_record():
    assert "auction" not in Rules.preset("brisca-2").options()
    assert L.RECORD_LEN == 21 and L.CHIAMATA_RECORD_LEN > L.RECORD_LEN


def test_action_codes_round_trip():
    from briscasim.game import action_code, parse_action
    for a in range(L.ACTION_PASS, L.N_ACTIONS):
        assert parse_action(action_code(a), (L.ACTION_PASS,)) == a
    assert parse_action("pass") == L.ACTION_KEEP             # at a swap offer
    assert deck_order(CH)[:5] == [C.card_code(c) for c in new_deal(CH).deck[:5]]


# ---- matches in game points (11.6.5, 11.6.8) ----------------------------------------------

def tally(rules, deal, shift=0, won=None, points=None):
    from briscasim.engine.match import tally_deal
    won = np.zeros(6, np.int64) if won is None else won
    points = np.zeros(6, np.int64) if points is None else points
    return int(tally_deal(rules.to_array(), deal.state, shift, won, points)), won, points


def test_a_thrown_in_deal_scores_nothing_and_keeps_the_dealer_unless_redeal_next_dealer():
    from briscasim.engine.match import TALLY_SAME_DEALER, TALLY_THROWN_IN
    for all_pass, bits in (("redeal_same_dealer", TALLY_THROWN_IN | TALLY_SAME_DEALER),
                           ("redeal_next_dealer", TALLY_THROWN_IN)):
        rules = Rules.preset("chiamata-5", all_pass=all_pass, match="deals 3")
        got, won, points = tally(rules, run(new_deal(rules), *["pass"] * 5))
        assert got == bits and not won.any() and not points.any()


def test_a_played_deal_adds_game_points_to_the_players_after_the_shift():
    rules = Rules.preset("chiamata-5", match="points 10", cappotto="off")
    deal = played(rules, "bid:R")
    got, won, points = tally(rules, deal, shift=2)
    gp = deal.contract.game_points
    assert got == 0
    assert [int(points[(s + 2) % 5]) for s in range(5)] == list(gp)
    assert [int(won[(s + 2) % 5]) for s in range(5)] == [g > 0 for g in gp]


@pytest.mark.parametrize("match, counted, played_, points, want", [
    ("deals 3", 2, 5, [3, -1, -1, 0, -1], L.UNDECIDED),   # thrown-in deals do not count
    ("deals 3", 3, 5, [3, -1, -1, 0, -1], 0),             # the highest total of game points
    ("deals 3", 3, 3, [2, 2, -1, -2, -1], L.DRAW),        # equal highest totals share
    ("points 5", 4, 4, [4, 1, -2, -2, -1], L.UNDECIDED),
    ("points 5", 4, 4, [5, 6, -4, -4, -3], 1),            # several reach it: the highest
    ("points 5", 4, 4, [6, 6, -4, -4, -4], L.UNDECIDED),  # equal: play on
])
def test_match_winner_in_game_points(match, counted, played_, points, want):
    from briscasim.engine.match import match_result
    r = Rules.preset("chiamata-5", match=match).to_array()
    pts = np.array(points + [0], np.int64)
    assert match_result(r, counted, played_, np.zeros(6, np.int64), pts) == want


@pytest.mark.slow     # compiles the match kernel
def test_batch_matches_agree_with_their_replays():
    from briscasim.replay import replay_match
    from briscasim.simulate import Lineup, play_chunk
    from briscasim import batch
    rules = Rules.preset("chiamata-5", match="deals 4")
    recs = play_chunk(rules, Lineup.build(rules, "greedy"), 11, 0, 30)   # greedy may all pass
    thrown = 0
    for i, rec in enumerate(recs):
        m = replay_match(rules, "greedy", 11, i)
        assert (m.record == rec).all()
        assert sum(d.contract.caller is not None for d in m.deals) == 4
        assert rec[batch.M_DEALS] == len(m.deals)
        assert sum(rec[batch.M_POINTS:batch.M_POINTS + 5]) == 0
        thrown += len(m.deals) - 4
        shifts = [d.shift for d in m.deals]
        for a, b, d in zip(shifts, shifts[1:], m.deals):
            assert b == a + (d.contract.caller is not None)    # a redeal keeps the dealer
    assert thrown > 0


# ---- strategies ----------------------------------------------------------------------------

def test_greedy_bids_a_strong_hand_and_passes_a_weak_one():
    from briscasim.strategies.bidding import contract_decision, expected_points
    strong = new_deal(CH, hands=[["Ao", "3o", "Ro", "Co", "So", "Ac", "3c", "7o"]])
    hand = strong._hand_slots(0)
    legal = np.array(strong.legal_actions(), np.int16)
    public = strong.state[:L.PUBLIC_LEN]
    assert expected_points(strong._r, hand) >= 61
    assert contract_decision(strong._r, public, hand, legal) == L.ACTION_BID   # bid:A
    weak = new_deal(CH, hands=[["4c", "5c", "6e", "2e", "4b", "5b", "6b", "2c"]])
    assert contract_decision(weak._r, weak.state[:L.PUBLIC_LEN], weak._hand_slots(0),
                             np.array(weak.legal_actions(), np.int16)) == L.ACTION_PASS


def test_greedy_calls_in_its_best_suit_a_card_it_lacks():
    from briscasim.strategies.bidding import contract_decision
    deal = run(new_deal(CH, hands=[["Ao", "3o", "Co", "So", "7o", "Ac", "4b", "2e"]]),
               "bid:R", *["pass"] * 4)
    choice = contract_decision(deal._r, deal.state[:L.PUBLIC_LEN], deal._hand_slots(0),
                               np.array(deal.legal_actions(), np.int16))
    assert choice == L.ACTION_CALL + C.card_id("Ro")


def test_known_mates_follow_what_each_seat_may_know():
    from briscasim.strategies.view import known_mates
    deal = run(new_deal(CH, hands=[[], [], ["Ro"]]), "bid:R", *["pass"] * 4, "call:Ro")

    def mates(s):
        v = deal.view(s)
        return int(known_mates(deal._r, v.public, v.hand, s))
    assert [mates(s) for s in range(5)] == [1, 2, 4 | 1, 8, 16]
    while C.card_id("Ro") in deal.hand(2):
        deal.play(lowest(deal) if deal.turn != 2 else C.card_id("Ro"))
    assert [mates(s) for s in range(5)] == [5, 26, 5, 26, 26]


# ---- the step API's events, replays and bad input -----------------------------------------

def test_events_tell_the_whole_deal():
    deal = Deal.from_seed(CH, 3, 1)
    rng = np.random.default_rng(1)
    while not deal.over:
        legal = deal.legal_actions()
        deal.play(legal[rng.integers(len(legal))])
    kinds = [e.kind for e in deal.events]
    assert kinds[:40] == ["dealt"] * 40 and "turned" not in kinds and "draw" not in kinds
    calls = [e for e in deal.events if e.kind == "call"]
    assert len(calls) == 1 and (calls[0].seat, calls[0].a) == (deal.contract.caller,
                                                                deal.called)
    assert calls[0].b == deal.trump
    assert kinds.count("play") == 40 and kinds.count("trick") == 8 and kinds[-1] == "over"
    over = deal.events[-1]
    assert (over.a, over.b) == (deal.contract.side_points, 120 - deal.contract.side_points)
    assert over.seat == (deal.contract.caller if deal.contract.success else L.DEFENDERS)
    d = deal.to_dict()
    assert d["contract"]["caller"] == deal.contract.caller and d["called"] == C.card_code(
        deal.called)
    again = Deal(CH, d["deck"])
    for a in d["actions"]:
        again.play(a)            # the action codes of a --json log replay the deal
    assert again.contract == deal.contract


def test_replay_refuses_an_illegal_bid_in_one_line(capsys):
    from briscasim.cli.main import main
    deck = " ".join(deck_order(CH))
    with pytest.raises(SystemExit) as e:
        main(["replay", "--preset", "chiamata-5", "--deck", deck,
              "--actions", "bid:R bid:3"])
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 2 and len(err) == 1
    assert "action 2" in err[0] and "bid:3" in err[0]
    main(["replay", "--preset", "chiamata-5", "--deck", deck, "--actions",
          "bid:R pass pass pass pass call:Rb", "--json"])
    import json
    out = json.loads(capsys.readouterr().out)
    assert out["actions"][-1] == "call:Rb" and out["trump"] == "bastos"


@pytest.mark.parametrize("option, value", [("swap_seven", "true"), ("auction", "none")])
def test_the_command_line_refuses_an_option_that_does_not_apply(capsys, option, value):
    from briscasim.cli.main import main
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--preset", "chiamata-5", "--rule", f"{option}={value}",
              "--deals", "10"])
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 2 and len(err) == 1 and option in err[0]
