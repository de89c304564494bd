"""What a seat may know, as one flat ``int8`` array: the observation of the environments.

Every environment of :mod:`briscasim.envs` (the vectorised one, the PettingZoo one, the
OpenSpiel one) encodes a seat's view with :func:`encode`, which reads only the public part
of the deal state (``state[:PUBLIC_LEN]``), the seat's own hand and, when the rules give
them, its partners' signals: never another hand, the order of the face-down stock or a
declined swap offer of another seat (docs/rules.md, "What each seat may know").

The layout is declared once below as a :class:`~briscasim.engine.layout.Block`
(``OBSERVATION.table()`` prints it). The first nine fields hold one entry per card id
(``suit * 12 + face``, docs/rules.md card codes): 1 where the card is in that place as far
as the seat knows, else 0; every card in play is in exactly one of ``hand``, ``trick``,
``played``, ``face_up``, ``partner_holds``, ``opponent_holds`` and ``unseen`` (``winning``
marks one of the ``trick`` cards, ``takes`` the cards of the hand that would beat it). The
trick so far also gives the seat winning it and its card points. The counts are small whole
numbers (card points reach 120), so the array stays ``int8``: scale it as a learner likes.
Briscola Chiamata's fields come last (``CHIAMATA_FIELDS``, all 0 in the trick games): the
phase before the play, every seat's latest bid and pass, the standing bid (the contract)
with its target and seat (the caller), the called card, whether the seat holds it, and the
partner once the called card has been played; never the holder of the called card before
that (docs/rules.md, Briscola Chiamata, "What each seat knows").

The *action mask* is a separate ``int8`` array of ``N_ACTIONS`` entries (1: legal), from the
engine's :func:`~briscasim.engine.core.legal_actions`: card ids 0..47, ``ACTION_SWAP`` (48)
and ``ACTION_KEEP`` (49) at a swap offer; in Briscola Chiamata ``ACTION_PASS`` (50), the bids
``ACTION_BID + level`` (51..119) and the calls ``ACTION_CALL + card`` (120..167).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .engine.chiamata import bid_target, side_totals, trick_partner
from .engine.core import legal_actions, signals, trick_so_far
from .engine.primitives import at, beats, hand_of, seat_after
from .engine.layout import (
    DRAW, KNOWN_FACE_UP, KNOWN_PLAYED, KNOWN_STOCK_TOP, KNOWN_UNSEEN, MAX_LEGAL_ANY,
    MAX_PLAYERS, MAX_SIDES, N_ACTIONS, N_CARD_IDS, NO_CARD, OBJECTIVE_FEWEST, PHASE_AUCTION,
    PHASE_CALL, PHASE_OVER, PHASE_REOPEN, PHASE_SWAP, PUBLIC_LEN, RAIS_HAND_SHIFT, R_AUCTION,
    R_N_SIDES, R_OBJECTIVE, R_PLAYERS, R_SIDE, R_SIGNALS, RULES_LEN, SIGNALS_RAIS, STATE_LEN,
    S_BID, S_BIDDER, S_CALLED, S_CALLER, S_GAME_POINTS, S_HOLDER, S_KNOWN, S_LEADER, S_PASSED,
    S_PHASE, S_POINTS, S_SEAT_BIDS, S_TO_DRAW, S_TRICK, S_TRICK_N, S_TRICK_NO, S_TRICKS_WON,
    S_TRUMP, S_TURN, S_WINNER, Block)
from .errors import UserError

OBSERVATION = Block("observation", "int8")
O_HAND = OBSERVATION.field("hand", N_CARD_IDS, "1 for each card in the seat's hand")
O_TRICK = OBSERVATION.field("trick", N_CARD_IDS, "1 for each card played to the current "
                            "trick")
O_WINNING = OBSERVATION.field("winning", N_CARD_IDS, "1 for the card winning the current "
                              "trick so far (one of the trick's cards)")
O_TAKES = OBSERVATION.field("takes", N_CARD_IDS, "1 for each card of the seat's hand that "
                            "would win the current trick so far if played now (all 0 when "
                            "no card is on the table)")
O_PLAYED = OBSERVATION.field("played", N_CARD_IDS, "1 for each card played to a finished "
                             "trick")
O_FACE_UP = OBSERVATION.field("face_up", N_CARD_IDS, "1 for the face-up card while it is on "
                              "the table, and for the top of the stock while it is shown "
                              "(stock_top_visible)")
O_PARTNER_HOLDS = OBSERVATION.field("partner_holds", N_CARD_IDS, "1 for each card known to "
                                    "be in a partner's hand: publicly (a face-up card drawn, "
                                    "a card taken by a swap) or, to a Schembil captain, by "
                                    "the rais signals (the next team-mate's hand)")
O_OPPONENT_HOLDS = OBSERVATION.field("opponent_holds", N_CARD_IDS, "1 for each card publicly "
                                     "known to be in an opponent's hand")
O_UNSEEN = OBSERVATION.field("unseen", N_CARD_IDS, "1 for each card that may be in another "
                             "hand or the face-down stock")
O_TRUMP = OBSERVATION.field("trump", 4, "the trump suit, one-hot (oros, copas, espadas, "
                            "bastos)")
O_SEAT = OBSERVATION.field("seat", MAX_PLAYERS, "the seat, one-hot")
O_PLACE = OBSERVATION.field("place", MAX_PLAYERS, "the seat's place in the current trick, "
                            "one-hot (0: it leads, or led)")
O_WINNER = OBSERVATION.field("winner", MAX_PLAYERS, "the seat winning the current trick so "
                             "far, one-hot in seat order from the seat itself (all 0 when no "
                             "card is on the table)")
O_SWAP_OFFER = OBSERVATION.field("swap_offer", 1, "1 when the decision is a swap offer "
                                 "(swap or keep)")
O_TRICK_NO = OBSERVATION.field("trick_no", 1, "tricks completed")
O_TO_DRAW = OBSERVATION.field("to_draw", 1, "cards still to be drawn, the face-up card "
                              "included")
O_TRICK_POINTS = OBSERVATION.field("trick_points", 1, "card points on the table in the "
                                   "current trick")
O_POINTS = OBSERVATION.field("points", MAX_SIDES, "card points taken per side: the seat's "
                             "own side first, then the other sides in order after it (0 "
                             "past the last side)")
O_TRICKS_WON = OBSERVATION.field("tricks_won", MAX_SIDES, "tricks taken per side, in the "
                                 "same order")
O_SIGNALS = OBSERVATION.field("signals", 16, "its partners' signal bits (SIG_*, docs/rules.md "
                              "partner signals; a captain's RAIS_* bits under signals = "
                              "rais), 8 per partner in seat order after the seat; all 0 "
                              "without signals")
# Briscola Chiamata (all 0 in the trick games)
O_AUCTION_PHASE = OBSERVATION.field("auction_phase", 3, "Chiamata: 1 in the auction, at the "
                                    "reopen question, at the call (one-hot; all 0 in play)")
O_SEAT_BIDS = OBSERVATION.field("seat_bids", MAX_PLAYERS, "Chiamata: per seat, the seat's own "
                                "first and the others in seat order after it, 1 + its latest "
                                "bid level (ACTION_BID + level is the bid), 0: no bid")
O_PASSED = OBSERVATION.field("passed", MAX_PLAYERS, "Chiamata: 1 for each seat that has "
                             "passed in the auction, in the same order")
O_CONTRACT = OBSERVATION.field("contract", 1, "Chiamata: 1 + the standing bid's level (the "
                               "contract once the auction is won), 0: none")
O_TARGET = OBSERVATION.field("target", 1, "Chiamata: the card points the standing bid (the "
                             "contract) needs, 0: none")
O_CALLER = OBSERVATION.field("caller", MAX_PLAYERS, "Chiamata: the seat of the standing bid, "
                             "one-hot in the same order (the caller once the auction is won)")
O_CALLED = OBSERVATION.field("called", N_CARD_IDS, "Chiamata: 1 for the called card once "
                             "called")
O_HOLDS_CALLED = OBSERVATION.field("holds_called", 1, "Chiamata: 1 while the called card is "
                                   "in the seat's own hand (it is the caller's partner)")
O_PARTNER = OBSERVATION.field("partner", MAX_PLAYERS, "Chiamata: the seat that played the "
                              "called card, one-hot in the same order, from that card's "
                              "play on (all 0 before: the partner is secret until then)")
OBSERVATION_LEN = OBSERVATION.length
OBSERVATION.check(OBSERVATION_LEN)

PLACE_FIELDS = ("hand", "trick", "played", "face_up", "partner_holds", "opponent_holds",
                "unseen")
"""The per-card fields that place a card: every card in play is in exactly one of them."""
COUNT_FIELDS = ("trick_no", "to_draw", "trick_points", "points", "tricks_won", "seat_bids",
                "contract", "target")
"""The fields holding counts (every other entry is 0 or 1)."""
CHIAMATA_FIELDS = ("auction_phase", "seat_bids", "passed", "contract", "target", "caller",
                   "called", "holds_called", "partner")
"""Briscola Chiamata's fields, last in the observation (all 0 in the trick games)."""
_CHIAMATA_AT = O_AUCTION_PHASE

