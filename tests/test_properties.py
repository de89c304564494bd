"""Properties over random presets, options, seeds and random legal play (hypothesis).

Every deal is played through :func:`play_checked`, which checks at every step, against
docs/rules.md read directly (not against the engine's own bookkeeping):
- an illegal action raises and leaves the state unchanged (step API and raw kernel);
- each seat's view holds its own hand and exactly the public knowledge of section 8;
- a swap is offered exactly when 3 and 10.1-10.2 allow it, once per trick;
and at the end that every card in play was played once, that the points add up, and that
the outcome follows section 5 and 10.5. Random Briscola Chiamata deals, under any of its
options, are checked by :func:`check_chiamata` the same way: the auction's caller and
contract, the call, every trick, the duty to follow, the side's points and the game points.
"""
import random

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from briscasim import cards as C
from briscasim.engine import core
from briscasim.engine import layout as L
from briscasim.engine.rng import new_stream, seed_stream
from briscasim.game import Deal, IllegalAction
from briscasim.rules import (ALL_PASS, AUCTIONS, BID_MULTIPLIERS, CAPPOTTOS, FIRST_LEADS, LEFTOVERS,
                             OBJECTIVES, PRESETS, TIES, TIMINGS, Rules, RulesError)
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies.random import random_strategy

from deckbuild import (can_swap, code_list, deck_points, draw_rounds, ids, new_deal,
                       rais_reading)

pytestmark = pytest.mark.slow     # hypothesis plays many random deals of every preset

TRICK_PRESETS = sorted(p for p in PRESETS if not Rules.preset(p).chiamata)
CARD_FIELDS = [L.S_FACE_UP, L.S_TURNED, L.S_SWAP7_CARD, L.S_SWAP2_CARD] + [
    L.S_TRICK + i for i in range(6)]


@st.composite
def any_rules(draw):
    """A preset with some options overridden."""
    name = draw(st.sampled_from(TRICK_PRESETS))
    overrides = draw(st.fixed_dictionaries({}, optional={
        "swap_timing": st.sampled_from(TIMINGS), "tie": st.sampled_from(TIES),
        "objective": st.sampled_from(OBJECTIVES), "black_hand": st.booleans(),
        "jack_over_horse": st.booleans(), "face_up_reshuffle": st.booleans(),
        "swap_seven": st.booleans(), "swap_two": st.booleans()}))
    try:        # single deals; an override that does not apply to the preset is no example
        rules = Rules.preset(name, match="deal", **overrides)
    except RulesError:
        assume(False)
    if rules.effective_leftover is not None and draw(st.booleans()):
        rules = rules.replace(leftover=draw(st.sampled_from(LEFTOVERS)))
    if rules.teams != "none" and rules.trump != "none" and draw(st.booleans()):
        signals = draw(st.sampled_from(["honest", "rais"]))
        captains = tuple(side[0] for side in rules.sides)     # one captain per side
        rules = rules.replace(signals=signals,
                              **({"rais_seats": captains} if signals == "rais" else {}))
    return rules


