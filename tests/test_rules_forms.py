"""Scenario tests of the options of docs/rules.md that the named forms brought to every trick
game, and of the named forms themselves, each from an explicit deck order or seeded play:
``hand_size``; Briscolone (``trump = none``, ``must_follow_suit``, a match to 151).
"""
import random

import numpy as np
import pytest
from numba import njit

from briscasim import batch
from briscasim import cards as C
from briscasim.engine import core, primitives
from briscasim.engine import layout as L
from briscasim.game import Deal, IllegalAction
from briscasim.rules import PRESETS, Rules, RulesError
from briscasim.simulate import Lineup, play_chunk

from deckbuild import (deck_order, new_deal, play_out, play_trick, rais_reading,
                       random_policy)

# ---- hand_size (every trick game) ----------------------------------------------------------

@pytest.mark.parametrize("preset, size", [("brisca-2", 5), ("brisca-4-pairs", 4),
                                          ("briscola-6", 1), ("brisca-3-hidden", 8)])
def test_hand_size_deals_that_many_cards_and_keeps_the_hands_full(preset, size):
    r = Rules.preset(preset, hand_size=size)
    assert r.draw_rounds == r.tricks - size
    deal = Deal.from_seed(r, 4)
    assert [len(h) for h in deal.initial_hands] == [size] * r.players
    while not deal.over:
        if deal.phase == "play" and not deal.current_trick:
            assert {len(deal.hand(s)) for s in range(r.players)} == {
                min(size, r.tricks - len(deal.tricks))}
        deal.play(min(deal.legal_actions()))
    assert len(deal.draws) == r.draw_rounds * r.players
    assert len(deal.tricks) == r.tricks


def test_hand_size_refused_out_of_range_or_too_large_for_the_deck():
    for bad in (0, 9, "x"):
        with pytest.raises(RulesError, match="hand_size"):
            Rules.preset("brisca-2", hand_size=bad)
    with pytest.raises(RulesError, match="hand_size = 8"):
        Rules.preset("brisca-6", hand_size=8)          # 48 cards, 6 x 8 + the face-up card


@pytest.mark.parametrize("timing, first, last", [("before_draw", 1, 14), ("after_draw", 1, 14)])
def test_swap_windows_count_the_draw_rounds_that_remain(timing, first, last):
    # brisca-2 with five cards: 15 draw rounds; the swap is open after tricks 1 to 14
    r = Rules.preset("brisca-2", hand_size=5, swap_timing=timing)
    assert r.draw_rounds == 15
    offers = set()
    for i in range(150):
        deal = Deal.from_seed(r, 9, i)
        policy = random_policy(random.Random(i), swap_prob=0.0)
        while not deal.over:
            if deal.phase == "swap":
                offers.add(len(deal.tricks))
                assert deal.state[L.S_TO_DRAW] >= (2 if timing == "before_draw" else 1) * 2
            deal.play(policy(deal))
    assert min(offers) == first and max(offers) == last


# ---- Briscolone: trump = none, must_follow_suit, a match to 151 ----------------------------

BRISCOLONE = Rules.preset("briscolone-2")
FOLLOW = Rules.preset("briscolone-2-follow")


def cid(code):
    return C.card_id(code)


def test_briscolone_is_two_players_five_cards_twenty_tricks_to_151():
    r = BRISCOLONE
    assert (r.players, r.deck, r.hand_size, r.trump) == (2, "spanish40", 5, "none")
    assert (r.tricks, r.draw_rounds) == (20, 15)
    assert (r.match_kind, r.match_target) == ("points", 151)
    assert not (r.swap_seven or r.swap_two or r.must_follow_suit)
    assert FOLLOW.must_follow_suit and FOLLOW.replace(must_follow_suit=False) == r


def test_without_trump_no_card_is_turned_and_every_card_is_drawn_face_down():
    order = deck_order(BRISCOLONE, hands=["Ao 3o Ro Co So", "Ac 3c Rc Cc Sc"], stock="7b 6b")
    deal = Deal(BRISCOLONE, order)
    assert deal.trump == L.NO_TRUMP and deal.turned == L.NO_CARD == deal.face_up
    assert "turned" not in [e.kind for e in deal.events]
    assert deal.state[L.S_TO_DRAW] == 30 == deal.state[L.S_FACEDOWN_TO_DRAW]
    assert deal.to_dict()["trump"] == "none" and deal.to_dict()["turned"] is None
    # the stock starts right after the hands: the first draw round takes 7b then 6b
    play_trick(deal, "Ao", "Ac")
    assert [(d.seat, C.card_code(d.card), d.face_up) for d in deal.draws] == [
        (0, "7b", False), (1, "6b", False)]
    play_out(deal)
    assert len(deal.tricks) == 20 and not any(d.face_up for d in deal.draws)
    assert sum(deal.points) == 120


