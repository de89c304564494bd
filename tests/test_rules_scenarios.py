"""Scenario tests of docs/rules.md (dealing to information), each from an explicit deck order.

Deck orders come from :func:`deckbuild.deck_order` (wanted hands, face-up card, top and
bottom of the stock) or are written out in full where a whole deal is needed.
"""
import numpy as np
import pytest

from briscasim import cards as C
from briscasim.engine import core
from briscasim.engine import layout as L
from briscasim.game import Deal, Swap, Trick
from briscasim.rules import Rules

from deckbuild import (can_swap, code_list, deck_points, draw_rounds, ids, new_deal, play_out,
                       play_trick)

B2 = Rules.preset("brisca-2")


def cid(code):
    return C.card_id(code)


def known(deal, seat, code):
    """What ``seat`` publicly knows of a card (``KNOWN_*`` or a seat number)."""
    return int(deal.view(seat).public[L.S_KNOWN + cid(code)])


def record(deal):
    out = np.zeros(L.RECORD_LEN, np.int16)
    core.write_record(deal._r, deal.state, out)
    return out


# ---- section 2: tricks -------------------------------------------------------------------

def test_seat_zero_leads_the_first_trick_and_the_winner_leads_the_next():
    deal = new_deal(B2, hands=[["4c"], ["3c"]], face_up="4o")
    assert deal.turn == 0 and deal.phase == "play"
    play_trick(deal, "4c", "3c")
    assert deal.tricks == [Trick(1, 0, (cid("4c"), cid("3c")), 1, 10)]
    assert deal.turn == 1


def test_highest_trump_wins_the_trick():
    r = Rules.preset("brisca-4")
    deal = new_deal(r, hands=[["Ac"], ["2o"], ["Co"], ["3c"]], face_up="4o")
    play_trick(deal, "Ac", "2o", "Co", "3c")
    t = deal.tricks[0]
    assert (t.winner, t.points) == (2, 11 + 0 + 3 + 10)
    assert deal.points == (0, 0, 24, 0)


def test_without_trumps_the_highest_card_of_the_led_suit_wins():
    r = Rules.preset("brisca-4")
    deal = new_deal(r, hands=[["5c"], ["Ab"], ["3c"], ["Rc"]], face_up="4o")
    play_trick(deal, "5c", "Ab", "3c", "Rc")
    assert (deal.tricks[0].winner, deal.tricks[0].points) == (2, 25)


def test_an_off_suit_ace_does_not_beat_a_low_led_card():
    deal = new_deal(B2, hands=[["4c"], ["Ab"]], face_up="4o")
    play_trick(deal, "4c", "Ab")
    assert deal.tricks[0].winner == 0 and deal.points == (11, 0)


def test_no_obligation_to_follow_suit_to_trump_or_to_beat():
    hand = ["Ab", "2o", "Rc"]
    deal = new_deal(B2, hands=[["5c"], hand], face_up="4o")
    deal.play("5c")
    assert sorted(deal.legal_actions()) == sorted(ids(hand))
    deal.play("Ab")   # neither follows, nor trumps, nor beats: legal, and loses
    assert deal.tricks[0].winner == 0


@pytest.mark.parametrize("preset, first, second, winner, points", [
    ("briscola-2", "Sc", "Cc", 1, 5),        # default order: C above S, C 3 + S 2
    ("briscola-2-south", "Cc", "Sc", 1, 5),  # jack_over_horse: S above C, S 3 + C 2
    ("briscola-2", "Sc", "4b", 0, 2),
    ("briscola-2-south", "Sc", "4b", 0, 3),
    ("briscola-2", "Cc", "4b", 0, 3),
    ("briscola-2-south", "Cc", "4b", 0, 2),
])
def test_jack_over_horse_order_and_points(preset, first, second, winner, points):
    deal = new_deal(Rules.preset(preset), hands=[[first], [second]], face_up="4o")
    play_trick(deal, first, second)
    assert (deal.tricks[0].winner, deal.tricks[0].points) == (winner, points)


# ---- section 2: drawing --------------------------------------------------------------------