REWARD_OUTCOME, REWARD_MARGIN = 0, 1
REWARDS = {"outcome": REWARD_OUTCOME, "margin": REWARD_MARGIN}
"""Reward kinds: ``outcome`` is +1 for a side that wins the deal, -1 for one that loses, 0
for every side in a draw; ``margin`` is the side's card points minus the best of the other
sides' (turned round under ``objective = fewest``, so that more is better either way).

In Briscola Chiamata ``outcome`` is the seat's game points, the settlement of the deal
(+2 / +1 / -1 a seat for a contract made, turned round for one failed, +4 for a caller alone,
times the multiplier; they sum to 0; 0 to all for a deal thrown in), and ``margin`` the card
points of the seat's side beyond what it needed: the caller's side's points minus the
contract's target, the defenders' points minus the points that beat the contract (all the
points less the target, plus 1): at least 0 exactly for the seats whose game points are
positive (0 to all for a deal thrown in)."""


def check_reward(reward) -> None:
    """Refuse a reward kind that is not one of ``REWARDS`` (:class:`UserError`)."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise UserError(f"reward = {reward!r}: choose one of {', '.join(REWARDS)}")


@njit(cache=True, _nrt=False, inline="always")
def encode(rules, state, seat, out):
    """Write what ``seat`` may know of ``state`` into ``out`` (``OBSERVATION_LEN`` int8, the
    fields ``O_*``) (jitted). Reads the public state, the seat's hand and its signals only."""
    sig = signals(rules, state, seat) if rules[R_SIGNALS] != 0 else 0
    encode_view(rules, state[:PUBLIC_LEN], hand_of(rules, state, seat), seat, sig, out)