def test_without_trump_the_highest_card_of_the_suit_led_wins_whatever_else_is_played():
    deal = new_deal(BRISCOLONE, hands=["4c", "Ab"])
    play_trick(deal, "4c", "Ab")                 # no suit trumps: the ace of another suit loses
    assert (deal.tricks[0].winner, deal.tricks[0].points) == (0, 11)
    assert deal.turn == 0                        # the winner draws first and leads
    assert deal.draws[0].seat == 0


def test_must_follow_suit_lists_only_the_suit_led_when_the_follower_holds_it():
    deal = new_deal(FOLLOW, hands=["Ac 4o 5o 6o 7o", "2c Ab Ae Ao 3b"])
    assert sorted(deal.legal_codes()) == sorted(["Ac", "4o", "5o", "6o", "7o"])   # the lead
    deal.play("Ac")
    assert deal.legal_codes() == ["2c"]          # no duty to beat: the 2 is all it has
    with pytest.raises(IllegalAction):
        deal.play("Ab")
    state = deal.state.copy()
    assert core.step(FOLLOW.to_array(), state, cid("Ab")) == -1    # the engine refuses it
    assert (state == deal.state).all()
    deal.play("2c")
    assert deal.tricks[0].winner == 0


def test_must_follow_suit_leaves_a_follower_without_the_suit_free():
    deal = new_deal(FOLLOW, hands=["Ac 4o 5o 6o 7o", "Ab Ae Ao 3b 2e"])
    deal.play("Ac")
    assert sorted(deal.legal_codes()) == sorted(["Ab", "Ae", "Ao", "3b", "2e"])
    deal.play("Ao")
    assert deal.tricks[0].winner == 0            # a card of another suit never wins


def test_must_follow_suit_with_a_trump_has_no_duty_to_beat_or_to_trump():
    r = Rules.preset("briscola-2", must_follow_suit=True)
    deal = new_deal(r, hands=["Rc 4e 5e", "2c 3c Ao"], face_up="4o")
    deal.play("Rc")
    assert sorted(deal.legal_codes()) == ["2c", "3c"]     # either card of the suit, not the trump
    deal.play("2c")
    assert deal.tricks[0].winner == 0
    deal = new_deal(r, hands=["Rc 4e 5e", "2b 3b Ao"], face_up="4o")
    deal.play("Rc")
    assert sorted(deal.legal_codes()) == ["2b", "3b", "Ao"]  # no suit led: trump or not


@pytest.mark.parametrize("preset", ["briscolone-2-follow", "brisca-4-pairs", "briscola-6"])
def test_legal_view_hands_over_exactly_the_legal_actions(preset):
    r = Rules.preset(preset, must_follow_suit=True)
    arr = r.to_array()
    out = np.empty(L.MAX_LEGAL, np.int16)
    policy = random_policy(random.Random(3))
    for i in range(10):
        deal = Deal.from_seed(r, 2, i)
        while not deal.over:
            k = _legal_view(arr, deal.state, deal.turn, out)
            assert list(out[:k]) == deal.legal_actions()
            deal.play(policy(deal))


@njit
def _legal_view(rules, state, seat, out):
    """What :func:`core.legal_view` hands a strategy, copied into ``out``; its length."""
    view = core.legal_view(rules, state, seat, primitives.hand_of(rules, state, seat),
                           np.empty(L.MAX_LEGAL, np.int16))
    out[:view.shape[0]] = view
    return view.shape[0]


def test_must_follow_suit_is_accepted_in_every_preset():
    for name in PRESETS:
        assert Rules.preset(name, must_follow_suit=True).must_follow_suit


@pytest.mark.parametrize("option, value", [("swap_seven", True), ("swap_two", True),
                                           ("face_up_reshuffle", True), ("black_hand", True),
                                           ("signals", "honest"), ("leftover", "face_up")])
def test_no_trump_refuses_what_needs_a_trump_or_a_face_up_card(option, value):
    base = dict(players=4, teams="pairs") if option == "signals" else {}
    base.update(players=3) if option == "leftover" else None
    with pytest.raises(RulesError, match=f"rule option {option} = .* trump = 'none'"):
        Rules.preset("briscolone-2", **base, **{option: value})


