"""Determinizations: full deal states consistent with everything a seat knows.

A search strategy sees only its seat's view (docs/rules.md). To search it samples
*worlds*: complete engine states that agree with the view, the unknown cards dealt uniformly
at random over every world consistent with it. What the view pins down:

- the seat's own hand, every card played, the face-up card, the trick and the scores
  (copied from the public state);
- cards publicly known to be in a hand (``public[S_KNOWN + card]`` is a seat number: the
  face-up card once drawn, a card taken by a swap, every card under ``open_hands``) go to
  that hand, and a top of the stock shown to all (``KNOWN_STOCK_TOP``) stays on top;
- the number of cards in each hand (equal at the start of a trick, one fewer for the seats
  that have played to the current trick) and in the face-down stock (from the rules and the
  public draw counters);
- partner signals (``SIG_*`` bytes): the partner holds exactly the signalled trump A, 3, R,
  C, S and none of the others; a non-trump A or 3 or none; some trump or none.

Sampling is split in two: :func:`prepare_worlds` once per decision (a base state with every
known card placed, and a *spec* of the unknown cards and the slots they may fill), then
:func:`sample_world` per world. Without signals a world is one shuffle of the unknown cards
into the free slots. With signals, the partners' free slots are filled first by an exact
rejection sampler (uniform subsets of the cards each partner may hold, accepted with the
probability that makes the joint draw uniform, then checked against "holds at least one"),
and the remaining cards are shuffled into the other slots. Every consistent world is equally
likely (tests/test_sampling.py checks this by enumeration). Where one hand takes every
unknown card the stock does not (2-player play), the worlds can be counted
(:func:`world_count`) and numbered (:func:`enumerate_world`), for a search over every one of
them near the end of the stock. A search that reuses worlds keeps
each as the cards of its slots (:func:`keep_world`) and rebuilds it on the base
(:func:`restore_world`).
"""
import numpy as np
from numba import njit

from ..engine.chiamata import place_holder, trick_partner
from ..engine.primitives import hand_base, popcount
from ..engine.layout import (KNOWN_STOCK_TOP, KNOWN_UNSEEN, MAX_HAND, MAX_PLAYERS, NO_CARD,
                             N_CARD_IDS, PHASE_PLAY, PUBLIC_LEN, R_PLAYERS, R_SIDE, R_SIGNALS,
                             R_START_STATE, RAIS_HAND_SHIFT, SIGNALS_RAIS, S_CALLED, S_DRAWN,
                             S_HOLDER, S_HANDS, S_KNOWN, S_LEADER, S_N_FACEDOWN, S_PHASE,
                             S_STOCK, S_TRICK_N, S_TRUMP, SIG_BRISCA, SIG_NO_TRUMP, SIG_VALID,
                             START_STATE_SLOTS, STATE_LEN, Block)
from ..engine.rng import below, uniform

# ---- the spec written by prepare_worlds (int64) --------------------------------------------
SPEC = Block("world sampling spec", "int64")
W_N_POOL = SPEC.field("n_pool", 1, "unknown cards to deal (not forced into a hand by a signal)")
W_POOL = SPEC.field("pool", N_CARD_IDS, "those cards (reordered by every sample)")
W_SLOT = SPEC.field("slot", N_CARD_IDS, "state indices they fill: partners' free slots first, "
                    "in partner order, then the other hands' free slots, then the stock")
W_N_SLOTS = SPEC.field("n_slots", 1, "number of slots (equals n_pool for a consistent view)")
W_POOL_MASK = SPEC.field("pool_mask", 1, "the pool as a 48-bit mask")
W_TRUMPS = SPEC.field("trumps", 1, "mask of the trump cards")
W_BRISCAS = SPEC.field("briscas", 1, "mask of the non-trump A and 3")
W_N_PARTNERS = SPEC.field("n_partners", 1, "partners with a signal")
P_FREE, P_FORBIDDEN, P_NEED_TRUMP, P_NEED_BRISCA = 0, 1, 2, 3
P_LEN = 4
W_PARTNER = SPEC.field("partner", (MAX_PLAYERS - 1) * P_LEN, "per signalling partner: the "
                       "fields P_* above")
