"""briscasim as an OpenSpiel game: ``pyspiel.load_game("briscasim", {"preset": "brisca-2"})``
once :func:`register` has run (``briscasim.envs.register_openspiel()``; needs the ``rl``
extra).

- Chance deals the cards: the first ``cards`` moves of a game (40 in brisca-2) are chance
  outcomes, each a card id for the next place of the deck order (top first, the
  :class:`~briscasim.game.Deal` convention), every card not yet placed equally likely.
- Then the players act: the engine's actions (card ids 0..47, 48 swap, 49 keep at a swap
  offer), as :meth:`~briscasim.game.Deal.legal_actions` gives them; the state is a
  :class:`~briscasim.game.Deal`, so the engine alone decides what is legal and what happens.
- A player's *information state* (string and tensor) is everything the seat has seen, in
  order: its own cards dealt and drawn, the card turned, every card played by whom, the
  face-up card drawn, swaps, its own declined offers, its partners' signals now (perfect
  recall); its *observation* is the seat's view now, the ``int8`` observation of
  :mod:`briscasim.observation`, as floats. Neither ever holds another hand or the
  stock order (docs/rules.md, "What each seat may know").
- Briscola Chiamata (the ``chiamata-*`` presets, five players): after the deal come the
  auction, the reopen question and the call, with their own actions (50 pass, 51..119 the
  bids, 120..167 the calls); every bid, pass, answer and the call are public and are in
  every seat's information state; the holder of the called card is not, until it is played.
- Returns at the end: +1 to the winning side's seats, -1 to the others, 0 to all in a draw.
  In Briscola Chiamata each seat's game points (+2 caller, +1 partner, -1 each defender for
  a contract made, turned round for one failed, +4 / -1 for a caller alone, times the
  multiplier; 0 to all for a deal thrown in): they sum to 0, the game's ``utility_sum``. The
  trick games declare none (three players alone, or sides of unequal size, do not sum to a
  constant).
- :meth:`BriscaState.resample_from_infostate` deals the cards a player has not seen afresh
  (for OpenSpiel's ISMCTS bot).
- Observers (``game.make_py_observer(iig_obs_type)``): the information state
  (``perfect_recall``), a seat's observation (the default), the public observation
  (``private_info NONE``: :class:`PublicObserver`, the public cards and history, the same
  for every player) and a seat's private one (``public_info False``:
  :class:`PrivateObserver`, its own cards and signals); any other kind is refused. With the
  last two OpenSpiel's ``generate_playthrough`` runs on the game: a playthrough of a preset
  of each family is kept in ``tests/playthroughs`` and replayed by the tests
  (``scripts/openspiel_playthroughs.py`` writes them afresh).
- :class:`StrategyBot` is a ``pyspiel.Bot`` playing a player's seat with a built-in strategy
  (``"learned"``, ``"greedy"``, ``"ismcts:iterations=200"``...), from that seat's view alone:
  ``pyspiel.evaluate_bots(state, [StrategyBot(game, 0, "learned"),
  pyspiel.make_uniform_random_bot(1, 7)], 1)`` plays a whole game, the deal included.
- A chance outcome that is not a card left to place, and an action the engine does not find
  legal, raise :class:`~briscasim.errors.IllegalAction`.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from .. import cards as C
from ..engine import core
from ..engine import layout as L
from ..engine.chiamata import bid_target, trick_partner
from ..errors import IllegalAction, UserError
from ..game import Deal, EVENT_NAMES, action_code, check_count, parse_action
from ..rules import PRESETS, Rules
from ..suggest import valid_choices
from .adviser import Adviser
from .episode import deal_rules
from ..observation import OBSERVATION_LEN, REWARD_OUTCOME, _observe, write_rewards

NAME = "briscasim"
_ROW = len(EVENT_NAMES) + L.MAX_PLAYERS + 2 * L.N_CARD_IDS
"""An event row of the information-state tensor: its kind, its seat, its card(s), one-hot."""
_ROWS = 128
"""Event rows of the information-state tensor: more than a seat ever sees in a trick game's
deal (Briscola Chiamata's: :func:`_rows`)."""
_AUCTION_COLUMNS = L.N_BID_LEVELS + 1
"""Columns an event row adds in Briscola Chiamata: the bid level, one-hot, and a reopen
accepted."""
_SIGNALS = 16

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Brisca and Briscola (briscasim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=L.MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"preset": "brisca-2"})