def turn_and_stock(rules, deck):
    """The card turned face up (None without trump) and the face-down cards drawn, in
    order (docs/rules.md and 10.6 read directly)."""
    dealt = rules.players * rules.hand_size
    if rules.trump == "none":
        return None, list(deck[dealt:])[:len(deck) - dealt - rules.undrawn]
    turned, stock = deck[dealt], list(deck[dealt + 1:])
    m = len(stock)
    while rules.face_up_reshuffle and C.FACES[turned % 12] in "A3":
        stock.insert(m // 2, turned)
        turned = stock.pop(0)
    unseen = {"face_up": rules.undrawn - 1, "hidden": rules.undrawn}.get(
        rules.effective_leftover, 0)
    return turned, stock[:m - unseen]


def trick_result(rules, cards, trump):
    """Index of the winning card and the trick's points (docs/rules.md read directly)."""
    order = "A3RSC9876542" if rules.jack_over_horse else "A3RCS9876542"
    points = {"A": 11, "3": 10, "R": 4, "C": 2 if rules.jack_over_horse else 3,
              "S": 3 if rules.jack_over_horse else 2}
    rank = [order.index(C.FACES[c % 12]) for c in cards]
    best = 0
    for i, c in enumerate(cards[1:], start=1):
        b = cards[best]
        if (c // 12 == b // 12 and rank[i] < rank[best]) or (
                c // 12 == trump and b // 12 != trump):
            best = i
    return best, sum(points.get(C.FACES[c % 12], 0) for c in cards)


def check_draws(deal, stock, first):
    """Draws ``first..``: round k after trick k, its winner first then seat order, the
    face-down cards in stock order, then the face-up card (docs/rules.md)."""
    n = deal.rules.players
    for j in range(first, len(deal.draws)):
        d = deal.draws[j]
        k = j // n
        assert d.after_trick == k + 1
        assert d.seat == (deal.tricks[k].winner + j % n) % n
        if j < len(stock):
            assert (d.card, d.face_up) == (stock[j], False)
        else:
            assert j == len(stock) and deal.rules.effective_leftover != "face_up"
            assert d.face_up and d.card == deal.face_up


def expected_known(deal, turned, stock):
    """Public knowledge of every card (docs/rules.md) from the deal's history."""
    r = deal.rules
    k = np.full(48, L.KNOWN_OUT, np.int64)
    k[r.deck_ids] = L.KNOWN_UNSEEN
    # open hands: every card in a hand; a shown stock top: every card drawn, and the next one
    drawn = {d.card for d in deal.draws}
    for s in range(r.players):
        for c in deal.hand(s):
            if r.open_hands or (r.stock_top_visible and c in drawn):
                k[c] = s
    n_drawn = sum(not d.face_up for d in deal.draws)
    if r.stock_top_visible and n_drawn < len(stock):
        k[stock[n_drawn]] = L.KNOWN_STOCK_TOP
    if turned is None:
        k[[c for t in deal.tricks for c in t.cards]] = L.KNOWN_PLAYED
        k[deal.current_trick] = L.KNOWN_PLAYED
        return k
    face = turned
    for w in deal.swaps:
        assert w.taken == face            # a swap takes the card then face up
        k[w.taken] = w.seat
        face = w.given
    drawn = [d for d in deal.draws if d.face_up]
    if drawn:
        assert len(drawn) == 1 and drawn[0] == deal.draws[-1] and drawn[0].card == face
        k[face] = drawn[0].seat
    else:
        k[face] = L.KNOWN_FACE_UP
    for t in deal.tricks:
        k[list(t.cards)] = L.KNOWN_PLAYED
    k[deal.current_trick] = L.KNOWN_PLAYED
    return k


def expected_signals(deal, seat):
    """docs/rules.md read directly: per partner (in seat order after ``seat``) one byte of
    SIG_* bits for its trump A 3 R C S, any non-trump A or 3, and no trump at all."""
    r = deal.rules
    if r.signals == "none":
        return 0
    if r.signals == "rais":     # the bits as the engine's int64 holds them
        return (rais_reading(deal, seat) + 2**63) % 2**64 - 2**63
    bits = {"A": L.SIG_TRUMP_ACE, "3": L.SIG_TRUMP_THREE, "R": L.SIG_TRUMP_KING,
            "C": L.SIG_TRUMP_HORSE, "S": L.SIG_TRUMP_JACK}
    out, shift = 0, 0
    for i in range(1, r.players):
        p = (seat + i) % r.players
        if r.side_of[p] != r.side_of[seat]:
            continue
        hand = deal.hand(p)
        b = L.SIG_VALID
        for c in hand:
            face = C.FACES[c % 12]
            if c // 12 == deal.trump:
                b |= bits.get(face, 0)
            elif face in "A3":
                b |= L.SIG_BRISCA
        if all(c // 12 != deal.trump for c in hand):
            b |= L.SIG_NO_TRUMP
        out |= b << shift
        shift += 8
    return out


def check_views(deal, turned, stock):
    n = deal.rules.players
    want = expected_known(deal, turned, stock)
    public = deal.view(0).public
    for seat in range(n):
        v = deal.view(seat)
        assert np.array_equal(v.public, public)             # one public state for all
        assert sorted(v.hand_cards) == sorted(deal.hand(seat))
        assert np.array_equal(v.public[L.S_KNOWN:L.S_KNOWN + 48], want)
        assert v.signals == expected_signals(deal, seat)
    for q in range(n):                      # no hidden card in a card-valued public field
        for c in deal.hand(q):
            for f in CARD_FIELDS:
                if public[f] == c:
                    assert want[c] == q


def illegal_actions(deal):
    legal = set(deal.legal_actions())
    return [a for a in list(range(-2, L.N_ACTIONS + 2)) if a not in legal]


def try_illegal(deal, action):
    before = deal.state.copy()
    n_actions, n_tricks = len(deal.actions), len(deal.tricks)
    with pytest.raises(IllegalAction):
        deal.play(action)
    assert np.array_equal(deal.state, before)
    assert (len(deal.actions), len(deal.tricks)) == (n_actions, n_tricks)
    raw = deal.state.copy()
    if 0 <= action < L.N_ACTIONS + 2:
        assert core.step(deal._r, raw, action) == -1
        assert np.array_equal(raw, before)


def play_checked(deal, policy, rng, events=None):
    """Play ``deal`` to its end with ``policy``, checking every step (see module doc).

    ``events`` collects ``(trick number, swap possible by the cards, offered)`` at every
    trick end (the swap check of docs/rules.md)."""
    r = deal.rules
    n = r.players
    rounds = draw_rounds(r)
    turned, stock = turn_and_stock(r, list(deal.deck))
    if turned is None:
        assert deal.turned == L.NO_CARD and deal.trump == L.NO_TRUMP
    else:
        assert deal.turned == turned and deal.trump == turned // 12
    check_views(deal, turned, stock)
    while not deal.over:
        if rng.random() < 0.2:
            try_illegal(deal, rng.choice(illegal_actions(deal)))
        phase, face_before = deal.phase, deal.face_up
        up_before = not any(d.face_up for d in deal.draws)   # the face-up card on the table
        hands_before = [deal.hand(s) for s in range(n)]
        action = policy(deal)
        n_tricks, n_draws, trick = len(deal.tricks), len(deal.draws), deal.current_trick
        leader = deal.turn if not trick else deal.tricks[-1].winner if deal.tricks else 0
        raw = deal.state.copy()
        deal.play(action)
        assert core.step(deal._r, raw, action) == raw[L.S_TURN]     # the seat to act next
        assert np.array_equal(raw, deal.state)
        check_draws(deal, stock, n_draws)
        if len(deal.tricks) > n_tricks:
            best, points = trick_result(r, trick + [action], deal.trump)
            t = deal.tricks[-1]
            assert (t.leader, t.cards) == (leader, tuple(trick + [action]))
            assert (t.winner, t.points) == ((leader + best) % n, points)
            assert deal.over or deal.turn == t.winner
        if phase == "swap":
            assert deal.phase in ("play", "over")         # one swap per trick
        elif len(deal.tricks) > n_tricks:
            k = len(deal.tricks)
            winner = deal.tricks[-1].winner
            if deal.over and k < r.tricks:
                out = deal.outcome                # ended in the draw, or on the target
                assert out.black_hand is not None or out.target_seat is not None
            elif k < r.tricks:
                if r.swap_timing == "before_draw":
                    hand = [c for c in hands_before[winner] if c != action]
                    possible = up_before and can_swap(r, hand, face_before)
                else:
                    up = not any(d.face_up for d in deal.draws)
                    possible = up and can_swap(r, deal.hand(winner), deal.face_up)
                offered = deal.phase == "swap"
                assert offered == (possible and k <= rounds - 1)
                if offered:
                    assert deal.turn == winner
                if events is not None:
                    events.append((k, possible, offered))
        check_views(deal, turned, stock)
    check_end(deal)
    return deal


def check_end(deal):
    r = deal.rules
    out = deal.outcome
    played = [c for t in deal.tricks for c in t.cards]
    assert len(played) == len(set(played))
    assert sum(out.points) == sum(t.points for t in deal.tricks)
    if out.black_hand is not None:
        assert out.winner == r.side_of[out.black_hand]
        return
    own = [0] * r.players                  # docs/rules.md, Briscola a 31, read directly
    for i, t in enumerate(deal.tricks):
        assert r.target_points is None or max(own) < r.target_points
        own[t.winner] += t.points
        if r.target_points is not None and own[t.winner] >= r.target_points:
            assert i == len(deal.tricks) - 1 and out.target_seat == t.winner
            assert out.winner == r.side_of[t.winner]
            return
    assert out.target_seat is None
    assert len(deal.tricks) == r.tricks
    assert len(deal.draws) == draw_rounds(r) * r.players
    undrawn = set(r.deck_ids) - set(played)
    assert len(undrawn) == r.undrawn                  # every card in play played once
    assert sum(out.points) + out.out_of_play_points == deck_points(r)
    _, pts = C.face_tables(r.jack_over_horse)
    assert out.out_of_play_points == sum(pts[c % 12] for c in undrawn)
    # section 5 and 10.5 read directly
    p = list(out.points)
    best = (min if r.objective == "fewest" else max)(p)
    tied = [s for s in range(len(p)) if p[s] == best]
    want = tied[0] if len(tied) == 1 else None
    if want is None and r.tie == "last_trick":
        want = next((r.side_of[t.winner] for t in reversed(deal.tricks)
                     if r.side_of[t.winner] in tied), None)
    assert out.winner == want
    if len(p) == 2 and r.objective == "most" and sum(p) == 120:
        assert (p[0] == 60) == (len(tied) == 2)      # 61+ wins; 60-60 is the only tie
        if len(tied) == 1:
            assert p[want] >= 61


def random_play(rng, swap_prob=0.5):
    def policy(deal):
        if deal.phase == "swap":
            return L.ACTION_SWAP if rng.random() < swap_prob else L.ACTION_KEEP
        return rng.choice(deal.legal_actions())
    return policy


@settings(max_examples=60, deadline=None)
@given(rules=any_rules(), seed=st.integers(0, 2**32 - 1), index=st.integers(0, 10**6),
       play_seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_rule(rules, seed, index, play_seed):
    rng = random.Random(play_seed)
    play_checked(Deal.from_seed(rules, seed, index), random_play(rng), rng)


@pytest.mark.parametrize("name", TRICK_PRESETS)     # Chiamata: test_chiamata
def test_every_preset_deals_and_finishes(name):
    rules = Rules.preset(name)
    for i in range(3):
        rng = random.Random(i)
        deal = play_checked(Deal.from_seed(rules, 2024, i), random_play(rng), rng)
        assert deal.over and deal.outcome is not None


def _holding_play(rng):
    """Random play that keeps the trump 7 and 2 as long as possible and never swaps, so
    that swap offers reach the edge of their window."""
    def policy(deal):
        if deal.phase == "swap":
            return L.ACTION_KEEP
        keep = {deal.trump * 12 + C.SEVEN, deal.trump * 12 + C.TWO}
        legal = deal.legal_actions()
        return rng.choice([c for c in legal if c not in keep] or legal)
    return policy


@pytest.mark.parametrize("name, timing", [
    (name, timing) for name in ("brisca-2", "brisca-3-faceup", "brisca-3-hidden",
                                "brisca-3-remove2", "brisca-4-pairs", "brisca-5-undrawn",
                                "brisca-6")
    for timing in TIMINGS])
def test_swap_window_edges_are_reached(name, timing):
    """Offers happen up to trick R-1 (R draw rounds) and a swap possible by the cards after
    that is refused; checked in every deal by play_checked, and here shown to be reached."""
    rules = Rules.preset(name, swap_timing=timing)
    rounds = draw_rounds(rules)
    events = []
    rng = random.Random(7)
    for i in range(60):
        play_checked(Deal.from_seed(rules, 99, i), _holding_play(rng), rng, events)
    assert any(k == rounds - 1 and offered for k, _, offered in events)
    assert not any(offered for k, _, offered in events if k >= rounds)
    if timing == "before_draw" or rules.effective_leftover == "face_up":
        # a swap possible by the cards, refused once the last draw round has begun (with
        # after_draw only face_up leaves the face-up card on the table after that round)
        assert any(k >= rounds and possible and not offered for k, possible, offered in events)


def _black_hand_deal(rules, rng, face_up):
    """A deal where seat 0 holds the trump A and 3, the rest of the deck shuffled."""
    rest = [c for c in rules.deck_ids if c not in ids(["Ao", "3o", face_up])]
    rng.shuffle(rest)
    n = rules.players
    hands = [["Ao", "3o"] + code_list([rest.pop()])] + [
        code_list([rest.pop() for _ in range(3)]) for _ in range(n - 1)]
    return new_deal(rules, hands=hands, face_up=face_up, stock=code_list(rest))


def _hold_trumps(rng):
    """Random play that keeps the trump A 3 R 7 while it can; swaps when offered."""
    def policy(deal):
        if deal.phase == "swap":
            return L.ACTION_SWAP
        keep = {deal.trump * 12 + f for f in (C.ACE, C.THREE, C.KING, C.SEVEN)}
        legal = deal.legal_actions()
        return rng.choice([c for c in legal if c not in keep] or legal)
    return policy


@pytest.mark.parametrize("name, options, face_up", [
    ("brisca-2-blackhand", {}, "Ro"),
    ("brisca-2-blackhand", dict(swap_timing="before_draw", objective="fewest"), "Co"),
    ("brisca-2-blackhand", {}, "Co"),
    ("brisca-4-pairs", dict(black_hand=True), "Co"),
])
def test_black_hands_during_the_deal(name, options, face_up):
    """Black hands completed by a draw or a swap end the deal at once, for the seat's side,
    with the points taken so far (checked by play_checked)."""
    rules = Rules.preset(name, **options)
    rng = random.Random(3)
    found, by_swap = 0, 0
    for _ in range(30):
        deal = play_checked(_black_hand_deal(rules, rng, face_up), _hold_trumps(rng), rng)
        if deal.outcome.black_hand is not None:
            assert deal.outcome.black_hand == 0
            found += 1
            w = deal.swaps[-1] if deal.swaps else None
            by_swap += bool(w and w.after_trick == len(deal.tricks) and w.taken == ids("Ro")[0])
    assert found >= 5
    if face_up == "Ro":     # after_draw: the 7 drawn, then swapped for the face-up king
        assert by_swap >= 3


# ---- the step API and batch play agree ---------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(rules=any_rules(), seed=st.integers(0, 2**63 - 1), index=st.integers(0, 10**9))
def test_from_seed_replays_the_batch_deal(rules, seed, index):
    """Deal.from_seed(rules, seed, i) played with the random strategy on the streams of the
    batch (seat s: stream 1 + s) gives the batch's record for deal i, bit for bit."""
    swap_prob = 0.5
    rec = play_chunk(rules, Lineup.build(rules, f"random:swap_prob={swap_prob}"), seed,
                     index, 1)[0]
    deal = Deal.from_seed(rules, seed, index)
    r = rules.to_array()
    params = np.zeros(16)
    params[0] = swap_prob
    rngs = [new_stream() for _ in range(rules.players)]
    for s in range(rules.players):
        seed_stream(rngs[s], np.uint64(seed), index, 1 + s)
    while not deal.over:
        s = deal.turn
        hand = deal.state[L.S_HANDS + L.MAX_HAND * s:L.S_HANDS + L.MAX_HAND * s + rules.hand_size]
        sig = int(core.signals(r, deal.state, s)) if r[L.R_SIGNALS] else 0
        legal = np.array(deal.legal_actions(), np.int16)
        deal.play(int(random_strategy(r, deal.state[:L.PUBLIC_LEN], hand, legal, s, sig,
                                      params, rngs[s])))
    mine = np.zeros(L.RECORD_LEN, np.int16)
    core.write_record(r, deal.state, mine)
    assert mine.tolist() == rec.tolist()
    assert rec[L.REC_WINNER] == (L.DRAW if deal.outcome.winner is None else deal.outcome.winner)
    assert list(rec[L.REC_POINTS:L.REC_POINTS + len(rules.sides)]) == list(deal.points)


# ---- Briscola Chiamata --------------------------------------------------------------------

@st.composite
def chiamata_rules(draw):
    """chiamata-5 with any of its options."""
    return Rules.preset(
        "chiamata-5", match="deal", auction=draw(st.sampled_from(AUCTIONS)),
        all_pass=draw(st.sampled_from(ALL_PASS)), min_points=draw(st.sampled_from([61, 62, 75,
                                                                                  120])),
        self_call=draw(st.booleans()), first_lead=draw(st.sampled_from(FIRST_LEADS)),
        cappotto=draw(st.sampled_from(CAPPOTTOS)),
        bid_multiplier=draw(st.sampled_from(BID_MULTIPLIERS)),
        must_follow_suit=draw(st.booleans()))


def ladder_unit(target):
    """docs/rules.md: 61-70 x1, 71-80 x2, 81-90 x3, 91-100 x4, 101-120 x5."""
    return 1 if target <= 70 else min((target - 61) // 10 + 1, 5)


def check_chiamata(deal, legal_seen):
    """The finished deal against docs/rules.md read directly: the deal, the standing bid and
    its caller, the call, every trick (leader, winner, points, the duty to follow), the side's
    points, the multiplier and the game points."""
    r = deal.rules
    hands = deal.initial_hands
    assert [len(h) for h in hands] == [8] * 5
    assert sorted(c for h in hands for c in h) == sorted(r.deck_ids)
    k = deal.contract
    standing = [e for e in deal.events if e.kind == "bid" or (e.kind == "reopen" and e.a)]
    if not standing:                                     # thrown in: no score
        assert k.caller is None and k.multiplier == 0 and set(k.game_points) == {0}
        assert deal.tricks == [] and deal.outcome.winner is None
        return
    caller = standing[-1].seat
    code = k.bid.split(":")[1]
    points_bid = code.isdigit() and int(code) >= 61        # else a rank: A 3 R C S 7 6 5 4
    target = int(code) if points_bid else r.min_points
    assert (k.caller, k.target) == (caller, target)
    called = k.called
    trump = called // 12
    face = C.FACES[called % 12]
    if r.auction == "subito_al_due" or (points_bid and r.auction != "points_only"):
        assert face == "2"
    elif r.auction != "points_only":
        assert face == code
    if not r.self_call and called in hands[caller]:     # only if he holds every card he could call
        could = [c for c in r.deck_ids if r.auction == "points_only" or C.FACES[c % 12] == face]
        assert set(could) <= set(hands[caller])
    partner = next(s for s in range(5) if called in hands[s])
    assert k.partner == partner
    # play: eight tricks of five cards, led by the eldest (or the caller), then the winner
    tricks = deal.tricks
    assert len(tricks) == 8 and all(len(t.cards) == 5 for t in tricks)
    leader = caller if r.first_lead == "caller" else 0
    held = [set(h) for h in hands]
    for t, legal in zip(tricks, legal_seen):
        assert t.leader == leader
        for i, c in enumerate(t.cards):
            seat = (leader + i) % 5
            led = [d for d in held[seat] if d // 12 == t.cards[0] // 12] if i else []
            assert set(legal[i]) == (set(led) if r.must_follow_suit and led else held[seat])
            held[seat].remove(c)
        best, points = trick_result(r, list(t.cards), trump)
        leader = (t.leader + best) % 5
        assert (t.winner, t.points) == (leader, points)
    side = {caller, partner}
    side_points = sum(t.points for t in tricks if t.winner in side)
    side_tricks = sum(t.winner in side for t in tricks)
    assert sum(t.points for t in tricks) == sum(deal.points) == 120
    success = side_points >= target
    assert (k.side_points, k.success) == (side_points, success)
    m = ladder_unit(target) if r.bid_multiplier == "ladder" else 1
    if (r.cappotto == "points" and side_points in (0, 120)) or (
            r.cappotto == "tricks" and side_tricks in (0, 8)):
        m *= 2
    assert k.multiplier == m
    u = m if success else -m
    want = [-u] * 5
    want[caller] = 4 * u if partner == caller else 2 * u
    if partner != caller:
        want[partner] = u
    assert k.game_points == tuple(want) and sum(want) == 0
    assert deal.outcome.winner == (caller if success else None)


@settings(max_examples=40, deadline=None)
@given(rules=chiamata_rules(), seed=st.integers(0, 2**32 - 1), index=st.integers(0, 10**6),
       play_seed=st.integers(0, 2**32 - 1), pass_rate=st.sampled_from([0.5, 0.8, 0.95]))
def test_random_chiamata_deals_keep_every_rule(rules, seed, index, play_seed, pass_rate):
    """Random auctions (a pass with probability ``pass_rate``, else any legal bid), calls and
    play; the called card's holder stays out of the public view until that card is played."""
    rng = random.Random(play_seed)
    deal = Deal.from_seed(rules, seed, index)
    legal_seen = []
    played = set()
    while not deal.over:
        legal = deal.legal_actions()
        if deal.phase == "auction" and L.ACTION_PASS in legal and len(legal) > 1:
            bids = [a for a in legal if a != L.ACTION_PASS]
            action = L.ACTION_PASS if rng.random() < pass_rate else rng.choice(bids)
        else:
            action = rng.choice(legal)
        if deal.phase == "play":
            if not deal.current_trick:
                legal_seen.append([])
            legal_seen[-1].append(legal)
            known = int(deal.state[L.S_KNOWN + deal.called])
            assert known == (L.KNOWN_PLAYED if deal.called in played else L.KNOWN_UNSEEN)
            played.add(action)
        deal.play(action)
    check_chiamata(deal, legal_seen)