def test_no_trump_accepts_a_hidden_leftover_and_every_card_still_comes_into_play_but_one():
    r = Rules.preset("briscolone-2", players=3, hand_size=3, leftover="hidden", match="deal")
    deal = Deal.from_seed(r, 1)
    play_out(deal)
    assert len(deal.tricks) == 13 and len(deal.draws) == 30
    assert sum(deal.points) + deal.outcome.out_of_play_points == 120


def test_briscolone_match_runs_to_151_points():
    r = BRISCOLONE.replace(max_deals=20)
    recs = play_chunk(r, Lineup.build(r, "random"), 4, 0, 40)
    totals = recs[:, batch.M_POINTS:batch.M_POINTS + 2]
    assert (totals.max(axis=1) >= 151).all()
    decided = recs[:, batch.M_WINNER] >= 0
    assert decided.mean() > 0.9
    winners = recs[decided, batch.M_WINNER]
    assert (totals[decided, winners] == totals[decided].max(axis=1)).all()
    assert (recs[:, batch.M_DEALS] >= 2).all()    # 120 points a deal: never in one


# ---- Briscola a 31: target_points, claim = auto --------------------------------------------

A31 = Rules.preset("briscola-2-31")


def record(deal):
    out = np.zeros(L.RECORD_LEN, np.int32)
    core.write_record(deal._r, deal.state, out)
    return out


def test_a_31_is_briscola_2_with_a_target_of_31():
    assert A31 == Rules.preset("briscola-2", target_points=31)
    assert (A31.target_points, A31.claim) == (31, "auto")


def test_the_trick_winner_reaching_31_wins_at_once_before_the_draw():
    deal = new_deal(A31, hands=["Ao 3o Rc", "3c Ac 4e"], face_up="5b", stock="Cc Sc")
    play_trick(deal, "Ao", "3c")                 # seat 0: 21, then both draw
    assert not deal.over and len(deal.draws) == 2
    play_trick(deal, "3o", "4e")                 # seat 0: 31, at once
    assert deal.over and deal.outcome.winner == 0 and deal.outcome.target_seat == 0
    assert deal.points == (31, 0) and len(deal.draws) == 2     # no second draw round
    assert [e.kind for e in deal.events][-3:] == ["trick", "target", "over"]
    rec = record(deal)
    assert (rec[L.REC_TARGET_SEAT], rec[L.REC_WINNER]) == (0, 0)
    assert "seat 0 reaches 31 points" in deal.log()


def test_the_target_is_checked_before_a_swap_offer():
    r = Rules.preset("brisca-2", target_points=31)
    deal = new_deal(r, hands=["Ao 3o 7b", "3c Ac 4e"], face_up="Rb")
    play_trick(deal, "Ao", "3c")                 # 21: the swap offer stands
    assert deal.phase == "swap"
    deal.play("keep")
    play_trick(deal, "3o", "4e")                 # 31: over, no second offer
    assert deal.over and deal.outcome.target_seat == 0
    assert [e.kind for e in deal.events].count("decline") == 1


def test_the_target_counts_the_winners_own_points_not_its_sides():
    r = Rules.preset("briscola-4", target_points=31)
    deal = new_deal(r, hands=["Ao 6c", "2c 4e", "3o 3c", "4c 5e"], face_up="5b")
    play_trick(deal, "Ao", "2c", "3o", "4c")     # seat 0 takes its partner's 3: 21
    play_trick(deal, "6c", "4e", "3c", "5e")     # seat 2 takes 10: its side has 31
    assert deal.points == (31, 0) and not deal.over
    assert list(deal.state[L.S_SEAT_POINTS:L.S_SEAT_POINTS + 4]) == [21, 0, 10, 0]


def test_a_31_always_ends_on_the_target_in_two_players_and_the_record_says_so():
    recs = play_chunk(A31, Lineup.build(A31, "random"), 6, 0, 200)
    seat = recs[:, L.REC_TARGET_SEAT]
    assert (seat >= 0).all() and (recs[:, L.REC_WINNER] == seat).all()
    assert (recs[np.arange(200), L.REC_POINTS + seat] >= 31).all()
    assert (recs[:, L.REC_POINTS:L.REC_POINTS + 2].sum(axis=1) < 120).mean() > 0.9


def test_without_a_target_seat_the_deal_is_scored_normally():
    r = Rules.preset("brisca-4", target_points=60)
    seen = {"target": 0, "normal": 0}
    for i in range(30):
        deal = play_out(Deal.from_seed(r, 8, i))
        out = deal.outcome
        if out.target_seat is None:
            seen["normal"] += 1
            assert max(deal.points) < 60 and sum(deal.points) == 120
        else:
            seen["target"] += 1
            assert deal.state[L.S_SEAT_POINTS + out.target_seat] >= 60
    assert seen["target"] and seen["normal"]


