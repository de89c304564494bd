"""``learned``: a trained network (:mod:`.network`) playing from the seat's view.

The seat's observation (:func:`~briscasim.envs.observation.encode_view`, what the learning
environments hand a learner) goes through the network, and the legal action of highest
value is played; with a single legal action the network is not asked. In Briscola Chiamata
the network bids, calls and plays. With ``endgame`` (on by default) a two-player deal is
solved exactly once the stock is empty, where every card is known (expert's endgame,
:func:`~.expert.endgame_move`); with ``exact_worlds`` (default 4), once at most that many
worlds fit the seat's view (one face-down card left to draw), every one is solved and the
move of best mean value played (:func:`every_world_move`): the network is asked only until
then. With more players, once the stock is empty and at most ``late_plies`` cards remain to
be played (default 9), ``late_worlds`` worlds (default 20) are drawn from the seat's view
and solved exactly, and the move of best mean value is played, as pimc plays once its
search is exact (:func:`~.worlds.sampled_move`).

The parameter ``model`` names a shipped model (``brisca-2``, ``chiamata-5``...: the files
of ``briscasim/models``) or the path of a model file (``briscasim train`` writes them); by
default the preset's own model, or for a preset without one the shipped model of a preset
with as many players and the same kind of game (trick game or Briscola Chiamata). A model
file is a small ``.npz`` (:func:`load_model`): the flat weights and their metadata (the
format version, the observation layout it reads, the preset it was trained on, the widths
of its layers, the weights' sha256). A model that does not fit the rules (another
observation layout, a Chiamata model in a trick game or the reverse) is refused with one
line.
"""
from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numba import njit

from ..engine.core import legal_actions, legal_view
from ..engine.layout import (NO_CARD, N_ACTIONS, N_CARD_IDS, PHASE_OVER, PHASE_PLAY,
                             R_PLAYERS, STATE_LEN, S_PHASE, S_TO_DRAW, S_TRICK_N, S_TURN)
from ..engine.primitives import hand_of
from ..files import write_atomic
from ..observation import OBSERVATION, OBSERVATION_LEN, encode, encode_view
from .expert import endgame_move, settled_value
from .network import HIDDEN1, HIDDEN2, WEIGHTS_LEN, best_action, hidden
from .params import Param, StrategyDef, StrategyError
from .sampling import SPEC_LEN, enumerate_world, prepare_worlds, world_count
from .scratch import release, stack, take, view
from .solver import (LEGAL_STRIDE, NO_HORIZON, alphabeta, copy_state, play, position_value,
                     remaining_plies, search_bytes, search_views, team_of)
from .worlds import CHOOSE_AVERAGE, sampled_move

FORMAT = "briscasim-learned"
VERSION = 1
MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
CHECKSUMS = MODELS_DIR / "SHA256SUMS"
OBSERVATION_DIGEST = hashlib.sha256(OBSERVATION.table().encode()).hexdigest()[:16]
"""A digest of the observation layout a model reads (its fields, offsets and meanings)."""

# slots of the parameter row (written when a lineup is built for rules)
P_MODEL = 0          # the weights' address (0: no model bound)
P_ENDGAME = 1        # the exact endgame on
P_EXACT_WORLDS = 2   # solve every world once at most this many are left (0: never)
P_LATE_WORLDS = 3    # more than two players: worlds sampled and solved near the end (0: never)
P_LATE_PLIES = 4     # ... once the stock is empty and at most this many cards remain to play
NETWORK_ALONE = "endgame=0,exact_worlds=0,late_worlds=0"
"""The parameters that leave every move to the network (no exact search)."""
_EXACT_TO_DRAW = 8   # no stock of more cards to draw leaves few enough worlds to count


class ModelParam(Param):
    """The ``model`` parameter: a shipped model's name or a file's path, kept as text; its
    slot is filled with the loaded weights' address by :func:`bind`."""

    def parse(self, text: str, owner: str):
        t = text.strip()
        if not t:
            raise StrategyError(f"{owner}: parameter {self.name} is empty; give a shipped "
                                f"model ({', '.join(shipped_models()) or 'none'}) or a path")
        return t

    def encode(self, value) -> float:
        return 0.0

    def format(self, value) -> str:
        return str(value)

    def describe_type(self) -> str:
        return "a shipped model's name or a model file's path"