@njit(cache=True, _nrt=False, inline="always")
def encode_view(rules, public, hand, seat, sig, out):
    """:func:`encode` from a strategy's arguments: the public state ``public``, the seat's
    ``hand`` slots and the ``sig`` it receives (jitted)."""
    state = public
    n = rules[R_PLAYERS]
    side = rules[at(R_SIDE + seat)]
    partners = np.int64(0)      # seats as bits: the seat's partners, its opponents
    opponents = np.int64(0)
    for s in range(n):
        same = rules[at(R_SIDE + s)] == side
        partners |= np.int64(same & (s != seat)) << s
        opponents |= np.int64(not same) << s
    known = state[S_KNOWN:S_KNOWN + N_CARD_IDS]
    # one simple loop per field, so that each compiles to a few vector instructions
    for c in range(N_CARD_IDS):
        out[at(O_HAND + c)] = 0
    for c in range(N_CARD_IDS):
        out[at(O_TRICK + c)] = 0
    for c in range(N_CARD_IDS):
        out[at(O_WINNING + c)] = 0
    for c in range(N_CARD_IDS):
        out[at(O_TAKES + c)] = 0
    for c in range(N_CARD_IDS):
        out[at(O_PLAYED + c)] = known[at(c)] == KNOWN_PLAYED
    for c in range(N_CARD_IDS):
        out[at(O_FACE_UP + c)] = (known[at(c)] == KNOWN_FACE_UP) | (
            known[at(c)] == KNOWN_STOCK_TOP)
    for c in range(N_CARD_IDS):
        out[at(O_UNSEEN + c)] = known[at(c)] == KNOWN_UNSEEN
    for c in range(N_CARD_IDS):
        k = np.int64(known[at(c)]) & 63     # a seat 0..5, or a KNOWN_* past every seat
        out[at(O_PARTNER_HOLDS + c)] = (partners >> k) & 1
    for c in range(N_CARD_IDS):
        k = np.int64(known[at(c)]) & 63
        out[at(O_OPPONENT_HOLDS + c)] = (opponents >> k) & 1
    for i in range(hand.shape[0]):
        c = hand[i]
        if c != NO_CARD:
            out[at(O_HAND + c)] = 1
            out[at(O_UNSEEN + c)] = 0
    trick_n = state[S_TRICK_N]
    for i in range(trick_n):
        c = state[at(S_TRICK + i)]
        out[at(O_TRICK + c)] = 1
        out[at(O_PLAYED + c)] = 0
    for i in range(4):
        out[O_TRUMP + i] = state[S_TRUMP] == i
    place = seat - state[S_LEADER]
    place += n if place < 0 else 0
    for i in range(MAX_PLAYERS):
        out[O_SEAT + i] = seat == i
        out[O_PLACE + i] = place == i
        out[O_WINNER + i] = 0
    out[O_TRICK_POINTS] = 0
    if trick_n > 0:
        best, best_card, points = trick_so_far(rules, state)
        out[at(O_WINNING + best_card)] = 1
        winner = seat_after(state[S_LEADER], best, n) - seat
        out[at(O_WINNER + winner + (n if winner < 0 else 0))] = 1
        out[O_TRICK_POINTS] = points
        trump = state[S_TRUMP]
        for i in range(hand.shape[0]):
            c = hand[i]
            if c != NO_CARD:
                out[at(O_TAKES + c)] = beats(rules, c, best_card, trump)
    out[O_SWAP_OFFER] = state[S_PHASE] == PHASE_SWAP
    out[O_TRICK_NO] = state[S_TRICK_NO]
    out[O_TO_DRAW] = state[S_TO_DRAW]
    n_sides = rules[R_N_SIDES]
    for i in range(MAX_SIDES):
        s = side + i
        s -= n_sides if s >= n_sides else 0
        out[O_POINTS + i] = state[at(S_POINTS + s)] if i < n_sides else 0
        out[O_TRICKS_WON + i] = state[at(S_TRICKS_WON + s)] if i < n_sides else 0
    for i in range(16):
        out[O_SIGNALS + i] = (sig >> i) & 1
    if rules[R_SIGNALS] == SIGNALS_RAIS:
        for c in range(N_CARD_IDS):
            if (sig >> (RAIS_HAND_SHIFT + c)) & 1:
                out[at(O_PARTNER_HOLDS + c)] = 1
                out[at(O_UNSEEN + c)] = 0
    if rules[R_AUCTION] != 0:
        _encode_chiamata(rules, state, hand, seat, out)
    else:
        for i in range(_CHIAMATA_AT, OBSERVATION_LEN):
            out[i] = 0


