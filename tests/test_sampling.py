"""Determinizations agree with the seat's view, hold every card once, respect signals, are
uniform over the consistent worlds, and play out in the engine."""
import collections
import itertools

import numpy as np
import pytest
from scipy import stats

from briscasim.engine import core
from briscasim.engine import layout as L
from briscasim.engine.rng import new_stream
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.strategies.sampling import (REVEAL_OTHERS, REVEAL_PARTNERS, SPEC_LEN, W_N_POOL,
                                           W_N_SLOTS, W_SLOT, first_stock_slot, keep_world,
                                           prepare_worlds, redraw_stock, restore_world, reveal,
                                           sample_world, unique_world, world_count,
                                           enumerate_world)

PRESETS = ["brisca-2", "brisca-3-hidden", "brisca-3-faceup", "brisca-4-pairs-signals",
           "brisca-5-undrawn", "brisca-6-threes", "briscola-2-reshuffle", "briscola-2-scoperta"]


def _worlds(deal, seat, n, seed=1, revealed=0):
    """``n`` worlds drawn for ``seat``; with ``revealed`` (REVEAL_* bits), those hands true."""
    r = deal._r
    v = deal.view(seat)
    base = np.zeros(L.STATE_LEN, np.int16)
    spec = np.zeros(SPEC_LEN, np.int64)
    prepare_worlds(r, v.public, v.hand, seat, 0 if revealed & REVEAL_PARTNERS else v.signals,
                   base, spec)
    if revealed:
        reveal(r, deal.state, seat, revealed, base, spec)
    rng = new_stream(seed)
    out = []
    for _ in range(n):
        w = np.zeros(L.STATE_LEN, np.int16)
        sample_world(base, spec, rng, w)
        out.append(w)
    return out, spec


def _hand(state, s):
    h = state[L.S_HANDS + L.MAX_HAND * s:L.S_HANDS + L.MAX_HAND * s + 3]
    return sorted(int(c) for c in h if c != L.NO_CARD)


def _positions(rules, n_deals=3, seed=5):
    """(deal, seat) at every decision of some random play-outs, seats other than the one to
    act included."""
    rng = np.random.default_rng(seed)
    for d in range(n_deals):
        deal = Deal.from_seed(rules, seed, d)
        while not deal.over:
            for seat in range(rules.players):
                yield deal, seat
            legal = deal.legal_actions()
            deal.play(int(legal[rng.integers(len(legal))]))


def _check_world(rules, deal, seat, w):
    r = deal._r
    true = deal.state
    n = rules.players
    assert np.array_equal(w[:L.PUBLIC_LEN], true[:L.PUBLIC_LEN])
    assert np.array_equal(w[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3],
                          true[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3])
    m = int(r[L.R_DECK_N]) - 3 * n - 1
    assert w[L.S_N_FACEDOWN] == true[L.S_N_FACEDOWN] == m
    # every card exactly once: hands, stock still to come or undrawn, table, played, out
    where = collections.Counter()
    for s in range(n):
        assert len(_hand(w, s)) == len(_hand(true, s))
        where.update(_hand(w, s))
    where.update(int(c) for c in w[L.S_STOCK + w[L.S_DRAWN]:L.S_STOCK + m])
    known = w[L.S_KNOWN:L.S_KNOWN + 48]
    where.update(c for c in range(48) if known[c] in (L.KNOWN_PLAYED, L.KNOWN_FACE_UP,
                                                      L.KNOWN_OUT))
    assert sorted(where) == list(range(48)) and max(where.values()) == 1
    # cards publicly in a hand are there; signals seen by this seat unchanged
    for c in range(48):
        if 0 <= known[c] < n:
            assert c in _hand(w, int(known[c]))
        if known[c] == L.KNOWN_STOCK_TOP:           # shown on top of the stock: stays there
            assert w[L.S_STOCK + w[L.S_DRAWN]] == c
    if r[L.R_SIGNALS]:
        assert core.signals(r, w, seat) == core.signals(r, true, seat)


@pytest.mark.parametrize("preset", PRESETS)
def test_worlds_agree_with_the_view(preset):
    rules = Rules.preset(preset)
    checked = 0
    for k, (deal, seat) in enumerate(_positions(rules)):
        if k % 3:
            continue
        worlds, spec = _worlds(deal, seat, 3, seed=k)
        assert spec[W_N_POOL] == spec[W_N_SLOTS]
        for w in worlds:
            _check_world(rules, deal, seat, w)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("preset", ["brisca-4-pairs-signals", "brisca-3-hidden"])
@pytest.mark.parametrize("which", [REVEAL_OTHERS, REVEAL_PARTNERS,
                                   REVEAL_OTHERS | REVEAL_PARTNERS])
