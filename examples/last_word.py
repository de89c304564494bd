"""A user strategy for briscasim: win the trick when playing last, else throw the cheapest card.

Used from the command line (run from this folder, or with it on PYTHONPATH)::

    briscasim simulate --preset brisca-2 --strategy last_word:last_word:min_points=4 \
        --strategy greedy --duplicate --deals 100000

from a spec (``lineup = ["last_word:last_word:min_points=4", "greedy"]``), or from Python
(``register_strategy("last_word", last_word, STRATEGY_PARAMS["last_word"])``).
``last_word_exact`` is the same player with the rest of the deal solved exactly once it is
perfect information (``STRATEGY_PARAMS["last_word_exact"]``).
"""
from numba import njit

from briscasim.engine.layout import ACTION_KEEP, ACTION_SWAP, NO_CARD
from briscasim.strategies import view as V
from briscasim.strategies.api import STRATEGY_SIGNATURE
from briscasim.strategies.params import Param
from briscasim.strategies.solver import endgame_action

STRATEGY_PARAMS = {"last_word": (
    Param("min_points", int, 2, 0, 120, "points on the table worth winning when last to play"),
    Param("swap", bool, True, doc="accept swap offers"),
)}


@njit(STRATEGY_SIGNATURE, cache=True)
def last_word(rules, public, hand, legal, seat, signals, params, rng):
    """Last to play: win a trick worth ``min_points`` as cheaply as possible. Otherwise, and
    when nothing wins, throw the card of fewest points (the weakest of them)."""
    if V.swap_offered(public):
        return ACTION_SWAP if params[1] != 0 else ACTION_KEEP
    last = V.trick_size(public) == V.players(rules) - 1
    if last and V.trick_points(rules, public) >= params[0]:
        best = V.winning_card(rules, public)
        trump = V.trump(public)
        choice = -1
        for card in legal:
            if V.beats(rules, card, best, trump) and (
                    choice < 0 or V.card_points(rules, card) < V.card_points(rules, choice)):
                choice = card
        if choice >= 0:
            return choice
    cheapest = legal[0]
    for card in legal:
        if (V.card_points(rules, card), V.card_strength(rules, card)) < (
                V.card_points(rules, cheapest), V.card_strength(rules, cheapest)):
            cheapest = card
    return cheapest


STRATEGY_PARAMS["last_word_exact"] = STRATEGY_PARAMS["last_word"]


@njit(STRATEGY_SIGNATURE, cache=True)
def last_word_exact(rules, public, hand, legal, seat, signals, params, rng):
    """``last_word``, except that once every hidden card is known (two players, stock empty)
    it plays the exact solver's best move."""
    action = endgame_action(rules, public, hand, seat, signals, rng)
    if action != NO_CARD:
        return action
    return last_word(rules, public, hand, legal, seat, signals, params, rng)
