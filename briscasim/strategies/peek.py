"""``peek (cheating reference)``: ismcts that sees the other hands as they are.

A cheating bound, not a strategy a player could use: it is handed the whole state and plays
``ismcts`` (every parameter of it, with the same defaults) in worlds that hold the true hands
of the seats ``hands`` names (:func:`~.sampling.reveal`): ``others`` the other sides',
``partners`` the seat's partners', ``all`` both, ``none`` neither (then it plays as
``ismcts`` does, move for move), from the start or, with ``stock``, once at most that many
cards are left to draw (before, it plays as ismcts). The order of the stock stays hidden.
Against the same opponents on the same deals, ismcts's score and peek's say what the hidden
hands are worth to the search, which of them and when: with ``others`` the inference from the
other sides' plays has nothing left to read and is off.

Parameters: those of ``ismcts``, then ``hands`` (default ``all``) and ``stock``.
"""
from numba import njit

from ..engine.layout import EVERY_FEATURE, N_CARD_IDS, PUBLIC_LEN
from ..engine.primitives import hand_of
from . import ismcts
from .params import SEARCH, Param, StrategyDef
from .sampling import REVEAL_OTHERS, REVEAL_PARTNERS

@njit(cache=True, _nrt=False)
def peek_strategy(rules, state, legal, seat, sig, params, rng, features=EVERY_FEATURE):
    """ismcts's move in worlds holding the true hands ``params[P_PEEK]`` names once at most
    ``params[P_PEEK_STOCK]`` cards are left to draw (CHEATING: reads hidden hands in the
    whole ``state``; jitted)."""
    return ismcts.decide(rules, state[:PUBLIC_LEN], hand_of(rules, state, seat), legal, seat,
                         sig, params, rng, features, state)


DEFINITION = StrategyDef(
    "peek", 9, ismcts.DEFINITION.params + (
        Param("hands", str, "all", doc="the true hands in its worlds: none, others (the "
              "other sides'), partners or all", choices=("none", "others", "partners", "all")),
        Param("stock", int, N_CARD_IDS, 0, N_CARD_IDS, "told the hands only once at most this "
              "many cards are left to draw (0: once the stock is empty; default: from the "
              "start)"),
    ),
    "peek (cheating reference): ismcts whose worlds hold the true hands of the other seats, "
    "the stock's order hidden",
    omniscient=True,
    test_params="iterations=30",
    complete=ismcts.DEFINITION.complete,
    fn=peek_strategy, dispatch=SEARCH, bind=ismcts.bind,
)
_HANDS = DEFINITION.params[ismcts.P_PEEK]
# the slot holds the choice's index, read as sampling.REVEAL_* bits
assert DEFINITION.params[ismcts.P_PEEK_STOCK].name == "stock"
assert _HANDS.name == "hands" and [_HANDS.encode(c) for c in _HANDS.choices] == [
    0, REVEAL_OTHERS, REVEAL_PARTNERS, REVEAL_OTHERS | REVEAL_PARTNERS]