def test_revealed_hands_are_the_true_ones(preset, which):
    """The cheating reference peek's worlds: the hands revealed are the true ones, the rest
    is dealt as before (every card once, signals kept), and what is not revealed varies."""
    rules = Rules.preset(preset)
    n = rules.players
    varied = set()
    for k, (deal, seat) in enumerate(_positions(rules, 2)):
        if k % 4:
            continue
        worlds, spec = _worlds(deal, seat, 4, seed=k, revealed=which)
        assert spec[W_N_POOL] == spec[W_N_SLOTS]
        for w in worlds:
            _check_world(rules, deal, seat, w)
            for x in range(n):
                mate = rules.side_of[x] == rules.side_of[seat]
                told = which & (REVEAL_PARTNERS if mate else REVEAL_OTHERS)
                if x != seat and told:
                    assert _hand(w, x) == _hand(deal.state, x)
                elif x != seat and _hand(w, x) != _hand(deal.state, x):
                    varied.add(mate)
    if n == 4:      # pairs: the hands not revealed are dealt at random
        assert varied == ({True} if which == REVEAL_OTHERS else
                          {False} if which == REVEAL_PARTNERS else set())


@pytest.mark.parametrize("preset", PRESETS + ["chiamata-5"])
def test_a_kept_world_is_restored_exactly(preset):
    """A search that reuses worlds keeps the cards of the free slots and rebuilds the whole
    state from them (the Chiamata holder of the called card included)."""
    rules = Rules.preset(preset)
    r = rules.to_array()
    checked = 0
    for k, (deal, seat) in enumerate(_positions(rules, 2)):
        if k % 5:
            continue
        v = deal.view(seat)
        base = np.zeros(L.STATE_LEN, np.int16)
        spec = np.zeros(SPEC_LEN, np.int64)
        prepare_worlds(r, v.public, v.hand, seat, v.signals, base, spec)
        w = np.zeros(L.STATE_LEN, np.int16)
        sample_world(base, spec, new_stream(k), w)
        cards = np.full(L.N_CARD_IDS, -99, np.int8)
        keep_world(spec, w, cards)
        again = np.zeros(L.STATE_LEN, np.int16)
        restore_world(base, spec, cards, again)
        assert np.array_equal(again, w)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-3-remove2", "briscola-2-scoperta"])
def test_a_redrawn_stock_keeps_the_hands_and_is_uniform(preset):
    """Redrawing the stock of a kept world moves only the unknown face-down cards, every one
    of them equally likely on top."""
    rules = Rules.preset(preset)
    r = rules.to_array()
    deal = Deal.from_seed(rules, 3, 0)
    for _ in range(rules.players):      # a trick in, so the stock has been drawn from
        deal.play(int(deal.legal_actions()[0]))
    v = deal.view(0)
    base = np.zeros(L.STATE_LEN, np.int16)
    spec = np.zeros(SPEC_LEN, np.int64)
    prepare_worlds(r, v.public, v.hand, 0, v.signals, base, spec)
    w = np.zeros(L.STATE_LEN, np.int16)
    rng = new_stream(11)
    sample_world(base, spec, rng, w)
    slots = spec[W_SLOT:W_SLOT + spec[W_N_SLOTS]]
    stock = [int(i) for i in slots if i >= L.S_STOCK]
    first = first_stock_slot(spec)
    assert [int(i) for i in slots[first:]] == stock
    assert len(stock) > 5
    cards = sorted(int(w[i]) for i in stock)
    counts = collections.Counter()
    n = 4000
    for _ in range(n):
        again = w.copy()
        redraw_stock(spec, first, rng, again)
        outside = np.ones(L.STATE_LEN, bool)
        outside[stock] = False
        assert np.array_equal(again[outside], w[outside])
        assert sorted(int(again[i]) for i in stock) == cards
        counts[int(again[stock[0]])] += 1
    assert stats.chisquare([counts[c] for c in cards]).pvalue > 1e-3


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs-signals", "brisca-3-hidden"])
def test_worlds_play_out_in_the_engine(preset):
    rules = Rules.preset(preset)
    r = rules.to_array()
    rng = np.random.default_rng(0)
    out = np.zeros(8, np.int64)
    for k, (deal, seat) in enumerate(_positions(rules, 2)):
        if k % 7:
            continue
        for w in _worlds(deal, seat, 2, seed=k)[0]:
            while w[L.S_PHASE] != L.PHASE_OVER:
                n = core.legal_actions(r, w, out)
                assert n > 0
                assert core.step(r, w, out[rng.integers(n)]) == w[L.S_TURN]


def test_two_player_endgame_is_the_true_world():
    rules = Rules.preset("brisca-2")
    deal = Deal.from_seed(rules, 3)
    while deal.state[L.S_TO_DRAW] > 0:
        deal.play(deal.legal_actions()[0])
    worlds, spec = _worlds(deal, deal.turn, 5)
    assert unique_world(spec)
    for w in worlds:
        assert _hand(w, 1 - deal.turn) == _hand(deal.state, 1 - deal.turn)