W_COUNT = SPEC.field("count", MAX_PLAYERS, "scratch: free hand slots per seat")
SPEC_LEN = SPEC.length
SPEC.check()

_ONE = 1


@njit(cache=True, _nrt=False, inline="always")
def _nth_bit(x, r):
    """The card of the ``r``-th set bit (0-based) of the mask ``x``."""
    for c in range(N_CARD_IDS):
        if (x >> c) & 1:
            if r == 0:
                return c
            r -= 1
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _comb(a, f):
    r = 1.0
    for i in range(f):
        r = r * (a - i) / (i + 1)
    return r


@njit(cache=True, _nrt=False)
def hand_sizes(rules, public, hand, seat, out):
    """Cards in every seat's hand, from the seat's own hand and the trick so far (jitted).

    All hands are equal at the start of a trick; seats that have played to the current trick
    hold one card fewer. Writes ``out[s]`` for every seat.
    """
    n = rules[R_PLAYERS]
    trick_n = public[S_TRICK_N] if public[S_PHASE] == PHASE_PLAY else 0
    leader = public[S_LEADER]
    k = 0
    for i in range(hand.shape[0]):
        if hand[i] != NO_CARD:
            k += 1
    full = k + (1 if (seat - leader) % n < trick_n else 0)
    for s in range(n):
        out[s] = full - (1 if (s - leader) % n < trick_n else 0)


@njit(cache=True, _nrt=False, inline="always")
def _set_pool(spec, pool):
    """Write the unknown cards of the mask ``pool`` into ``spec`` (mask, list and count)."""
    spec[W_POOL_MASK] = pool
    k = 0
    for c in range(N_CARD_IDS):
        if (pool >> c) & 1:
            spec[W_POOL + k] = c
            k += 1
    spec[W_N_POOL] = k