@njit(cache=True, _nrt=False)
def _encode_chiamata(rules, state, hand, seat, out):
    """The Briscola Chiamata fields of :func:`encode`: the public auction and call, whether
    the seat holds the called card, the partner once the called card is played."""
    n = rules[R_PLAYERS]
    for i in range(_CHIAMATA_AT, OBSERVATION_LEN):
        out[i] = 0
    phase = state[S_PHASE]
    out[O_AUCTION_PHASE] = phase == PHASE_AUCTION
    out[O_AUCTION_PHASE + 1] = phase == PHASE_REOPEN
    out[O_AUCTION_PHASE + 2] = phase == PHASE_CALL
    for i in range(n):
        s = seat + i
        s -= n if s >= n else 0
        out[O_SEAT_BIDS + i] = state[S_SEAT_BIDS + s] + 1
        out[O_PASSED + i] = (state[S_PASSED] >> s) & 1
    bid = state[S_BID]
    if bid >= 0:
        out[O_CONTRACT] = bid + 1
        out[O_TARGET] = bid_target(rules, bid)
        caller = state[S_BIDDER] - seat
        out[O_CALLER + (caller + n if caller < 0 else caller)] = 1
    called = state[S_CALLED]
    if called >= 0:
        out[O_CALLED + called] = 1
        for c in hand:
            if c == called:
                out[O_HOLDS_CALLED] = 1
        partner = trick_partner(rules, state)
        if partner >= 0:
            partner -= seat
            out[O_PARTNER + (partner + n if partner < 0 else partner)] = 1