def test_the_winner_draws_first_then_seat_order():
    r = Rules.preset("brisca-4")
    deal = new_deal(r, hands=[["4c"], ["5c"], ["3c"], ["6c"]], face_up="4o",
                    stock=["Ae", "3e", "Re", "Ce"])
    play_trick(deal, "4c", "5c", "3c", "6c")
    assert [(d.seat, C.card_code(d.card), d.face_up) for d in deal.draws] == [
        (2, "Ae", False), (3, "3e", False), (0, "Re", False), (1, "Ce", False)]
    assert cid("Ae") in deal.hand(2) and cid("Ce") in deal.hand(1)
    assert deal.turn == 2
    # cards drawn from the stock stay unseen by the other seats
    assert known(deal, 0, "Ae") == L.KNOWN_UNSEEN


@pytest.mark.parametrize("preset", ["brisca-2", "briscola-2", "brisca-3-remove2",
                                    "brisca-3-hidden", "brisca-4", "brisca-5", "brisca-6-pairs",
                                    "briscola-6"])
def test_the_face_up_card_is_drawn_last_by_the_last_seat_of_the_last_round(preset):
    r = Rules.preset(preset)
    deal = new_deal(r, face_up="Ro" if r.deck != "spanish36" else "Co")
    turned = deal.turned
    play_out(deal)
    assert len(deal.draws) == draw_rounds(r) * r.players
    last = deal.draws[-1]
    assert (last.card, last.face_up) == (turned, True)
    assert not any(d.face_up for d in deal.draws[:-1])
    # the last drawing trick's winner drew first, so the face-up card went to the seat
    # before it (in 2-player: the loser of that trick)
    last_round_winner = deal.tricks[draw_rounds(r) - 1].winner
    assert last.seat == (last_round_winner + r.players - 1) % r.players


def test_the_drawn_face_up_card_is_known_to_all_until_played():
    deal = new_deal(B2, face_up="Ro")
    while len(deal.draws) < 34:
        deal.play(min(deal.legal_actions()) if deal.phase == "play" else L.ACTION_KEEP)
    holder = deal.draws[-1].seat
    assert deal.draws[-1].face_up and cid("Ro") in deal.hand(holder)
    for seat in range(2):
        assert known(deal, seat, "Ro") == holder
    while cid("Ro") in deal.hand(holder):
        deal.play(min(deal.legal_actions()))
    assert known(deal, 0, "Ro") == L.KNOWN_PLAYED


# ---- section 3: swaps ------------------------------------------------------------------------

@pytest.mark.parametrize("face_up, trump_card, offered", [
    ("Ao", "7o", True), ("3o", "7o", True), ("Ro", "7o", True), ("Co", "7o", True),
    ("So", "7o", True), ("6o", "7o", False), ("4o", "7o", False),
    ("4o", "2o", True), ("5o", "2o", True), ("6o", "2o", True), ("7o", "2o", True),
    ("Ao", "2o", False), ("So", "2o", False), ("2o", "7o", False),
])
def test_a_swap_is_offered_only_when_possible(face_up, trump_card, offered):
    deal = new_deal(B2, hands=[[trump_card, "Ac", "4e"]], face_up=face_up)
    assert can_swap(B2, deal.hand(0), cid(face_up)) == offered
    play_trick(deal, "Ac", min(deal.hand(1)))
    assert deal.tricks[0].winner == 0
    assert deal.phase == ("swap" if offered else "play")
    if offered:
        assert deal.turn == 0 and deal.legal_actions() == [L.ACTION_SWAP, L.ACTION_KEEP]
        with pytest.raises(ValueError):
            deal.play("4e")


@pytest.mark.parametrize("face_up, offered", [("8o", True), ("9o", True), ("Ao", False)])
def test_with_48_cards_a_two_swap_takes_an_eight_or_nine(face_up, offered):
    r = Rules.preset("brisca-6")
    deal = new_deal(r, hands=[["2o", "Ac", "4e"]], face_up=face_up)
    play_trick(deal, "Ac", *[min(deal.hand(s)) for s in range(1, 6)])
    assert deal.tricks[0].winner == 0
    assert deal.phase == ("swap" if offered else "play")


@pytest.mark.parametrize("rules, face_up, trump_card", [
    (B2.replace(swap_seven=False), "Ao", "7o"),
    (B2.replace(swap_two=False), "4o", "2o"),
    (Rules.preset("briscola-2"), "Ao", "7o"),
    (Rules.preset("briscola-2"), "4o", "2o"),
])
def test_swaps_switched_off_are_never_offered(rules, face_up, trump_card):
    deal = new_deal(rules, hands=[[trump_card, "Ac", "4e"]], face_up=face_up)
    play_trick(deal, "Ac", min(deal.hand(1)))
    assert deal.tricks[0].winner == 0 and deal.phase == "play"