@pytest.mark.parametrize("options, match", [
    (dict(target_points=0), "target_points = 0"), (dict(target_points=121), "target_points"),
    (dict(target_points="x"), "target_points"), (dict(claim="manual"), "claim"),
    (dict(target_points=31, objective="fewest"), "target_points = 31 needs objective")])
def test_target_points_refuses_bad_values(options, match):
    with pytest.raises(RulesError, match=match):
        Rules.preset("briscola-2", **options)
    assert Rules.preset("briscola-2-31", target_points="none").target_points is None


# ---- Briscola Scoperta: open_hands, stock_top_visible --------------------------------------

SCOPERTA = Rules.preset("briscola-2-scoperta")


def known(deal, code):
    return int(deal.state[L.S_KNOWN + cid(code)])


def test_scoperta_is_briscola_2_with_open_hands_and_the_stock_top_shown():
    assert SCOPERTA == Rules.preset("briscola-2", open_hands=True, stock_top_visible=True)


def test_open_hands_show_every_card_dealt_and_drawn_to_everyone():
    r = Rules.preset("briscola-2", open_hands=True)
    deal = new_deal(r, hands=["Ao 3o Rc", "3c Ac 4e"], face_up="5b", stock="Cc Sc 2e")
    assert [known(deal, c) for c in ("Ao", "3o", "Rc", "3c", "Ac", "4e")] == [0] * 3 + [1] * 3
    assert known(deal, "Cc") == L.KNOWN_UNSEEN               # the stock stays hidden
    play_trick(deal, "Ao", "3c")
    assert (known(deal, "Cc"), known(deal, "Sc")) == (0, 1)  # drawn: seen as it is picked up
    assert known(deal, "2e") == L.KNOWN_UNSEEN


def test_the_top_of_the_stock_is_shown_and_every_card_drawn_is_public():
    r = Rules.preset("briscola-2", stock_top_visible=True)
    deal = new_deal(r, hands=["Ao 3o Rc", "3c Ac 4e"], face_up="5b", stock="Cc Sc 2e")
    assert known(deal, "Cc") == L.KNOWN_STOCK_TOP
    assert known(deal, "Sc") == known(deal, "Ao") == L.KNOWN_UNSEEN   # hands stay hidden
    play_trick(deal, "Ao", "3c")
    # seat 0 drew the shown Cc; Sc was shown next and seat 1 drew it; now 2e is on top
    assert (known(deal, "Cc"), known(deal, "Sc"), known(deal, "2e")) == (
        0, 1, L.KNOWN_STOCK_TOP)


def test_scoperta_leaves_only_the_buried_stock_unknown():
    deal = Deal.from_seed(SCOPERTA, 3)
    policy = random_policy(random.Random(1))
    while not deal.over:
        k = deal.state[L.S_KNOWN:L.S_KNOWN + L.N_CARD_IDS]
        buried = max(int(deal.state[L.S_FACEDOWN_TO_DRAW] - deal.state[L.S_DRAWN]) - 1, 0)
        assert (k == L.KNOWN_UNSEEN).sum() == buried
        deal.play(policy(deal))


@pytest.mark.parametrize("preset", ["brisca-6-threes", "brisca-3-hidden", "briscolone-2"])
def test_open_hands_and_the_stock_top_apply_to_any_player_count(preset):
    r = Rules.preset(preset, open_hands=True, stock_top_visible=True)
    deal = play_out(Deal.from_seed(r, 2))
    assert len(deal.tricks) == r.tricks
    assert sum(deal.points) + deal.outcome.out_of_play_points == 120
    k = deal.state[L.S_KNOWN:L.S_KNOWN + L.N_CARD_IDS]
    assert ((k == L.KNOWN_PLAYED) | (k == L.KNOWN_OUT) | (k == L.KNOWN_UNSEEN)).all()


# ---- Schembil: signals = rais, rais_seats, first team to 3 deals ---------------------------

SCHEMBIL = Rules.preset("schembil")


def test_schembil_is_briscola_6_with_captains_and_a_match_to_three_deals():
    r = SCHEMBIL
    assert r == Rules.preset("briscola-6", signals="rais", match="rounds_to_win 3")
    assert (r.rais_seats, r.sides) == ((0, 1), [[0, 2, 4], [1, 3, 5]])
    assert (r.match_kind, r.match_target) == ("rounds_to_win", 3)