@njit(cache=True, _nrt=False)
def prepare_worlds(rules, public, hand, seat, signals, base, spec):
    """Prepare sampling for the seat's view (jitted).

    Writes ``base`` (an int16 state of ``STATE_LEN``: the public part, the seat's hand, every
    publicly known card in its hand, signal-forced cards in the partners' hands, empty slots
    elsewhere) and ``spec`` (int64, ``SPEC_LEN``: the unknown cards and where they may go).
    """
    n = rules[R_PLAYERS]
    for i in range(PUBLIC_LEN):
        base[i] = public[i]
    # the hidden part as at the start of a deal (empty hands, the count of face-down cards,
    # no declined offers), with an empty stock
    start = rules[R_START_STATE:R_START_STATE + START_STATE_SLOTS].view(np.int16)
    for i in range(PUBLIC_LEN, STATE_LEN):
        base[i] = start[i]
    for i in range(S_STOCK, S_STOCK + N_CARD_IDS):
        base[i] = NO_CARD
    if public[S_CALLED] >= 0:
        base[S_HOLDER] = trick_partner(rules, public)   # Chiamata: known once it is played
    count = spec[W_COUNT:W_COUNT + MAX_PLAYERS]
    hand_sizes(rules, public, hand, seat, count)
    mine = 0
    for i in range(hand.shape[0]):
        c = hand[i]
        base[hand_base(seat) + i] = c
        if c != NO_CARD:
            mine |= _ONE << c
    count[seat] = 0
    pool = 0
    top = 0     # 1 when the top of the stock is shown (stock_top_visible): it stays there
    for c in range(N_CARD_IDS):
        k = public[S_KNOWN + c]
        if 0 <= k < n and k != seat:
            _place(base, k, c)
            count[k] -= 1
        elif k == KNOWN_UNSEEN and (mine >> c) & 1 == 0:
            pool |= _ONE << c
        elif k == KNOWN_STOCK_TOP:
            base[S_STOCK + public[S_DRAWN]] = c
            top = 1
    trump = public[S_TRUMP]
    trumps = ((_ONE << 12) - 1) << (12 * trump)
    briscas = 0
    for s in range(4):
        if s != trump:
            briscas |= (_ONE << (12 * s)) | (_ONE << (12 * s + 1))
    spec[W_TRUMPS] = trumps
    spec[W_BRISCAS] = briscas
    if rules[R_SIGNALS] == SIGNALS_RAIS:
        # a captain's information: the next team-mate's hand once no draw is left (the
        # bytes about the partners' hands are not used to shape the worlds)
        mate = -1
        for i in range(n - 1, 0, -1):
            p = (seat + i) % n
            mate = p if rules[R_SIDE + p] == rules[R_SIDE + seat] else mate
        shown = (signals >> RAIS_HAND_SHIFT) & ((_ONE << N_CARD_IDS) - 1)
        for c in range(N_CARD_IDS):
            if (shown >> c) & 1 and (pool >> c) & 1:
                _place(base, mate, c)
                count[mate] -= 1
                pool &= ~(_ONE << c)
        signals = 0
    # partner signals: forced cards go to the partner now; the rest is checked per sample
    n_part = 0
    shift = 0
    side = rules[R_SIDE + seat]
    for i in range(1, n):
        p = (seat + i) % n
        if rules[R_SIDE + p] != side:
            continue
        b = (signals >> shift) & 255
        shift += 8
        if b & SIG_VALID == 0:
            continue
        held = 0
        for j in range(MAX_HAND):
            c = base[hand_base(p) + j]
            if c != NO_CARD:
                held |= _ONE << c
        forbidden = 0
        for f in range(5):  # trump A 3 R C S: SIG bit 1 << face
            c = 12 * trump + f
            if b & (1 << f):
                if (held >> c) & 1 == 0 and (pool >> c) & 1:
                    _place(base, p, c)
                    count[p] -= 1
                    pool &= ~(_ONE << c)
                    held |= _ONE << c
            else:
                forbidden |= _ONE << c
        if b & SIG_BRISCA == 0:
            forbidden |= briscas
        if b & SIG_NO_TRUMP:
            forbidden |= trumps
        q = W_PARTNER + P_LEN * n_part
        spec[q + P_FREE] = p  # seat for now; replaced by the free count below
        spec[q + P_FORBIDDEN] = forbidden
        spec[q + P_NEED_TRUMP] = 1 if (b & SIG_NO_TRUMP == 0 and held & trumps == 0) else 0
        spec[q + P_NEED_BRISCA] = 1 if (b & SIG_BRISCA and held & briscas == 0) else 0
        n_part += 1
    spec[W_N_PARTNERS] = n_part
    _set_pool(spec, pool)
    # slots: partners first, then everyone else, then the face-down stock
    ns = 0
    for j in range(n_part):
        q = W_PARTNER + P_LEN * j
        p = spec[q + P_FREE]
        spec[q + P_FREE] = count[p]
        ns = _free_slots(base, p, count[p], spec, ns)
        count[p] = 0
    for s in range(n):
        ns = _free_slots(base, s, count[s], spec, ns)
    for i in range(base[S_DRAWN] + top, base[S_N_FACEDOWN]):
        spec[W_SLOT + ns] = S_STOCK + i
        ns += 1
    spec[W_N_SLOTS] = ns


# which true hands :func:`reveal` places (bits; the cheating reference ``peek``)
REVEAL_OTHERS, REVEAL_PARTNERS = 1, 2


@njit(cache=True, _nrt=False)
def reveal(rules, truth, seat, which, base, spec):
    """Put into ``base`` the hands ``truth`` (a full state) deals to the other sides' seats
    (``which & REVEAL_OTHERS``) and to the seat's partners (``which & REVEAL_PARTNERS``), and
    take their cards and slots out of ``spec``: the worlds then differ only in the other
    hands and the stock. For a cheating reference, never for a player (CHEATING: reads
    hidden hands; jitted). With partners revealed, prepare the worlds without signals."""
    side = rules[R_SIDE + seat]
    pool = spec[W_POOL_MASK]
    for x in range(rules[R_PLAYERS]):
        mate = rules[R_SIDE + x] == side
        if x == seat or which & (REVEAL_PARTNERS if mate else REVEAL_OTHERS) == 0:
            continue
        h = hand_base(x)
        for i in range(MAX_HAND):
            c = truth[h + i]
            base[h + i] = c
            if c != NO_CARD:
                pool &= ~(_ONE << c)
        k = 0
        for i in range(spec[W_N_SLOTS]):
            slot = spec[W_SLOT + i]
            if not h <= slot < h + MAX_HAND:
                spec[W_SLOT + k] = slot
                k += 1
        spec[W_N_SLOTS] = k
    _set_pool(spec, pool)