def test_the_swap_is_offered_only_to_the_trick_winner():
    deal = new_deal(B2, hands=[["Ac"], ["7o", "4c", "5e"]], face_up="Ao")
    play_trick(deal, "Ac", "4c")
    assert deal.tricks[0].winner == 0 and deal.phase == "play"   # seat 1 holds 7o, lost


@pytest.mark.parametrize("timing", ["before_draw", "after_draw"])
def test_no_swap_before_the_first_trick(timing):
    deal = new_deal(B2.replace(swap_timing=timing), hands=[["7o", "Ac", "4e"]], face_up="Ao")
    assert deal.phase == "play" and L.ACTION_SWAP not in deal.legal_actions()
    with pytest.raises(ValueError):
        deal.play("swap")


@pytest.mark.parametrize("timing", ["before_draw", "after_draw"])
def test_a_swap_is_public_and_recorded(timing):
    deal = new_deal(B2.replace(swap_timing=timing), hands=[["7o", "Ac", "4e"]], face_up="Ao",
                    stock=["5c", "6c"])
    play_trick(deal, "Ac", min(deal.hand(1)))
    assert deal.phase == "swap"
    # before_draw: offered before this trick's draw; after_draw: after it
    assert len(deal.hand(0)) == (2 if timing == "before_draw" else 3)
    deal.play("swap")
    assert deal.phase == "play" and deal.turn == 0
    assert cid("Ao") in deal.hand(0) and cid("7o") not in deal.hand(0)
    assert deal.face_up == cid("7o")
    assert deal.swaps == [Swap(1, 0, cid("7o"), cid("Ao"))]
    for seat in (0, 1):   # everyone sees both cards
        assert known(deal, seat, "Ao") == 0
        assert known(deal, seat, "7o") == L.KNOWN_FACE_UP
        assert deal.view(seat).public[L.S_FACE_UP] == cid("7o")
    assert sorted(deal.hand(0)) == sorted(ids(["Ao", "4e", "5c"]))  # the draw still came
    play_out(deal)
    rec = record(deal)
    assert (rec[L.REC_SWAP7_SEAT], rec[L.REC_SWAP7_TRICK], rec[L.REC_SWAP7_CARD]) == (
        0, 1, cid("Ao"))
    assert rec[L.REC_SWAP7_DECLINED] == 0 and rec[L.REC_SWAP2_SEAT] == -1


def test_keeping_leaves_the_hand_and_counts_a_declined_offer():
    deal = new_deal(B2, hands=[["7o", "Ac", "4e"]], face_up="Ao", stock=["5c", "6c"])
    play_trick(deal, "Ac", min(deal.hand(1)))
    deal.play("keep")
    assert deal.swaps == [] and deal.face_up == cid("Ao")
    assert sorted(deal.hand(0)) == sorted(ids(["7o", "4e", "5c"]))
    assert deal.state[L.S_SWAP7_DECLINED] == 1 and deal.state[L.S_SWAP2_DECLINED] == 0


@pytest.mark.parametrize("timing", ["before_draw", "after_draw"])
def test_a_two_swap_takes_the_seven_after_a_seven_swap(timing):
    r = B2.replace(swap_timing=timing)
    deal = new_deal(r, hands=[["7o", "Ac", "4e"], ["2o", "5c", "6e"]], face_up="Ro",
                    stock=["4c", "4b"])
    play_trick(deal, "Ac", "5c")
    deal.play("swap")
    assert deal.face_up == cid("7o")
    play_trick(deal, "4e", "6e")
    assert deal.tricks[1].winner == 1 and deal.phase == "swap" and deal.turn == 1
    deal.play("swap")
    assert deal.face_up == cid("2o") and cid("7o") in deal.hand(1)
    assert deal.swaps == [Swap(1, 0, cid("7o"), cid("Ro")), Swap(2, 1, cid("2o"), cid("7o"))]
    play_out(deal)
    rec = record(deal)
    assert (rec[L.REC_SWAP2_SEAT], rec[L.REC_SWAP2_TRICK], rec[L.REC_SWAP2_CARD]) == (
        1, 2, cid("7o"))