def test_the_captain_learns_of_his_partners_hands_from_the_end_of_the_first_trick():
    deal = new_deal(SCHEMBIL, hands=["4c 5c 6c", "4b 5b 6b", "Ac 5o Ro", "4e 5e 6e",
                                     "7c 7o Ab", "Se Ce 7e"], face_up="4o",
                    stock="6o Ae 3e 3b Rb Sb")
    assert all(deal.view(s).signals == 0 for s in range(6))        # nothing before trick 1
    play_trick(deal, "4c", "4b", "5o", "4e", "7c", "Se")            # seat 2 trumps it
    # seat 2 draws 6o first, then seat 3 Ae, 4 3e, 5 3b, 0 Rb, 1 Sb: seat 2 holds Ac Ro 6o
    sig = deal.view(0).signals
    assert sig & 255 == L.SIG_VALID | L.RAIS_CARICO | L.RAIS_LOW_TRUMP | L.RAIS_DRESSED_TRUMP
    assert (sig >> 8) & 255 == L.SIG_VALID | L.RAIS_CARICO       # 7o, Ab, Ae: no group for 7o
    assert sig >> 16 == 0                                           # draws remain
    assert all(deal.view(s).signals == 0 for s in (2, 3, 4, 5))
    assert deal.view(1).signals != 0                                # the other captain
    assert sig == rais_reading(deal, 0)


def test_the_captain_learns_which_partner_can_win_the_trick_as_it_stands():
    deal = new_deal(SCHEMBIL, hands=["4c 5c 6c", "4b 5b 6b", "Ac 5o Ro", "4e 5e 6e",
                                     "7c 7o Ab", "Se Ce 7e"], face_up="4o",
                    stock="6o Ae 3e 3b Rb Sb")
    play_trick(deal, "4c", "4b", "5o", "4e", "7c", "Se")
    assert deal.turn == 2
    deal.play("Ac")                                                 # seat 2 leads Ac
    sig = deal.view(0).signals                                      # seat 4 still to play
    assert sig & L.RAIS_WINNER_KNOWN == 0 and (sig >> 8) & L.RAIS_WINNER_KNOWN
    assert (sig >> 8) & L.RAIS_WINNER == 0                          # 7o Ab 3e cannot take Ac
    assert sig == rais_reading(deal, 0)
    for _ in range(3):                                              # seats 3, 4, 5
        deal.play(deal.legal_actions()[0])
    assert deal.turn == 0
    sig = deal.view(0).signals
    assert sig & L.RAIS_WINNER_KNOWN == 0                           # seat 2 has played
    assert (sig >> 8) & L.RAIS_WINNER_KNOWN == 0                    # so has seat 4
    assert sig == rais_reading(deal, 0)


def test_rais_information_follows_the_rules_in_played_deals():
    policy = random_policy(random.Random(7))
    shown = winner_known = 0
    for i in range(6):
        deal = Deal.from_seed(SCHEMBIL, 11, i)
        while not deal.over:
            for s in range(6):
                got = deal.view(s).signals
                assert got == rais_reading(deal, s)
                shown += (got >> L.RAIS_HAND_SHIFT) != 0
                winner_known += (got & L.RAIS_WINNER_KNOWN) != 0
            deal.play(policy(deal))
    assert shown and winner_known


def test_once_no_draw_is_left_the_captain_sees_the_next_team_mates_hand():
    deal = Deal.from_seed(SCHEMBIL, 4)
    policy = random_policy(random.Random(2))
    while deal.state[L.S_TO_DRAW] > 0:
        deal.play(policy(deal))
    mask = deal.view(0).signals >> L.RAIS_HAND_SHIFT
    assert sorted(c for c in range(48) if mask >> c & 1) == sorted(deal.hand(2))
    assert deal.view(2).signals == deal.view(4).signals == 0      # partners learn nothing


@pytest.mark.parametrize("options, match", [
    (dict(teams="none"), "signals = 'rais' needs partnerships"),
    (dict(rais_seats=[0, 2]), "one captain per side"),
    (dict(rais_seats=[0, 1, 3]), "one captain per side"),
    (dict(rais_seats=[0, 7]), "one captain per side"),
    (dict(signals="none"), None),
    (dict(signals="honest", rais_seats=[2, 3]), "applies only to signals = 'rais'")])
def test_rais_options_are_checked(options, match):
    if match is None:
        assert Rules.preset("schembil", **options).signals == "none"
        return
    with pytest.raises(RulesError, match=match):
        Rules.preset("schembil", **options)


def test_rais_needs_a_trump_suit_and_rais_seats_parse_from_text():
    with pytest.raises(RulesError, match="signals = rais does not apply to trump = 'none'"):
        Rules.preset("schembil", trump="none")
    assert Rules.preset("schembil", rais_seats="2,3").rais_seats == (2, 3)