@njit(cache=True, _nrt=False, inline="always")
def _place(state, seat, card):
    base = hand_base(seat)
    for i in range(MAX_HAND):
        if state[base + i] == NO_CARD:
            state[base + i] = card
            return


@njit(cache=True, _nrt=False, inline="always")
def _free_slots(base, seat, k, spec, ns):
    """Record the first ``k`` empty slots of the seat's hand as slots to fill."""
    h = hand_base(seat)
    for i in range(MAX_HAND):
        if k > 0 and base[h + i] == NO_CARD:
            spec[W_SLOT + ns] = h + i
            ns += 1
            k -= 1
    return ns


@njit(cache=True, _nrt=False)
def _sample_partners(spec, rng, out):
    """Fill the signalling partners' free slots; return how many slots were filled.

    Partner ``j`` draws its free cards uniformly from the pool cards it may hold and that
    earlier partners did not take. The draw is accepted with probability
    ``prod_j C(a_j, f_j) / C(A_j, f_j)`` (``a_j`` cards left to it, ``A_j`` allowed in all,
    ``f_j`` free slots), which makes the joint draw uniform, and only if every "holds at
    least one" signal is met.
    """
    n_part = spec[W_N_PARTNERS]
    pool = spec[W_POOL_MASK]
    trumps = spec[W_TRUMPS]
    briscas = spec[W_BRISCAS]
    while True:
        taken = 0
        weight = 1.0
        ok = True
        ns = 0
        for j in range(n_part):
            q = W_PARTNER + P_LEN * j
            f = spec[q + P_FREE]
            allowed = pool & ~spec[q + P_FORBIDDEN]
            avail = allowed & ~taken
            a = popcount(avail)
            if a < f:
                ok = False
                break
            weight *= _comb(a, f) / _comb(popcount(allowed), f)
            picked = 0
            for i in range(f):
                c = _nth_bit(avail, below(rng, a - i))
                avail &= ~(_ONE << c)
                picked |= _ONE << c
                out[spec[W_SLOT + ns]] = c
                ns += 1
            taken |= picked
            if ((spec[q + P_NEED_TRUMP] != 0 and picked & trumps == 0)
                    or (spec[q + P_NEED_BRISCA] != 0 and picked & briscas == 0)):
                ok = False
                break
        if ok and (weight >= 1.0 or uniform(rng) < weight):
            return ns


@njit(cache=True, _nrt=False)
def sample_world(base, spec, rng, out):
    """Write into ``out`` a world drawn uniformly from those consistent with the view that
    :func:`prepare_worlds` turned into ``base`` and ``spec`` (jitted)."""
    for i in range(STATE_LEN):
        out[i] = base[i]
    npool = spec[W_N_POOL]
    first = 0
    if spec[W_N_PARTNERS] > 0:
        first = _sample_partners(spec, rng, out)
        # list the cards the partners did not take
        rest = spec[W_POOL_MASK]
        for i in range(first):
            rest &= ~(_ONE << out[spec[W_SLOT + i]])
        npool = 0
        for c in range(N_CARD_IDS):
            if (rest >> c) & 1:
                spec[W_POOL + npool] = c
                npool += 1
    # Fisher-Yates over the pool array (any starting order gives a uniform permutation)
    slot = W_SLOT + first
    for i in range(npool):
        j = i + below(rng, npool - i)
        c = spec[W_POOL + j]
        spec[W_POOL + j] = spec[W_POOL + i]
        spec[W_POOL + i] = c
        out[spec[slot + i]] = c
    if out[S_CALLED] >= 0:
        place_holder(out)       # Briscola Chiamata: who holds the called card in this world