@pytest.mark.parametrize("timing", ["before_draw", "after_draw"])
def test_one_swap_per_trick(timing):
    """After a 7-swap the swapper holds the 2 and the face-up 7: a 2-swap is possible by the
    cards, but waits for the next trick it wins."""
    r = B2.replace(swap_timing=timing)
    deal = new_deal(r, hands=[["7o", "2o", "Ac"]], face_up="Ro", stock=["4c", "5c"])
    play_trick(deal, "Ac", min(deal.hand(1)))
    deal.play("swap")
    assert can_swap(r, deal.hand(0), deal.face_up)
    assert deal.phase == "play" and deal.turn == 0
    play_trick(deal, "Ro", min(deal.hand(1)))   # seat 1 holds no trump
    assert deal.tricks[1].winner == 0 and deal.phase == "swap"
    deal.play("swap")
    assert deal.face_up == cid("2o") and len(deal.swaps) == 2


# A brisca-2 deal that seat 0 wins trick after trick: it holds the trump 7 (face-up: the
# trump ace) and every trump and copa; seat 1 holds espadas and bastos only.
_S0_DRAWS = ids("3o Ro Co So 6o 5o 4o 2o Ac 3c Rc Cc Sc 7c 6c 5c 4c")
_S1_DRAWS = ids("Ab 3b Cb Sb 7b 6b 5b 2b Ae 3e Re Se 7e 6e 4e 2e")
_ALL_WIN_STOCK = code_list([c for pair in zip(_S0_DRAWS, _S1_DRAWS) for c in pair]
                           + _S0_DRAWS[16:])


def _all_win_deal(rules):
    return new_deal(rules, hands=[["7o", "Ce", "2c"], ["Rb", "4b", "5e"]], face_up="Ao",
                    stock=_ALL_WIN_STOCK)