_CHIAMATA_TYPE = pyspiel.GameType(**{
    **{k: getattr(GAME_TYPE, k) for k in (
        "short_name", "long_name", "dynamics", "chance_mode", "information", "reward_model",
        "max_num_players", "min_num_players", "provides_information_state_string",
        "provides_information_state_tensor", "provides_observation_string",
        "provides_observation_tensor", "parameter_specification")},
    "utility": pyspiel.GameType.Utility.ZERO_SUM})
"""The type of a Briscola Chiamata game: zero-sum (game points)."""


def register() -> None:
    """Register the game ``"briscasim"`` with OpenSpiel (once)."""
    if NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, BriscaGame)


class BriscaGame(pyspiel.Game):
    """One deal of a briscasim preset (parameter ``preset``)."""

    def __init__(self, params=None):
        params = dict(params or {})
        preset = params.get("preset", "brisca-2")
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}{valid_choices(preset, PRESETS, 'presets')}")
        self.rules = deal_rules(preset, {})      # a match preset: one deal of its rules
        self.deck_ids = tuple(self.rules.deck_ids)
        r = self.rules
        length = len(r.deck_ids) + r.cards_in_play + r.tricks       # deal, plays, offers
        bounds = {"min_utility": -1.0, "max_utility": 1.0}
        if r.chiamata:
            # bids rise, so at most one per level; a pass a seat in each of the two auctions
            # and a reopen answer a seat; the call
            length += L.N_BID_LEVELS + 3 * r.players + 1
            top = float((r.players - 1) * _max_multiplier(r))     # a caller alone
            bounds = {"min_utility": -top, "max_utility": top, "utility_sum": 0.0}
        info = pyspiel.GameInfo(
            num_distinct_actions=L.N_ACTIONS, max_chance_outcomes=L.N_CARD_IDS,
            num_players=r.players, max_game_length=length, **bounds)
        super().__init__(_CHIAMATA_TYPE if r.chiamata else GAME_TYPE, info, params)

    def new_initial_state(self):
        return BriscaState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The information state (``perfect_recall``), a seat's observation (the default),
        the public observation (``private_info NONE``) or a seat's private one
        (``public_info False``)."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        iig = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        single = iig.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig.public_info and single:
            return BriscaObserver(iig, self.rules)
        if not iig.perfect_recall and iig.public_info \
                and iig.private_info == pyspiel.PrivateInfoType.NONE:
            return PublicObserver(self.rules)
        if not iig.perfect_recall and not iig.public_info and single:
            return PrivateObserver(self.rules)
        raise ValueError(
            f"briscasim has no observer for {iig}: it observes a seat (public_info True, "
            f"private_info SINGLE_PLAYER, with or without perfect_recall), the public cards "
            f"and history (private_info NONE) or a seat's own cards (public_info False)")


def _max_multiplier(rules: Rules) -> int:
    """The largest multiplier of a Chiamata deal's game points: the ladder's 5, cappotto's
    2."""
    return ((5 if rules.bid_multiplier == "ladder" else 1)
            * (1 if rules.cappotto == "off" else 2))


def _rows(rules: Rules) -> int:
    """Event rows of the information-state tensor of ``rules``: in Briscola Chiamata the
    seat's cards dealt, every bid (one per level at most), a pass a seat in each of the two
    auctions and a reopen answer a seat, the call and the cards played."""
    if not rules.chiamata:
        return _ROWS
    return rules.hand_size + L.N_BID_LEVELS + 3 * rules.players + 1 + rules.cards_in_play