@njit(cache=True, _nrt=False)
def keep_world(spec, world, cards):
    """Write into ``cards`` (one entry per slot of ``spec``) the cards ``world`` holds in the
    slots :func:`prepare_worlds` left to fill: with the base state, all that tells this world
    from another (jitted)."""
    for i in range(spec[W_N_SLOTS]):
        cards[i] = world[spec[W_SLOT + i]]


@njit(cache=True, _nrt=False)
def restore_world(base, spec, cards, out):
    """Write into ``out`` the world :func:`keep_world` kept in ``cards`` (jitted)."""
    for i in range(STATE_LEN):
        out[i] = base[i]
    for i in range(spec[W_N_SLOTS]):
        out[spec[W_SLOT + i]] = cards[i]
    if out[S_CALLED] >= 0:
        place_holder(out)


@njit(cache=True, _nrt=False)
def first_stock_slot(spec):
    """The index in ``spec``'s slots of the first unknown face-down stock card (the stock's
    slots come last); ``spec[W_N_SLOTS]`` if there is none (jitted)."""
    first = spec[W_N_SLOTS]
    while first > 0 and spec[W_SLOT + first - 1] >= S_STOCK:
        first -= 1
    return first


@njit(cache=True, _nrt=False)
def redraw_stock(spec, first, rng, world):
    """Put the unknown face-down stock cards of ``world`` (slots ``first`` on, from
    :func:`first_stock_slot`) in a new order drawn uniformly (the hands stay): given the
    hands, every order of them is equally likely (jitted)."""
    n_slots = spec[W_N_SLOTS]
    for i in range(first, n_slots - 1):
        a = spec[W_SLOT + i]
        b = spec[W_SLOT + i + below(rng, n_slots - i)]
        c = world[a]
        world[a] = world[b]
        world[b] = c


_COUNT_CAP = 1 << 40     # world_count stops counting past this


@njit(cache=True, _nrt=False)
def _stock_slots_if_one_hand(spec):
    """The unknown face-down stock slots of ``spec`` if one hand takes every other unknown
    card, else -1."""
    holder = -1
    stock = 0
    for i in range(spec[W_N_SLOTS]):
        slot = spec[W_SLOT + i]
        if slot >= S_STOCK:
            stock += 1
            continue
        h = (slot - S_HANDS) // MAX_HAND
        if holder >= 0 and h != holder:
            return -1
        holder = h
    return stock


@njit(cache=True, _nrt=False)
def world_count(spec):
    """How many worlds are consistent with the view when one hand takes every unknown card
    the stock does not (2-player play): the ordered choices of the face-down stock's
    unknown cards out of the pool, at least ``_COUNT_CAP`` once past it; 0 if the unknown
    cards go to several hands or partner signals shape them (jitted)."""
    stock = _stock_slots_if_one_hand(spec)
    if spec[W_N_PARTNERS] > 0 or stock < 0:
        return 0
    count = 1
    for i in range(stock):
        count *= spec[W_N_POOL] - i
        if count >= _COUNT_CAP:
            break
    return count


@njit(cache=True, _nrt=False)
def enumerate_world(base, spec, index, out):
    """Write into ``out`` world number ``index`` (0 <= index < :func:`world_count`) of those
    consistent with the view: ``index`` in mixed radix picks the face-down stock's cards in
    order out of the pool, the rest fill the hand; every world has one number (jitted)."""
    for i in range(STATE_LEN):
        out[i] = base[i]
    first = first_stock_slot(spec)
    left = spec[W_POOL_MASK]
    m = spec[W_N_POOL]
    for i in range(first, spec[W_N_SLOTS]):
        c = _nth_bit(left, index % m)
        index //= m
        m -= 1
        out[spec[W_SLOT + i]] = c
        left &= ~(_ONE << c)
    for i in range(first):
        c = _nth_bit(left, 0)
        out[spec[W_SLOT + i]] = c
        left &= ~(_ONE << c)
    if out[S_CALLED] >= 0:
        place_holder(out)


@njit(cache=True, _nrt=False)
def unique_world(spec):
    """True if only one world is consistent with the view: every unknown card must go to
    the same hand (2-player play once the stock is empty) (jitted)."""
    return _stock_slots_if_one_hand(spec) == 0