def _all_win_move(deal):
    """Seat 0 leads Ce first, then anything but the 7; seat 1 never follows suit (it wins
    only once it holds the face-up ace, after the draws)."""
    hand = deal.hand(deal.turn)
    if not deal.current_trick and deal.turn == 1:
        return min(hand)
    if deal.turn == 0:
        if cid("Ce") in hand:
            return cid("Ce")
        others = [c for c in hand if c != cid("7o")]
        return min(others) if others else cid("7o")
    led = deal.current_trick[0] // 12
    off = [c for c in hand if c // 12 != led]
    return min(off or hand)


@pytest.mark.parametrize("timing", ["before_draw", "after_draw"])
def test_swap_window_is_exactly_rules_10_1(timing):
    """brisca-2: before_draw offers after tricks 1..16 (at least 2n cards still to draw),
    after_draw when leading tricks 2..17 (at least n still to draw after this draw); the
    offer after trick 17 (last draw round) is refused with the 7 in hand and the ace up."""
    deal = _all_win_deal(B2.replace(swap_timing=timing))
    offers = []
    while not deal.over:
        if deal.phase == "swap":
            k = int(deal.state[L.S_TRICK_NO])
            offers.append(k)
            to_draw = int(deal.state[L.S_TO_DRAW])
            if timing == "before_draw":
                assert len(deal.hand(0)) == 2 and to_draw == 34 - 2 * (k - 1) >= 4
            else:
                assert len(deal.hand(0)) == 3 and to_draw == 34 - 2 * k >= 2
            deal.play("keep")
            continue
        before = len(deal.tricks)
        deal.play(_all_win_move(deal))
        if len(deal.tricks) == 17 and before == 16 and timing == "before_draw":
            # trick 17 won by the 7's holder, the ace still face up: no offer
            assert deal.phase == "play" and deal.draws[-1].face_up
    assert all(t.winner == 0 for t in deal.tricks[:17])
    assert offers == list(range(1, 17))
    assert deal.state[L.S_SWAP7_DECLINED] == 16


@pytest.mark.parametrize("timing", ["before_draw", "after_draw"])
def test_a_swap_at_the_last_window_then_the_seven_is_drawn_face_up(timing):
    deal = _all_win_deal(B2.replace(swap_timing=timing))
    while not deal.over:
        if deal.phase == "swap":
            deal.play("swap" if deal.state[L.S_TRICK_NO] == 16 else "keep")
        else:
            deal.play(_all_win_move(deal))
    assert deal.swaps == [Swap(16, 0, cid("7o"), cid("Ao"))]
    last = deal.draws[-1]
    assert (last.seat, C.card_code(last.card), last.face_up) == (1, "7o", True)
    assert sum(deal.points) == 120


# ---- section 4: uneven player counts --------------------------------------------------------

def test_leftover_remove_takes_the_2o_out_before_shuffling():
    r = Rules.preset("brisca-3-remove2")
    assert cid("2o") not in r.deck_ids and len(r.deck_ids) == 39 and r.tricks == 13
    with pytest.raises(ValueError, match="not in this game 2o"):
        Deal(r, code_list(C.deck_cards("spanish40")))
    deal = play_out(new_deal(r, face_up="Ro"))
    assert len(deal.tricks) == 13 and sum(deal.points) == 120
    assert deal.outcome.out_of_play_points == 0 and deal.draws[-1].face_up


def test_brisca_5_removes_2o_2c_2e():
    r = Rules.preset("brisca-5")
    assert set(C.deck_cards("spanish48")) - set(r.deck_ids) == set(ids("2o 2c 2e"))
    deal = play_out(new_deal(r, face_up="Ro"))
    assert len(deal.tricks) == 9 and sum(deal.points) == 120


@pytest.mark.parametrize("swap", [False, True])
def test_leftover_face_up_leaves_the_face_up_card_undrawn(swap):
    """brisca-3-faceup: the face-up ace is never drawn; a 7-swap still brings it into play
    and the 7 given becomes the undrawn card (docs/rules.md)."""
    r = Rules.preset("brisca-3-faceup")
    deal = new_deal(r, hands=[["7o", "Ac", "4e"]], face_up="Ao")
    play_trick(deal, "Ac", min(deal.hand(1)), min(deal.hand(2)))
    assert deal.phase == "swap"
    deal.play("swap" if swap else "keep")
    play_out(deal)
    assert len(deal.tricks) == 13 and len(deal.draws) == 30
    assert not any(d.face_up for d in deal.draws)
    out_card = "7o" if swap else "Ao"
    assert deal.face_up == cid(out_card) and known(deal, 0, out_card) == L.KNOWN_FACE_UP
    played = [c for t in deal.tricks for c in t.cards]
    assert cid(out_card) not in played and len(set(played)) == 39
    assert deal.outcome.out_of_play_points == (0 if swap else 11)
    assert sum(deal.points) == (120 if swap else 109)


def test_leftover_hidden_leaves_the_last_face_down_card_unseen():
    r = Rules.preset("brisca-3-hidden")
    deal = new_deal(r, face_up="Ao", bottom=["3e"])
    assert (deal.deck[9], deal.deck[-1]) == (cid("Ao"), cid("3e"))  # the bottom face-down card
    while not deal.over:
        for seat in range(3):
            assert cid("3e") not in deal.hand(seat)
            assert known(deal, seat, "3e") == L.KNOWN_UNSEEN
        deal.play(min(deal.legal_actions()) if deal.phase == "play" else L.ACTION_KEEP)
    assert len(deal.tricks) == 13 and len(deal.draws) == 30
    last = deal.draws[-1]
    assert last.face_up and last.card == cid("Ao")       # the face-up card is drawn last
    assert cid("3e") not in {c for t in deal.tricks for c in t.cards}
    assert deal.outcome.out_of_play_points == 10 and sum(deal.points) == 110


def test_brisca_5_undrawn_leaves_the_face_up_card_and_two_above_it():
    r = Rules.preset("brisca-5-undrawn")
    assert r.undrawn == 3 and r.tricks == 9
    deal = play_out(new_deal(r, face_up="Ao", bottom=["Ae", "3e"]))
    played = {c for t in deal.tricks for c in t.cards}
    assert len(played) == 45 and not played & set(ids("Ao Ae 3e"))
    assert deal.outcome.out_of_play_points == 32 and sum(deal.points) == 88


# ---- section 5 and 10.4: black hand -----------------------------------------------------------

BH = Rules.preset("brisca-2-blackhand")


def test_black_hand_after_the_deal():
    deal = new_deal(BH, hands=[[], ["Ao", "3o", "Ro"]], face_up="4o")
    assert deal.over and deal.legal_actions() == []
    out = deal.outcome
    assert (out.winner, out.black_hand, out.points) == (1, 1, (0, 0))
    assert record(deal)[L.REC_BLACK_HAND] == 1


def test_black_hand_needs_the_option():
    deal = new_deal(B2, hands=[[], ["Ao", "3o", "Ro"]], face_up="4o")
    assert not deal.over


def test_black_hand_wins_even_with_the_fewest_objective():
    r = Rules.preset("brisca-reves", black_hand=True)
    deal = new_deal(r, hands=[["Ao", "3o", "Ro"]], face_up="4o")
    assert deal.outcome.winner == 0 and deal.outcome.black_hand == 0


def test_black_hand_after_a_single_card_drawn_stops_the_draw_round():
    r = Rules.preset("brisca-4-pairs", black_hand=True)
    deal = new_deal(r, hands=[["4c"], ["5c"], ["3c"], ["6c", "Ao", "3o"]], face_up="4o",
                    stock=["2e", "Ro", "Ae", "3b"])
    play_trick(deal, "4c", "5c", "3c", "6c")
    assert deal.over
    assert [(d.seat, C.card_code(d.card)) for d in deal.draws] == [(2, "2e"), (3, "Ro")]
    assert [len(deal.hand(s)) for s in range(4)] == [2, 2, 3, 3]   # seats 0, 1 never drew
    out = deal.outcome
    assert (out.winner, out.black_hand) == (1, 3)
    assert out.points == (10, 0)   # points so far: seat 2's trick, for side 0


@pytest.mark.parametrize("choice, over", [("swap", True), ("keep", False)])
def test_black_hand_after_a_swap(choice, over):
    deal = new_deal(BH, hands=[["Ao", "3o", "Ac"]], face_up="Ro", stock=["7o"])
    play_trick(deal, "Ac", min(deal.hand(1)))
    assert deal.phase == "swap"           # after_draw: the 7 drawn, then the offer
    deal.play(choice)
    assert deal.over == over
    if over:
        assert (deal.outcome.winner, deal.outcome.black_hand, deal.outcome.points) == (
            0, 0, (11, 0))


# ---- section 5: scoring ----------------------------------------------------------------------

DECK_60_60 = ("5e 2b 3b Cc 7e Sb Se Co Ao 4e 5b Ab 3o 6o 3e So 4b Ce Rb Ro Re 2e 5o 4o 7c "
              "3c 6b 5c Cb 7b 6c 2c Rc Ac 2o 4c Sc Ae 7o 6e").split()
DECK_59_61 = ("Sb So 4o Re 6o 7c 5e 2b Ao Cb 6e 2e 3c 7o 2o 4e Sc Ce 7b Ab 5c Ro 3e 2c Cc "
              "Ae 4c 4b Rb Co 6c Se 3b 7e 6b 3o Ac 5b 5o Rc").split()
DECK_46_74 = ("6b 4e 6e Sb 3e 2o 3c Rc Ao Re Cc 2c Ae Ab 5o Ac Rb 7c So 5c 7b 3o 4b 7e Ce "
              "7o 5e 6c Se 6o Co 4o 3b 5b 2e Ro 4c Cb Sc 2b").split()


def test_61_points_win():
    deal = play_out(Deal(B2, DECK_59_61))
    assert deal.points == (59, 61) and deal.outcome.winner == 1


def test_60_60_is_a_draw_under_tie_draw():
    deal = play_out(Deal(B2, DECK_60_60))
    assert deal.points == (60, 60) and deal.outcome.winner is None
    assert record(deal)[L.REC_WINNER] == L.DRAW


def test_60_60_goes_to_the_last_trick_under_tie_last_trick():
    deal = play_out(Deal(B2.replace(tie="last_trick"), DECK_60_60))
    assert deal.points == (60, 60)
    assert deal.outcome.winner == deal.tricks[-1].winner == 0


# brisca-4 (everyone alone), tie last_trick: sides 1 and 3 tie on 34, seat 0 won the last
# trick, seat 1 the one before: walking back, side 1 wins (docs/rules.md).
DECK_WALK_BACK = ("Ac Ab 4e 7b 2c 7o 2o 7c Sc 7e Cb 6c 3e 6o 3c Co Re 2b 5b Rb 4b Rc 3b 4o "
                  "4c Ro 3o Cc Se Sb So 2e 5c 5o 5e 6b Ao 6e Ce Ae").split()
# brisca-4, fewest, tie last_trick: sides 0 and 3 tie on 0 points and won no trick: a draw.
DECK_NO_TIED_TRICK = ("4b Ac 3e Ce Co Ao 5o 2b 4e 2e Cb Re Sb 3c 2c Ro 5e Ab 6o 7e 3o Rc 4o "
                      "Ae 6e 7o 5b 7c 2o Sc 3b 4c So Se 5c 7b 6c 6b Rb Cc").split()


def test_tie_last_trick_with_many_sides_walks_back():
    r = Rules.preset("brisca-4", tie="last_trick")
    deal = play_out(Deal(r, DECK_WALK_BACK))
    assert deal.points == (20, 34, 32, 34)
    assert [t.winner for t in deal.tricks[-2:]] == [1, 0]
    assert deal.outcome.winner == 1
    assert play_out(Deal(r.replace(tie="draw"), DECK_WALK_BACK)).outcome.winner is None


def test_tie_last_trick_is_a_draw_when_no_tied_side_won_a_trick():
    r = Rules.preset("brisca-4", tie="last_trick", objective="fewest")
    deal = play_out(Deal(r, DECK_NO_TIED_TRICK))
    assert deal.points == (0, 98, 22, 0)
    assert not {0, 3} & {t.winner for t in deal.tricks}
    assert deal.outcome.winner is None


def test_objective_fewest_wins_with_fewer_points():
    deal = play_out(Deal(Rules.preset("brisca-reves"), DECK_46_74))
    assert deal.points == (46, 74) and deal.outcome.winner == 0
    deal = play_out(Deal(B2, DECK_46_74))
    assert deal.points == (46, 74) and deal.outcome.winner == 1


def test_partners_add_their_points():
    r = Rules.preset("brisca-4-pairs")
    deal = new_deal(r, hands=[["4c"], ["5c"], ["3c"], ["Rc"]], face_up="4o")
    play_trick(deal, "4c", "5c", "3c", "Rc")
    assert deal.tricks[0].winner == 2 and deal.points == (14, 0)


@pytest.mark.parametrize("preset, sides", [
    ("brisca-4-pairs", [[0, 2], [1, 3]]),
    ("briscola-4", [[0, 2], [1, 3]]),
    ("brisca-6-pairs", [[0, 3], [1, 4], [2, 5]]),
    ("brisca-6-threes", [[0, 2, 4], [1, 3, 5]]),
    ("briscola-6", [[0, 2, 4], [1, 3, 5]]),
])
def test_team_points_are_the_tricks_of_the_side(preset, sides):
    r = Rules.preset(preset)
    assert r.sides == sides
    for seed in range(3):
        deal = play_out(Deal.from_seed(r, 11, seed))
        want = [sum(t.points for t in deal.tricks if t.winner in seats) for seats in sides]
        assert list(deal.points) == want and sum(want) == 120
        best = max(want)
        if want.count(best) == 1:
            assert deal.outcome.winner == want.index(best)


# ---- section 7: face-up reshuffle (docs/rules.md) -------------------------------------------

def reshuffled(deck, n):
    """docs/rules.md read directly: an A or 3 turned goes back after floor(m/2) of the m
    face-down cards and the top face-down card is turned; repeat."""
    turned, stock = deck[3 * n], list(deck[3 * n + 1:])
    m = len(stock)
    while C.FACES[turned % 12] in "A3":
        stock.insert(m // 2, turned)
        turned = stock.pop(0)
    return turned, stock


@pytest.mark.parametrize("face_up, top", [
    ("Ao", ["5c"]),               # once: 5c turned, the ace the 16th card drawn
    ("Ao", ["3c", "5c"]),         # twice: the 3 turned next goes back too
    ("3b", ["Ab", "Ac", "6e"]),   # three times
    ("Ro", ["Ac"]),               # not an A or 3: nothing happens
])
def test_face_up_reshuffle(face_up, top):
    r = Rules.preset("briscola-2-reshuffle")
    deal = new_deal(r, face_up=face_up, stock=top)
    turned, stock = reshuffled(deal.deck, 2)
    assert C.FACES[turned % 12] not in "A3" and deal.turned == turned
    assert deal.trump == turned // 12 and deal.face_up == turned
    if face_up == "Ao" and top == ["5c"]:
        assert stock.index(cid("Ao")) == 15 and turned == cid("5c")
    play_out(deal)
    assert [d.card for d in deal.draws] == stock + [turned]


def test_without_the_option_an_ace_stays_face_up():
    deal = new_deal(Rules.preset("briscola-2"), face_up="Ao", stock=["5c"])
    assert deal.turned == deal.face_up == cid("Ao")


# ---- section 8: signals and views ------------------------------------------------------------

def test_signals_tell_a_partner_which_trumps_and_briscas_are_held():
    r = Rules.preset("brisca-4-pairs-signals")
    deal = new_deal(r, hands=[["4c", "5e", "6b"], ["Co", "So", "3o"], ["Ao", "Ro", "3c"],
                              ["Ab", "2o", "5c"]], face_up="4o")
    sig = [deal.view(s).signals for s in range(4)]
    assert sig[0] == L.SIG_VALID | L.SIG_TRUMP_ACE | L.SIG_TRUMP_KING | L.SIG_BRISCA
    assert sig[2] == L.SIG_VALID | L.SIG_NO_TRUMP
    assert sig[1] == L.SIG_VALID | L.SIG_BRISCA                  # 2o: a trump, no signal bit
    assert sig[3] == L.SIG_VALID | L.SIG_TRUMP_HORSE | L.SIG_TRUMP_JACK | L.SIG_TRUMP_THREE
    play_trick(deal, "4c", "Co", "Ao")
    assert deal.view(0).signals == L.SIG_VALID | L.SIG_TRUMP_KING | L.SIG_BRISCA
    assert deal.view(3).signals == L.SIG_VALID | L.SIG_TRUMP_JACK | L.SIG_TRUMP_THREE


def test_signals_with_two_partners_come_in_seat_order():
    r = Rules.preset("brisca-6-threes", signals="honest")
    deal = new_deal(r, hands=[[], [], ["Ao"], [], ["Ac"]], face_up="4o")
    v = L.SIG_VALID
    assert deal.view(0).signals == (v | L.SIG_TRUMP_ACE) | (v | L.SIG_NO_TRUMP | L.SIG_BRISCA) << 8
    assert deal.view(2).signals == (v | L.SIG_NO_TRUMP | L.SIG_BRISCA) | (v | L.SIG_NO_TRUMP) << 8
    assert deal.view(1).signals == (v | L.SIG_NO_TRUMP) | (v | L.SIG_NO_TRUMP) << 8


def test_six_player_pairs_signal_the_partner_across():
    r = Rules.preset("brisca-6-pairs", signals="honest")
    deal = new_deal(r, hands=[[], [], [], ["Ro"]], face_up="4o")
    assert deal.view(0).signals == L.SIG_VALID | L.SIG_TRUMP_KING


@pytest.mark.parametrize("preset", ["brisca-4-pairs", "brisca-4", "brisca-2", "briscola-6"])
def test_no_signals_without_the_option_or_teams(preset):
    deal = Deal.from_seed(Rules.preset(preset), 3)
    assert all(deal.view(s).signals == 0 for s in range(deal.rules.players))


def test_a_view_holds_the_own_hand_and_no_other_hidden_card():
    deal = new_deal(B2, hands=[["Ac", "4e", "5b"], ["3c", "Rb", "6e"]], face_up="4o")
    v0, v1 = deal.view(0), deal.view(1)
    assert sorted(v0.hand_cards) == sorted(ids("Ac 4e 5b"))
    assert np.array_equal(v0.public, v1.public)
    for code in ("3c", "Rb", "6e"):
        assert known(deal, 0, code) == L.KNOWN_UNSEEN
    assert v0.visible_cards() == set(ids("Ac 4e 5b 4o"))
    assert cid("8o") not in v0.known   # not in this deck


def test_removed_and_absent_cards_are_known_out():
    deal = Deal.from_seed(Rules.preset("brisca-3-remove2"), 2)
    k = deal.view(0).public[L.S_KNOWN:L.S_KNOWN + 48]
    assert k[cid("2o")] == L.KNOWN_OUT and k[cid("8c")] == L.KNOWN_OUT


def test_deck_points_helper_matches_the_preset_decks():
    for name in ("brisca-2", "brisca-5", "briscola-6", "brisca-3-faceup"):
        assert deck_points(Rules.preset(name)) == 120
