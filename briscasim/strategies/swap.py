"""Swap policies: when to exchange the trump 7 (or 2) for the face-up card.

A policy is combined with any play strategy in a spec (``greedy+hold:stock=6``) and answers
every swap offer for it; ``by_play`` (no ``+policy``) leaves the answer to the play strategy.

- ``immediate``: swap at the first offer.
- ``never``: never swap.
- ``hold`` ("hold the 7"): decline offers until one of its enabled triggers fires: the stock
  is down to ``stock`` cards still to draw; the offer is the ``last_chance`` the swap window
  gives (docs/rules.md: the next trick's offer would come too late under ``swap_timing``);
  the opponents' high trumps are gone (``trumps_gone``: the trump A and 3 are each played,
  face up, in the seat's hand, or known or signalled to be in a partner's hand). A 2-swap
  (taking a small trump) is made at once unless ``hold_two``.

Holding is a gamble the engine plays out honestly: another player may win the tricks while
the seat waits, or draw the face-up card, and the chance never comes back. Whether it pays
off is answered by duplicate play of ``greedy+immediate`` against ``greedy+hold:...`` (same
opponent, same cards); :func:`swap_summary` reads from the records how often each entry
swapped, when, and how often it declined and never swapped.
"""
import numpy as np
from numba import njit

from ..engine.layout import (ACTION_KEEP, ACTION_SWAP, KNOWN_FACE_UP,
                             KNOWN_PLAYED, R_SEVEN_FACES, R_SIGNALS, R_SWAP_SEVEN,
                             R_SWAP_TIMING, REC_SWAP2_DECLINED, REC_SWAP2_SEAT,
                             REC_SWAP7_DECLINED, REC_SWAP7_SEAT, REC_SWAP7_TRICK,
                             REC_WINNER, SIGNALS_HONEST, SIG_TRUMP_ACE, SIG_TRUMP_THREE,
                             TIMING_BEFORE_DRAW)
from . import view as V
from .api import SWAP_BY_PLAY, SWAP_HOLD, SWAP_IMMEDIATE, SWAP_NEVER
from .params import Param, StrategyDef

P_STOCK = 0
P_LAST_CHANCE = 1
P_TRUMPS_GONE = 2
P_HOLD_TWO = 3

POLICIES = (
    StrategyDef("by_play", SWAP_BY_PLAY, (), "the play strategy answers swap offers (the "
                "default when a spec names no policy)"),
    StrategyDef("immediate", SWAP_IMMEDIATE, (), "swap at the first offer"),
    StrategyDef("never", SWAP_NEVER, (), "never swap"),
    StrategyDef("hold", SWAP_HOLD, (
        Param("stock", int, -1, -1, 48, "swap once at most this many cards are still to "
              "draw (-1: off)"),
        Param("last_chance", bool, True, doc="swap at the last offer the swap window allows"),
        Param("trumps_gone", bool, False, doc="swap once no opponent can hold the trump A "
              "or 3"),
        Param("hold_two", bool, False, doc="hold 2-swaps too (else they are made at once)"),
    ), "hold the 7: decline swap offers until a trigger fires (any enabled one)"),
)

_A, _THREE, _SEVEN = 0, 1, 7


@njit(cache=True, _nrt=False, inline="always")
def _accounted(rules, public, hand, seat, signals, card, sig_bit):
    """True if no opponent can hold ``card``: played, face up, in ``hand``, or known or
    signalled to be in a partner's hand."""
    where = V.where(public, card)
    if where == KNOWN_PLAYED or where == KNOWN_FACE_UP:
        return True
    for i in range(hand.shape[0]):
        if hand[i] == card:
            return True
    n = V.players(rules)
    if 0 <= where < n:
        return V.side_of(rules, where) == V.side_of(rules, seat)
    # signals: one byte per partner; a partner signalled the card if any byte has its bit
    s = signals if rules[R_SIGNALS] == SIGNALS_HONEST else 0
    while s != 0:
        if (s & sig_bit) != 0:
            return True
        s >>= 8
    return False


@njit(cache=True, _nrt=False, inline="always")
def last_chance(rules, public):
    """True if the swap offered now is the last the swap window allows (jitted)."""
    n = V.players(rules)
    needed = 2 * n if rules[R_SWAP_TIMING] == TIMING_BEFORE_DRAW else n
    return V.to_draw(public) - n < needed


@njit(cache=True, _nrt=False)
def swap_decision(kind, params, rules, public, hand, seat, signals, rng):
    """``ACTION_SWAP`` or ``ACTION_KEEP`` for the swap offered to ``seat`` under policy
    ``kind`` (``SWAP_*``, not ``SWAP_BY_PLAY``) with its ``params`` (jitted)."""
    if kind == SWAP_IMMEDIATE:
        return ACTION_SWAP
    if kind != SWAP_HOLD:
        return ACTION_KEEP
    trump = V.trump(public)
    face_up = V.face_up(public)
    seven = (rules[R_SWAP_SEVEN] != 0
             and (rules[R_SEVEN_FACES] >> (face_up % 12)) & 1 != 0)
    if seven:
        seven = False
        for i in range(hand.shape[0]):
            if hand[i] == trump * 12 + _SEVEN:
                seven = True
    if not seven and params[P_HOLD_TWO] == 0:
        return ACTION_SWAP
    if params[P_STOCK] >= 0 and V.to_draw(public) <= params[P_STOCK]:
        return ACTION_SWAP
    if params[P_LAST_CHANCE] != 0 and last_chance(rules, public):
        return ACTION_SWAP
    if (params[P_TRUMPS_GONE] != 0
            and _accounted(rules, public, hand, seat, signals, trump * 12 + _A, SIG_TRUMP_ACE)
            and _accounted(rules, public, hand, seat, signals, trump * 12 + _THREE,
                           SIG_TRUMP_THREE)):
        return ACTION_SWAP
    return ACTION_KEEP


def swap_summary(records: np.ndarray, n_players: int, rotations: int, entry: int) -> dict:
    """How lineup ``entry`` used the 7-swap in batch ``records`` (``REC_*`` rows in the
    order of :func:`briscasim.simulate.play_chunk`, single deals).

    Returns the fraction of deals in which the entry's seat made the 7-swap, the mean trick
    after which it did, the fraction in which a 7-swap offer was declined and the entry's
    seat never swapped ("held and missed": attributable to the entry when the other
    entries never decline, e.g. ``immediate`` or greedy's default), and the entry's win
    rate in each of these cases (side of the seat = ``seat`` in games without teams).
    """
    rows = np.arange(len(records))
    seat = (entry - rows % rotations) % n_players
    swapped = records[:, REC_SWAP7_SEAT] == seat
    missed = (records[:, REC_SWAP7_DECLINED] > 0) & ~swapped
    won = records[:, REC_WINNER] == seat

    def rate(mask):
        return float(won[mask].mean()) if mask.any() else float("nan")

    return {
        "deals": int(len(records)),
        "swapped": float(swapped.mean()),
        "mean_swap_trick": float(records[swapped, REC_SWAP7_TRICK].mean())
        if swapped.any() else float("nan"),
        "held_and_missed": float(missed.mean()),
        "two_swapped": float((records[:, REC_SWAP2_SEAT] == seat).mean()),
        "two_declined": float((records[:, REC_SWAP2_DECLINED] > 0).mean()),
        "win_rate_swapped": rate(swapped),
        "win_rate_missed": rate(missed),
        "win_rate": float(won.mean()),
    }