@dataclass(frozen=True)
class Model:
    """A loaded model: its flat float32 weights and metadata."""
    weights: np.ndarray
    meta: dict
    source: str

    def fits(self, rules) -> str | None:
        """Why the model cannot play ``rules`` (a :class:`~briscasim.rules.Rules`), or None."""
        if bool(self.meta["auction"]) != bool(rules.chiamata):
            kind = "Briscola Chiamata" if self.meta["auction"] else "a trick game"
            return (f"it was trained for {kind} ({self.meta['preset']}) and the rules are "
                    f"{'Briscola Chiamata' if rules.chiamata else 'a trick game'}")
        return None


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def shipped_checksums() -> dict[str, str]:
    """The shipped model files' names and sha256, from ``briscasim/models/SHA256SUMS``."""
    if not CHECKSUMS.exists():
        return {}
    out = {}
    for line in CHECKSUMS.read_text().splitlines():
        if line.strip():
            digest, name = line.split()
            out[name] = digest
    return out


def shipped_models() -> list[str]:
    """The names of the shipped models (their presets)."""
    return sorted(n.removesuffix(".npz") for n in shipped_checksums())


def save_model(path, weights: np.ndarray, meta: dict) -> None:
    """Write a model file: ``weights`` (flat float32) and ``meta`` (the format, version and
    observation digest are added), through a temporary file renamed into place."""
    w = np.ascontiguousarray(weights, np.float32)
    meta = dict(meta, format=FORMAT, version=VERSION, observation=OBSERVATION_DIGEST,
                hidden=[HIDDEN1, HIDDEN2],
                observation_len=OBSERVATION_LEN, n_actions=N_ACTIONS,
                weights_sha256=hashlib.sha256(w.tobytes()).hexdigest())
    write_atomic(path, lambda f: np.savez(f, weights=w,
                                          meta=np.array(json.dumps(meta, sort_keys=True))))


def load_model(path, owner: str = "learned") -> Model:
    """Read a model file; StrategyError (one line naming ``owner`` and the file) if it is
    not a model this version reads."""
    path = Path(path)
    bad = f"{owner}: model file {path}"
    try:
        with np.load(path, allow_pickle=False) as z:
            weights = np.ascontiguousarray(z["weights"], np.float32)
            meta = json.loads(str(z["meta"]))
    except FileNotFoundError:
        raise StrategyError(f"{bad} does not exist") from None
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as e:
        raise StrategyError(f"{bad} is not a model file ({type(e).__name__}: {e})") from None
    if meta.get("format") != FORMAT:
        raise StrategyError(f"{bad} is not a {FORMAT} model")
    if meta.get("version") != VERSION:
        raise StrategyError(f"{bad} has format version {meta.get('version')}; this briscasim "
                            f"reads version {VERSION}")
    if meta.get("observation") != OBSERVATION_DIGEST or meta.get("n_actions") != N_ACTIONS:
        raise StrategyError(f"{bad} reads another observation layout ({meta.get('observation')}"
                            f", this briscasim's is {OBSERVATION_DIGEST}): train it again")
    if list(meta.get("hidden", ())) != [HIDDEN1, HIDDEN2] or weights.shape != (WEIGHTS_LEN,):
        raise StrategyError(f"{bad} holds {weights.size} weights in layers of "
                            f"{meta.get('hidden')}; this briscasim's network has layers of "
                            f"{HIDDEN1} and {HIDDEN2}, {WEIGHTS_LEN} weights")
    if hashlib.sha256(weights.tobytes()).hexdigest() != meta.get("weights_sha256"):
        raise StrategyError(f"{bad}: the weights do not match their sha256 (damaged file)")
    if not np.isfinite(weights).all():
        raise StrategyError(f"{bad} holds weights that are not finite numbers")
    return Model(weights, meta, str(path))


_LOADED: dict[tuple, Model] = {}
_LOCK = threading.Lock()


def model_for(rules, name: str = "auto", owner: str = "learned") -> Model:
    """The model ``name`` (``auto``, a shipped model or a path) for ``rules``, loaded once a
    process and kept alive (the kernels hold its weights' address); StrategyError (one line
    naming ``owner``, the parameter that asked for it) if none fits."""
    if name == "auto":
        name = default_model(rules, owner)
    shipped = shipped_checksums()
    path = MODELS_DIR / f"{name}.npz" if f"{name}.npz" in shipped else Path(name)
    if f"{name}.npz" not in shipped and not path.suffix and not path.exists():
        raise StrategyError(f"{owner}: model {name!r} is neither a shipped model ("
                            f"{', '.join(shipped_models()) or 'none'}) nor a file")
    try:
        st = path.stat()
    except OSError:
        raise StrategyError(f"{owner}: model file {path} does not exist") from None
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)     # a file written again: reread
    with _LOCK:
        model = _LOADED.get(key)
        if model is None:
            model = _LOADED[key] = load_model(path, owner)
    why = model.fits(rules)
    if why is not None:
        raise StrategyError(f"{owner}: model {name} does not fit the rules {rules.name}: {why}")
    return model