@njit(cache=True, _nrt=False, inline="always")
def write_mask(rules, state, legal, out):
    """Write the action mask of the seat to act into ``out`` (``N_ACTIONS`` int8; all 0 once
    the deal is over) and its legal actions into ``legal`` (``MAX_LEGAL`` int16, in Briscola
    Chiamata ``MAX_LEGAL_ANY``); return how many there are (jitted)."""
    for a in range(N_ACTIONS):
        out[a] = 0
    k = legal_actions(rules, state, legal)
    for i in range(k):
        out[at(legal[i])] = 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def write_rewards(rules, state, kind, out):
    """Write every seat's reward for the finished deal ``state`` into ``out`` (a row of
    ``players`` float32): ``REWARD_OUTCOME`` or ``REWARD_MARGIN`` (jitted)."""
    n = rules[R_PLAYERS]
    if rules[R_AUCTION] != 0:
        _chiamata_rewards(rules, state, kind, out)
        return
    n_sides = rules[R_N_SIDES]
    fewest = rules[R_OBJECTIVE] == OBJECTIVE_FEWEST
    winner = state[S_WINNER]
    for seat in range(n):
        side = rules[at(R_SIDE + seat)]
        if kind == REWARD_OUTCOME:
            out[seat] = 0.0 if winner == DRAW else (1.0 if winner == side else -1.0)
        else:
            own = state[at(S_POINTS + side)]
            best = -1
            for s in range(n_sides):
                if s != side:
                    p = state[at(S_POINTS + s)]
                    if best < 0 or ((p < best) if fewest else (p > best)):
                        best = p
            out[seat] = (best - own) if fewest else (own - best)


@njit(cache=True, _nrt=False)
def _chiamata_rewards(rules, state, kind, out):
    """:func:`write_rewards` in Briscola Chiamata: game points, or the margin over what each
    side needed (``REWARDS``)."""
    n = rules[R_PLAYERS]
    caller = state[S_CALLER]
    if kind == REWARD_OUTCOME or caller < 0:
        for seat in range(n):     # a deal thrown in has no caller and no game points
            out[seat] = state[S_GAME_POINTS + seat] if kind == REWARD_OUTCOME else 0.0
        return
    pts, _ = side_totals(state)
    total = 0
    for s in range(n):
        total += state[S_POINTS + s]
    target = bid_target(rules, state[S_BID])
    for seat in range(n):
        ours = (seat == caller) | (seat == state[S_HOLDER])
        out[seat] = (pts - target) if ours else (total - pts) - (total - target + 1)


@njit(cache=True, _nrt=False)
def _observe(rules, state, seat, obs, mask, legal):
    """:func:`encode` for ``seat``, and the action mask if it is the seat to act (else all
    0), from Python."""
    encode(rules, state, seat, obs)
    if state[S_PHASE] != PHASE_OVER and state[S_TURN] == seat:
        write_mask(rules, state, legal, mask)
    else:
        for a in range(N_ACTIONS):
            mask[a] = 0


def observe(rules_vector: np.ndarray, state: np.ndarray, seat: int) -> tuple[np.ndarray,
                                                                             np.ndarray]:
    """The observation and action mask of ``seat`` in the deal ``state`` (new arrays); the
    mask is all 0 unless the seat is to act. ``rules_vector`` is ``Rules.to_array()`` and
    ``state`` a deal state (``Deal.state``), both as the engine lays them out; anything else
    is refused (:class:`~briscasim.errors.UserError`)."""
    for name, a, length, dtype, source in (("rules_vector", rules_vector, RULES_LEN, np.int64,
                                            "Rules.to_array()"),
                                           ("state", state, STATE_LEN, np.int16, "Deal.state")):
        if not isinstance(a, np.ndarray) or a.shape != (length,) or a.dtype != dtype:
            what = (f"an array of shape {a.shape} and type {a.dtype}"
                    if isinstance(a, np.ndarray) else type(a).__name__)
            raise UserError(f"observe: {name} must be {source} ({length} {np.dtype(dtype)}), "
                            f"not {what}")
    players = int(rules_vector[R_PLAYERS])
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) \
            or not 0 <= seat < players:
        raise UserError(f"observe: seat = {seat!r} must be a seat from 0 to {players - 1}")
    obs = np.zeros(OBSERVATION_LEN, np.int8)
    mask = np.zeros(N_ACTIONS, np.int8)
    _observe(rules_vector, state, seat, obs, mask, np.empty(MAX_LEGAL_ANY, np.int16))
    return obs, mask


def fields(obs: np.ndarray) -> dict[str, np.ndarray]:
    """An observation (or a batch of them, the fields on the last axis) cut into its named
    fields (views)."""
    return {f.name: obs[..., f.offset:f.offset + f.size] for f in OBSERVATION.fields}