class BriscaState(pyspiel.State):
    """A deal being dealt (chance), then played through :class:`~briscasim.game.Deal`."""

    def __init__(self, game):
        super().__init__(game)
        self.rules, self._cards = game.rules, game.deck_ids
        self.deck: list[int] = []
        self.deal: Deal | None = None

    def current_player(self):
        if self.deal is None:
            return pyspiel.PlayerId.CHANCE
        if self.deal.over:
            return pyspiel.PlayerId.TERMINAL
        return self.deal.turn

    def _legal_actions(self, player):
        return sorted(self.deal.legal_actions())

    def chance_outcomes(self):
        placed = set(self.deck)
        left = [c for c in self._cards if c not in placed]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action):
        if self.deal is None:
            card = int(action)
            if card not in self._cards or card in self.deck:
                what = C.card_code(card) if 0 <= card < L.N_CARD_IDS else str(card)
                raise IllegalAction(f"chance outcome {what}: the deal places each card of "
                                    f"the deck once, and {what} is "
                                    f"{'placed already' if card in self.deck else 'not in it'}"
                                    f"; the outcomes now are chance_outcomes()")
            self.deck.append(card)
            if len(self.deck) == len(self._cards):
                self.deal = Deal(self.rules, self.deck)
        else:
            self.deal.play(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {C.card_code(action)}"
        return action_code(action)

    def is_terminal(self):
        return self.deal is not None and self.deal.over

    def returns(self):
        out = np.zeros(self.rules.players, np.float32)
        if self.is_terminal():
            write_rewards(self.deal._r, self.deal.state, REWARD_OUTCOME, out)
        return [float(x) for x in out]

    def __str__(self):
        deck = " ".join(map(C.card_code, self.deck))
        if self.deal is None:
            return f"dealing: {deck}"
        return f"deck: {deck}\nactions: {' '.join(map(action_code, self.deal.actions))}"

    def resample_from_infostate(self, player_id, probability_sampler=None, rng=None):
        """A state that ``player_id`` cannot tell from this one: the cards it has not seen
        dealt afresh (uniformly, from the numpy generator ``rng``) among the places it has
        not seen, and the game played again; offers to other seats that it cannot see are
        declined."""
        game = self.get_game()
        if self.deal is None:
            return game.new_initial_state()
        rng = rng or _RNG
        view = self.deal.view(player_id)
        seen = view.visible_cards()
        places = [i for i, c in enumerate(self.deck) if c not in seen]
        key = information(self, player_id)
        for _ in range(1000):
            deck = list(self.deck)
            cards = [deck[i] for i in places]
            rng.shuffle(cards)
            for i, c in zip(places, cards):
                deck[i] = c
            state = _replayed(game, deck, self.deal, player_id)
            if state is not None and information(state, player_id) == key:
                return state
        raise RuntimeError(f"no deal fits what seat {player_id} has seen")


_RNG = np.random.default_rng()


class StrategyBot(pyspiel.Bot):
    """Plays ``player_id`` in games of ``game`` with the built-in strategy ``spec``
    (:class:`~briscasim.envs.adviser.Adviser`). Its games count from 0, a new one at each
    ``restart`` or ``restart_at``; in game ``k`` its random choices come from the seat's
    stream of deal ``k`` under ``seed``: the same bots and cards give the same games."""

    def __init__(self, game, player_id: int, spec: str, seed: int = 0):
        pyspiel.Bot.__init__(self)
        _check_player(game.new_initial_state(), player_id)
        self._player = int(player_id)
        self._adviser = Adviser(game.rules, spec)
        self._seed, self._games = check_count("seed", seed, 2 ** 64), 0
        self._started = False

    def restart(self):
        self._started = False

    def restart_at(self, state):
        self._started = False

    def step(self, state):
        if state.current_player() != self._player:
            raise UserError(f"StrategyBot {self._adviser.spec!r} of player {self._player} "
                            f"asked to act where the player to act is "
                            f"{state.current_player()}")
        if not self._started:
            self._adviser.start(self._seed, self._games)
            self._games += 1
            self._started = True
        return self._adviser.action(state.deal)


def _replayed(game, deck, deal: Deal, player: int):
    """``deck`` dealt and ``deal``'s actions played again (None if one does not fit); a
    swap offer to another seat is declined wherever it comes, as ``player`` cannot tell."""
    state = game.new_initial_state()
    for c in deck:
        state.apply_action(c)
    for a in [*deal.actions, None]:
        new = state.deal
        if a == L.ACTION_KEEP:
            if new.phase == "swap":
                state.apply_action(a)
            continue
        while new.phase == "swap" and new.turn != player and a != L.ACTION_SWAP:
            state.apply_action(L.ACTION_KEEP)
        if a is None:
            return state
        if a not in new.legal_actions():
            return None
        state.apply_action(a)


def information(state: BriscaState, player: int) -> str:
    """The information-state string of ``player``."""
    return "\n".join([f"seat {player}"] + [" ".join(map(str, row))
                                           for row in _seen(state, player)])


def _seen(state: BriscaState, player: int | None) -> list[tuple]:
    """What ``player`` has seen, in order: ``(kind, seat, card, card)`` (cards as codes,
    ``-`` for none; a bid's code, or a reopen answer, in place of the first card), and its
    partners' signals now; with ``player`` None, what every seat has seen (the public
    history)."""
    if state.deal is None:
        return []
    rows = []
    for e in state.deal.events:
        mine = e.seat == player
        if e.kind in ("dealt", "draw") and not (mine or (e.kind == "draw" and e.b)):
            continue            # a card another seat took unseen
        if e.kind == "decline" and not mine:
            continue            # another seat's declined offer
        if e.kind in ("trick", "over"):
            continue            # follows from the cards played
        if e.kind == "bid":
            a = action_code(L.ACTION_BID + e.a)
        elif e.kind == "reopen":
            a = "reopens" if e.a else "declines"
        else:
            a = C.card_code(e.a) if e.kind not in ("black_hand", "pass") else "-"
        b = C.card_code(e.b) if e.kind == "swap" else "-"
        rows.append((e.kind, e.seat, a, b))
    sig = 0 if player is None else state.deal.view(player).signals
    if sig:
        rows.append(("signals", sig & 0xFF, (sig >> 8) & 0xFF, "-"))
    return rows


class BriscaObserver:
    """OpenSpiel's observer: the information state (perfect recall) or the observation of a
    seat."""

    def __init__(self, iig_obs_type, rules):
        self.perfect_recall = iig_obs_type.perfect_recall
        self.rules = rules
        if self.perfect_recall:
            rows = _rows(rules)
            width = _ROW + (_AUCTION_COLUMNS if rules.chiamata else 0)
            self.tensor = np.zeros(rows * width + _SIGNALS, np.float32)
            self.dict = {"events": self.tensor[:rows * width].reshape(rows, width),
                         "signals": self.tensor[rows * width:]}
        else:
            self.tensor = np.zeros(OBSERVATION_LEN, np.float32)
            self.dict = {"observation": self.tensor}
        self._obs = np.zeros(OBSERVATION_LEN, np.int8)
        self._mask = np.zeros(L.N_ACTIONS, np.int8)
        self._legal = np.empty(L.MAX_LEGAL_ANY, np.int16)

    def set_from(self, state, player):
        _check_player(state, player)
        self.tensor.fill(0)
        if state.deal is None:
            return
        if not self.perfect_recall:
            _observe(state.deal._r, state.deal.state, player, self._obs, self._mask,
                     self._legal)
            self.tensor[:] = self._obs
            return
        events = self.dict["events"]
        for i, (kind, seat, a, b) in enumerate(_seen(state, player)):
            if kind == "signals":
                for bit in range(8):
                    self.dict["signals"][bit] = seat >> bit & 1
                    self.dict["signals"][8 + bit] = a >> bit & 1
                continue
            row = events[i]
            row[EVENT_NAMES.index(kind)] = 1
            if seat >= 0:
                row[len(EVENT_NAMES) + seat] = 1
            if kind == "bid":
                row[_ROW + parse_action(a) - L.ACTION_BID] = 1
                continue
            if kind == "reopen":
                row[_ROW + L.N_BID_LEVELS] = a == "reopens"
                continue
            for j, code in enumerate((a, b)):
                if code != "-":
                    row[len(EVENT_NAMES) + L.MAX_PLAYERS + j * L.N_CARD_IDS + C.card_id(code)] = 1

    def string_from(self, state, player):
        _check_player(state, player)
        if self.perfect_recall:
            return information(state, player)
        if state.deal is None:
            return f"seat {player}: dealing"
        deal, view = state.deal, state.deal.view(player)
        return (f"seat {player}: hand {' '.join(map(C.card_code, sorted(view.hand_cards)))}; "
                f"{_table(deal, player)}; swap offer "
                f"{'yes' if deal.phase == 'swap' and deal.turn == player else 'no'}"
                f"{_auction(deal)}")


def _table(deal: Deal, player: int | None) -> str:
    """The public cards and counts of ``deal`` as text; ``known`` names the cards known to
    be in a hand other than ``player``'s (None: in any hand)."""
    places = deal.state[L.S_KNOWN:L.S_KNOWN + L.N_CARD_IDS]
    known = "; ".join(f"{C.card_code(c)} at seat {s}" for c, s in enumerate(places.tolist())
                      if 0 <= s < L.MAX_PLAYERS and s != player)
    to_draw = int(deal.state[L.S_TO_DRAW])
    up = C.card_code(deal.face_up) if to_draw else "-"
    return (f"trick {' '.join(map(C.card_code, deal.current_trick)) or '-'}; face-up {up}; "
            f"trump {C.suit_name(deal.trump)}; to draw {to_draw}; "
            f"points {' '.join(map(str, deal.points))}; known {known or '-'}")


def _auction(deal: Deal) -> str:
    """Briscola Chiamata's public auction, call and partner as text ("" in a trick game)."""
    if not deal.rules.chiamata:
        return ""
    called = deal.called
    partner = [e.seat for e in deal.events if e.kind == "play" and e.a == called]
    return (f"; auction {' '.join(f'{s}:{a}' for s, a in deal.auction) or '-'}; "
            f"called {'-' if called is None else C.card_code(called)}; partner "
            f"{partner[0] if partner else '-'}")


class PublicObserver:
    """OpenSpiel's public observer (``private_info NONE``): what every seat knows now, the
    same for every player. The tensor: per card, whether it is in the current trick
    (``winning`` marks the card winning it), played to a finished trick, face up (the
    face-up card, or the stock's top when shown), publicly known to be in seat s's hand
    (``held``, a row a seat) or unseen; the trump suit, the seat to act and the seat that
    led, one-hot; a swap offer pending; tricks completed, cards to draw; card points and
    tricks per side, in side order; in Briscola Chiamata the auction's phase, each seat's
    latest bid (1 + its level) and pass, the standing bid (1 + level) and its target, its
    seat, the called card and the partner once the called card is played. The string: the
    same as text, then the public history, an event a line."""

    def __init__(self, rules: Rules):
        n = L.N_CARD_IDS
        pieces = [("trick", (n,)), ("winning", (n,)), ("played", (n,)), ("face_up", (n,)),
                  ("held", (L.MAX_PLAYERS, n)), ("unseen", (n,)), ("trump", (4,)),
                  ("turn", (L.MAX_PLAYERS,)), ("leader", (L.MAX_PLAYERS,)),
                  ("swap_offer", (1,)), ("trick_no", (1,)), ("to_draw", (1,)),
                  ("points", (L.MAX_SIDES,)), ("tricks_won", (L.MAX_SIDES,))]
        if rules.chiamata:
            pieces += [("auction_phase", (3,)), ("seat_bids", (L.MAX_PLAYERS,)),
                       ("passed", (L.MAX_PLAYERS,)), ("contract", (1,)), ("target", (1,)),
                       ("caller", (L.MAX_PLAYERS,)), ("called", (n,)),
                       ("partner", (L.MAX_PLAYERS,))]
        self.tensor, self.dict = _pieces(pieces)

    def set_from(self, state, player):
        _check_player(state, player)
        self.tensor.fill(0)
        if state.deal is None:
            return
        deal, d = state.deal, self.dict
        s, r = deal.state, deal._r
        known = s[L.S_KNOWN:L.S_KNOWN + L.N_CARD_IDS]
        trick = deal.current_trick
        d["trick"][trick] = 1
        if trick:
            d["winning"][trick[core.trick_winner_index(r, s)]] = 1
        d["played"][:] = known == L.KNOWN_PLAYED
        d["played"][trick] = 0
        d["face_up"][:] = (known == L.KNOWN_FACE_UP) | (known == L.KNOWN_STOCK_TOP)
        for seat in range(deal.rules.players):
            d["held"][seat] = known == seat
        d["unseen"][:] = known == L.KNOWN_UNSEEN
        if 0 <= s[L.S_TRUMP] < 4:
            d["trump"][s[L.S_TRUMP]] = 1
        if not deal.over:
            d["turn"][deal.turn] = 1
        d["leader"][s[L.S_LEADER]] = 1
        d["swap_offer"][0] = deal.phase == "swap"
        d["trick_no"][0], d["to_draw"][0] = s[L.S_TRICK_NO], s[L.S_TO_DRAW]
        sides = int(r[L.R_N_SIDES])
        d["points"][:sides] = s[L.S_POINTS:L.S_POINTS + sides]
        d["tricks_won"][:sides] = s[L.S_TRICKS_WON:L.S_TRICKS_WON + sides]
        if deal.rules.chiamata:
            n = deal.rules.players
            d["auction_phase"][:] = [deal.phase == p for p in ("auction", "reopen", "call")]
            d["seat_bids"][:n] = s[L.S_SEAT_BIDS:L.S_SEAT_BIDS + n] + 1
            d["passed"][:n] = [(s[L.S_PASSED] >> seat) & 1 for seat in range(n)]
            if s[L.S_BID] >= 0:
                d["contract"][0] = s[L.S_BID] + 1
                d["target"][0] = bid_target(r, s[L.S_BID])
                d["caller"][s[L.S_BIDDER]] = 1
            if deal.called is not None:
                d["called"][deal.called] = 1
                partner = trick_partner(r, s)
                if partner >= 0:
                    d["partner"][partner] = 1

    def string_from(self, state, player):
        _check_player(state, player)
        if state.deal is None:
            return f"dealing: {len(state.deck)} cards placed"
        deal = state.deal
        turn = "-" if deal.over else f"{deal.turn}{' (swap offer)' * (deal.phase == 'swap')}"
        return "\n".join([f"{_table(deal, None)}; to act {turn}{_auction(deal)}"]
                         + [" ".join(map(str, row)) for row in _seen(state, None)])


class PrivateObserver:
    """OpenSpiel's private observer (``public_info False``): what the seat alone knows now.
    The tensor: its hand (1 per card), its partners' signal bits (as the observation's
    ``signals``), under ``signals = rais`` the team-mate's cards a captain's rais shows
    (``rais_hand``), and in Briscola Chiamata whether it holds the called card. The string:
    the same as text."""

    def __init__(self, rules: Rules):
        pieces = [("hand", (L.N_CARD_IDS,)), ("signals", (_SIGNALS,))]
        if rules.signals == "rais":
            pieces.append(("rais_hand", (L.N_CARD_IDS,)))
        if rules.chiamata:
            pieces.append(("holds_called", (1,)))
        self.tensor, self.dict = _pieces(pieces)

    def set_from(self, state, player):
        _check_player(state, player)
        self.tensor.fill(0)
        if state.deal is None:
            return
        view = state.deal.view(player)
        self.dict["hand"][view.hand_cards] = 1
        self.dict["signals"][:] = [(view.signals >> bit) & 1 for bit in range(_SIGNALS)]
        if "rais_hand" in self.dict:
            self.dict["rais_hand"][_rais_hand(view.signals)] = 1
        if "holds_called" in self.dict:
            self.dict["holds_called"][0] = state.deal.called in view.hand_cards

    def string_from(self, state, player):
        _check_player(state, player)
        if state.deal is None:
            return f"seat {player}: dealing"
        deal, view = state.deal, state.deal.view(player)
        text = f"seat {player}: hand {' '.join(map(C.card_code, sorted(view.hand_cards)))}"
        if deal.rules.signals != "none":
            text += f"; signals {''.join(str(view.signals >> b & 1) for b in range(_SIGNALS))}"
        if deal.rules.signals == "rais":
            text += f"; rais shows {' '.join(map(C.card_code, _rais_hand(view.signals))) or '-'}"
        if deal.rules.chiamata:
            text += f"; holds the called card {'yes' if deal.called in view.hand_cards else 'no'}"
        return text


def _check_player(state: BriscaState, player) -> None:
    """Refuse a ``player`` that is not a seat of ``state``'s game (an observer called
    directly, not through OpenSpiel's checks)."""
    n = state.rules.players
    if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)) \
            or not 0 <= player < n:
        raise UserError(f"player = {player!r}: the players of this game are 0 to {n - 1}")


def _rais_hand(signals: int) -> list[int]:
    """The team-mate's cards that a captain's rais signals show."""
    return [c for c in range(L.N_CARD_IDS) if signals >> (L.RAIS_HAND_SHIFT + c) & 1]


def _pieces(pieces) -> tuple[np.ndarray, dict]:
    """One float32 tensor, and its named pieces of the given shapes as views of it."""
    tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
    views, at = {}, 0
    for name, shape in pieces:
        size = int(np.prod(shape))
        views[name] = tensor[at:at + size].reshape(shape)
        at += size
    return tensor, views