def default_model(rules, owner: str = "learned") -> str:
    """The shipped model ``learned`` plays ``rules`` with: the preset's own (with options
    changed too), else one for as many players and the same kind of game, else the one of
    the same kind of game for the nearest number of players."""
    names = shipped_models()
    base = rules.name.partition("+")[0]       # a preset with options changed: its own
    if base in names:
        return base
    metas = {n: _shipped_meta(n) for n in names}
    same_kind = [n for n in names if bool(metas[n]["auction"]) == bool(rules.chiamata)]
    same_players = [n for n in same_kind if metas[n]["players"] == rules.players]
    pick = same_players or sorted(same_kind, key=lambda n: abs(metas[n]["players"]
                                                               - rules.players))
    if not pick:
        raise StrategyError(f"{owner}: no shipped model plays {rules.name}; train one with "
                            f"`briscasim train --preset ...` and give model=PATH")
    return pick[0]


def _shipped_meta(name: str) -> dict:
    with np.load(MODELS_DIR / f"{name}.npz", allow_pickle=False) as z:
        return json.loads(str(z["meta"]))


def with_weights(strategy, slot: int, model: Model):
    """``strategy`` with the address of ``model``'s weights in slot ``slot`` of its
    parameter row (``model`` kept alive by :func:`model_for`)."""
    params = strategy.params.copy()
    params[0, slot] = float(model.weights.ctypes.data)
    return replace(strategy, params=params)


def bind_leaf_model(rules, strategy, slot: int):
    """``strategy`` (a search) with the weights of the network its ``leaf_model`` names for
    ``rules`` in slot ``slot``; unchanged with ``leaf_model = none``; StrategyError (one
    line) in Briscola Chiamata, whose leaves the networks do not value."""
    name = strategy.values.get("leaf_model", "none")
    if name == "none":
        return strategy
    owner = f"{strategy.label.partition(':')[0]} leaf_model"
    if rules.chiamata:
        raise StrategyError(f"{owner}: the network values the leaves of trick games only, "
                            f"not of Briscola Chiamata ({rules.name}); give leaf_model=none")
    return with_weights(strategy, slot, model_for(rules, name, owner))


def bind(rules, strategy):
    """``strategy`` with its model for ``rules`` in its parameter row, if it is ``learned``
    (the model loaded, checked and kept alive); any other strategy unchanged."""
    return with_weights(strategy, P_MODEL,
                        model_for(rules, strategy.values.get("model", "auto")))


@njit(cache=True, _nrt=False)
def _choice(address, obs, legal):
    """The action of ``legal`` of highest value under the network at ``address`` for the
    observation ``obs`` (jitted)."""
    w = view(address, 0, WEIGHTS_LEN, np.float32)
    a1 = stack(HIDDEN1, np.float32)
    a2 = stack(HIDDEN2, np.float32)
    hidden(w, obs, a1, a2)
    return best_action(w, a2, legal)


@njit(cache=True, _nrt=False)
def _exact_value(rules, state, seat, side):
    """Exact value for ``side`` (``seat``'s) of a whole state: expert's minimax once the
    stock is empty at a trick's start (:func:`~.expert.settled_value`), else the solver's,
    in working memory of its own (jitted)."""
    if state[S_PHASE] == PHASE_OVER:
        return position_value(rules, state, side)
    v = settled_value(rules, state, seat)
    if np.isnan(v):
        block = take(search_bytes())
        search = search_views(block, 0)
        copy_state(search.stack[:STATE_LEN], state)
        v = alphabeta(rules, search, side, NO_HORIZON)
        release(block)
    return v