def _consistent_worlds(rules, deal, seat):
    """Brute force: every assignment of the unknown cards to the other hands that gives the
    same view (hand sizes, public knowledge, signals), as a tuple of sorted hands."""
    r = rules.to_array()
    n = rules.players
    true = deal.state
    known = true[L.S_KNOWN:L.S_KNOWN + 48]
    mine = set(_hand(true, seat))
    unknown = [c for c in range(48) if known[c] == L.KNOWN_UNSEEN and c not in mine]
    others = [s for s in range(n) if s != seat]
    sizes = [len(_hand(true, s)) - sum(1 for c in range(48) if known[c] == s) for s in others]
    assert sum(sizes) == len(unknown)   # stock empty in this test
    sig = core.signals(r, true, seat)
    found = set()
    for perm in itertools.permutations(unknown):
        w = true.copy()
        pos = 0
        hands = []
        for s, k in zip(others, sizes):
            fixed = [c for c in range(48) if known[c] == s]
            h = sorted(fixed + list(perm[pos:pos + k]))
            pos += k
            w[L.S_HANDS + L.MAX_HAND * s:L.S_HANDS + L.MAX_HAND * s + 3] = h + [-1] * (3 - len(h))
            hands.append(tuple(h))
        if core.signals(r, w, seat) == sig:
            found.add(tuple(hands))
    return others, found


def test_uniform_over_consistent_worlds_with_signals():
    rules = Rules.preset("brisca-4-pairs-signals")
    # random play until the stock is empty and two cards remain in each hand
    for seed in range(40):
        deal = Deal.from_seed(rules, seed)
        rng = np.random.default_rng(seed)
        while not deal.over and deal.state[L.S_TRICK_NO] < 8:
            legal = deal.legal_actions()
            deal.play(int(legal[rng.integers(len(legal))]))
        if deal.over or deal.phase != "play":
            continue
        seat = deal.turn
        others, found = _consistent_worlds(rules, deal, seat)
        sig = core.signals(deal._r, deal.state, seat)
        # a case where the partner signal actually rules worlds out
        partner = (seat + 2) % 4
        if 3 <= len(found) and sig & (L.SIG_BRISCA | L.SIG_NO_TRUMP | 31):
            break
    else:
        pytest.fail("no suitable position")
    n = 3000
    worlds, _ = _worlds(deal, seat, n, seed=11)
    counts = collections.Counter(tuple(tuple(_hand(w, s)) for s in others) for w in worlds)
    assert set(counts) <= found, "a sampled world is inconsistent with the view"
    assert set(counts) == found
    for w in worlds[:50]:
        assert core.signals(deal._r, w, seat) == sig
        assert _hand(w, partner) in [list(h[others.index(partner)]) for h in found]
    p = stats.chisquare([counts[f] for f in sorted(found)]).pvalue
    assert p > 1e-3


def test_uniform_over_consistent_worlds_two_players():
    rules = Rules.preset("brisca-2")
    deal = Deal.from_seed(rules, 7)
    while not (deal.state[L.S_TRICK_NO] == 15 and deal.phase == "play"):
        deal.play(deal.legal_actions()[-1])   # never swap: no card becomes known
    seat = deal.turn
    worlds, spec = _worlds(deal, seat, 4000, seed=3)
    # 3 face-down cards and the face-up card left to draw: the opponent's 3 cards are any 3
    # of the 6 unknown ones, each subset equally likely
    assert spec[W_N_POOL] == 6
    counts = collections.Counter(tuple(_hand(w, 1 - seat)) for w in worlds)
    assert len(counts) == 20
    assert stats.chisquare(list(counts.values())).pvalue > 1e-3


def _stock_and_hands(w, m):
    return (tuple(int(c) for c in w[L.S_STOCK + w[L.S_DRAWN]:L.S_STOCK + m]),
            tuple(tuple(_hand(w, s)) for s in range(2)))


@pytest.mark.parametrize("preset", ["brisca-2", "briscola-2-scoperta"])
@pytest.mark.parametrize("tricks", [15, 16, 17])
def test_every_world_is_numbered_once(preset, tricks):
    """Near the end of the stock of a 2-player deal the worlds are counted and numbered:
    every number gives a world consistent with the view, no two the same, and they are
    exactly the worlds sampling draws."""
    rules = Rules.preset(preset)
    deal = Deal.from_seed(rules, 4)
    while not (deal.state[L.S_TRICK_NO] == tricks and deal.phase == "play"):
        deal.play(deal.legal_actions()[-1])
    seat = deal.turn
    sampled, spec = _worlds(deal, seat, 3000, seed=9)
    base = np.zeros(L.STATE_LEN, np.int16)
    v = deal.view(seat)
    prepare_worlds(deal._r, v.public, v.hand, seat, v.signals, base, spec)
    n = world_count(spec)
    m = int(deal._r[L.R_DECK_N]) - 3 * 2 - 1
    numbered = set()
    for i in range(n):
        w = np.zeros(L.STATE_LEN, np.int16)
        enumerate_world(base, spec, i, w)
        _check_world(rules, deal, seat, w)
        numbered.add(_stock_and_hands(w, m))
    assert len(numbered) == n >= 1
    assert {_stock_and_hands(w, m) for w in sampled} == numbered


def test_worlds_are_not_counted_when_several_hands_share_the_unknown_cards():
    rules = Rules.preset("brisca-3-hidden")
    deal = Deal.from_seed(rules, 4)
    _, spec = _worlds(deal, 0, 1)
    assert world_count(spec) == 0