@njit(cache=True, _nrt=False)
def every_world_move(rules, public, hand, seat, signals, max_worlds):
    """The action of best mean exact value (to the end of the deal, as the solver's) over
    every world consistent with the seat's view, if there are at most ``max_worlds`` of them
    (:func:`~.sampling.world_count`: 2-player play near the end of the stock); else
    ``NO_CARD`` (jitted). The seat's action and, if it leads, the answer are searched here,
    what follows by :func:`_exact_value`."""
    base = stack(STATE_LEN, np.int16)
    spec = stack(SPEC_LEN, np.int64)
    prepare_worlds(rules, public, hand, seat, signals, base, spec)
    n = world_count(spec)
    if not 0 < n <= max_worlds:
        return NO_CARD
    world = stack(STATE_LEN, np.int16)
    after = stack(STATE_LEN, np.int16)
    answered = stack(STATE_LEN, np.int16)
    actions = stack(LEGAL_STRIDE, np.int64)
    replies = stack(LEGAL_STRIDE, np.int64)
    total = stack(LEGAL_STRIDE, np.float64)
    k = 0
    for w in range(n):
        enumerate_world(base, spec, w, world)
        side = team_of(rules, world, seat)
        k = legal_actions(rules, world, actions)
        for i in range(k):
            copy_state(after, world)
            play(rules, after, actions[i])
            if (after[S_PHASE] == PHASE_PLAY and after[S_TRICK_N] != 0
                    and team_of(rules, after, after[S_TURN]) != side):
                v = np.inf          # the other side answers, knowing this world
                for j in range(legal_actions(rules, after, replies)):
                    copy_state(answered, after)
                    play(rules, answered, replies[j])
                    v = min(v, _exact_value(rules, answered, seat, side))
            else:
                v = _exact_value(rules, after, seat, side)
            total[i] = v if w == 0 else total[i] + v
    best = 0
    for i in range(1, k):
        if total[i] > total[best]:
            best = i
    return actions[best]


@njit(cache=True, _nrt=False)
def learned_strategy(rules, public, hand, legal, seat, signals, params, rng):
    """The legal action of highest value under the network whose weights the parameter row
    points to (jitted); ``NO_CARD`` (an illegal action the batch loop reports) if no model
    was bound."""
    if legal.shape[0] == 1:
        return legal[0]
    address = np.int64(params[P_MODEL])
    if address == 0:
        return NO_CARD
    if params[P_ENDGAME] != 0:
        card = endgame_move(rules, public, hand, legal, seat)
        if card != NO_CARD:
            return card
    if (params[P_EXACT_WORLDS] > 0 and rules[R_PLAYERS] == 2
            and 0 < public[S_TO_DRAW] <= _EXACT_TO_DRAW):
        card = every_world_move(rules, public, hand, seat, signals,
                                np.int64(params[P_EXACT_WORLDS]))
        if card != NO_CARD:
            return card
    if (params[P_LATE_WORLDS] > 0 and rules[R_PLAYERS] > 2 and public[S_TO_DRAW] == 0
            and public[S_PHASE] == PHASE_PLAY
            and remaining_plies(rules, public) <= params[P_LATE_PLIES]):
        return sampled_move(rules, public, hand, seat, signals,
                            np.int64(params[P_LATE_WORLDS]), NO_HORIZON, N_CARD_IDS,
                            CHOOSE_AVERAGE, np.int64(0), rng)
    obs = stack(OBSERVATION_LEN, np.int8)
    encode_view(rules, public, hand, seat, signals, obs)
    return _choice(address, obs, legal)


@njit(cache=True, _nrt=False)
def network_move(rules, world, address, legal, features):
    """The legal action of highest value, under the network at ``address``, of the seat to
    move in ``world``, from that seat's view (``legal``: scratch) (jitted)."""
    seat = world[S_TURN]
    moves = legal_view(rules, world, seat, hand_of(rules, world, seat), legal, features)
    if moves.shape[0] == 1:
        return moves[0]
    obs = stack(OBSERVATION_LEN, np.int8)
    encode(rules, world, seat, obs)
    return _choice(address, obs, moves)


DEFINITION = StrategyDef("learned", 10, (
    ModelParam("model", str, "auto", doc="a shipped model (briscasim/models) or a model "
               "file's path; auto: the preset's own, or a shipped one for as many players"),
    Param("endgame", bool, True, doc="two players: solve the deal exactly once the stock is "
          "empty, as expert does"),
    Param("exact_worlds", int, 4, 0, 100_000, "two players: once at most this many worlds "
          "are consistent with the view, solve each exactly and play the move of best mean "
          "value (0: never)"),
    Param("late_worlds", int, 20, 0, 10_000, "more than two players: once the stock is "
          "empty and at most late_plies cards remain to be played, solve this many worlds "
          "sampled from the view exactly and play the move of best mean value (0: never)"),
    Param("late_plies", int, 9, 1, 48, "more than two players: the cards left to play "
          "from which late_worlds applies (9: the last three tricks of three players, the "
          "last two of four)"),
), "a trained network (briscasim train) playing the legal action of highest value",
   fn=learned_strategy, bids=True, bind=bind)
