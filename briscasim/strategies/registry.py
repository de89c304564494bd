"""The strategy registry: names, typed parameters, and parsing of strategy specs.

A *strategy spec* names a play strategy and, optionally, a swap policy::

    PLAY[:key=value,...][+POLICY[:key=value,...]]

- ``greedy``, ``greedy:trump_threshold=4``, ``random:swap_prob=0.5``
- ``greedy+hold:stock=6`` (greedy play, holding the trump 7 until 6 cards are left to draw),
  ``greedy+never``, ``ismcts:iterations=1000+immediate``
- ``mymodule:my_strategy`` (a user strategy: the numba function ``my_strategy`` of the module
  ``mymodule``, importable from the current directory or ``sys.path``), with parameters
  ``mymodule:my_strategy:k=v`` if the module declares them (``STRATEGY_PARAMS`` below).

Without a policy, the play strategy answers swap offers itself (``by_play``).
:func:`resolve` turns a spec into a :class:`Strategy`: the integer ids and float64 parameter
rows the kernels dispatch on, and a canonical label (defaults left out) that resolves back to
the same strategy.

Adding a built-in: a module of its own whose last statement is ``DEFINITION =
StrategyDef(name, kind, (Param(...), ...), doc, fn=..., dispatch=...)`` (see
:mod:`briscasim.strategies.params`), and its name in :data:`BUILTIN_MODULES`; the dispatcher
(:mod:`briscasim.strategies.dispatch`) is built from the definitions. Swap policies are the
``POLICIES`` of :mod:`briscasim.strategies.swap`.

User strategies
---------------
A user strategy is a numba function with exactly :data:`~briscasim.strategies.api.
STRATEGY_SIGNATURE`::

    from numba import njit
    from briscasim.strategies.api import STRATEGY_SIGNATURE

    @njit(STRATEGY_SIGNATURE, cache=True)
    def my_strategy(rules, public, hand, legal, seat, signals, params, rng):
        return legal[0]

It runs in the batch kernels through a typed function slot (``KIND_USER``, one per lineup
entry), so the engine is never recompiled for it; a lineup may hold any number of them. A module may declare parameters for its functions as
``STRATEGY_PARAMS = {"my_strategy": (Param("depth", int, 2, 1, 9, "..."),)}``; they fill the
function's ``params`` row in order. From Python, :func:`register_strategy` gives a function a
name usable in every spec.

*Prototype strategies* (slow, for trying ideas): a plain Python callable
``fn(view, params, rng) -> action`` registered the same way (or named as ``module:function``)
is played by a Python loop over the engine's step kernels, about a thousand times slower than
jitted play; see :mod:`briscasim.strategies.prototype`.
"""
from __future__ import annotations

import importlib
import os
import re
import sys
from dataclasses import dataclass, field

import numpy as np
from numba.core.dispatcher import Dispatcher

from ..suggest import did_you_mean, valid_choices
from . import swap
from .api import KIND_USER, N_PARAMS, STRATEGY_SIGNATURE, SWAP_BY_PLAY
from .params import DISPATCHES, INLINE, Param, StrategyDef, StrategyError

__all__ = ["KIND_PYTHON", "Param", "REGISTRY", "SWAP_POLICIES", "Strategy", "StrategyDef",
           "StrategyError", "register_strategy", "resolve"]

# Play kind of a prototype (pure-Python) strategy: never handed to the kernels.
KIND_PYTHON = -1

EXPECTED_SIGNATURE = ("int64(int64[::1] rules, int16[::1] public, int16[::1] hand, "
                      "int16[::1] legal, int64 seat, int64 signals, float64[::1] params, "
                      "uint64[::1] rng)")


@dataclass(frozen=True)
class Strategy:
    """A resolved strategy: what one lineup entry hands to the kernels.

    ``params[0]`` holds the play strategy's parameters, ``params[1]`` the swap policy's;
    ``kinds`` is ``(kind, SWAP_*)``. ``python_fn`` and ``values`` (the play parameters by
    name) serve prototype strategies, which the kernels cannot run; ``bind`` is its
    definition's (:class:`StrategyDef`), which :meth:`briscasim.lineup.Lineup.build` calls.
    """
    label: str
    kinds: tuple[int, int]
    params: np.ndarray = field(compare=False)   # (2, N_PARAMS) float64
    user_fn: object = None
    omniscient: bool = False
    python_fn: object = None
    values: dict = field(default_factory=dict, compare=False)
    bind: object = field(default=None, compare=False)


BUILTIN_MODULES = ("random", "greedy", "expert", "hoard", "counter", "ismcts", "pimc",
                   "omniscient", "peek", "learned")
"""The modules of the built-in strategies (in :mod:`briscasim.strategies`), in the order
``briscasim strategies`` lists them; each ends with its ``DEFINITION``."""


def _builtins() -> tuple[StrategyDef, ...]:
    defs = tuple(importlib.import_module(f"{__package__}.{m}").DEFINITION
                 for m in BUILTIN_MODULES)
    kinds = [d.kind for d in defs]
    for d in defs:
        assert isinstance(d.fn, Dispatcher), f"{d.name}: fn is not a jitted function"
        assert d.dispatch in DISPATCHES, f"{d.name}: dispatch {d.dispatch!r}"
        assert d.dispatch == INLINE or not d.features, (
            f"{d.name}: only a function compiled into the kernels takes the features flag")
        assert d.kind >= 0 and d.kind != KIND_USER and kinds.count(d.kind) == 1, (
            f"{d.name}: kind {d.kind} is not its own")
    return defs


DEFINITIONS = _builtins()
"""Every built-in strategy's definition, in :data:`BUILTIN_MODULES` order."""
REGISTRY: dict[str, StrategyDef] = {d.name: d for d in DEFINITIONS}
BUILTINS = frozenset(REGISTRY)

SWAP_POLICIES: dict[str, StrategyDef] = {d.name: d for d in swap.POLICIES}

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*\Z")


# ---- parsing ---------------------------------------------------------------------------

def _parse_values(d: StrategyDef, text: str, owner: str) -> dict:
    values = {p.name: p.default for p in d.params}
    given = set()
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, eq, value = item.partition("=")
        p = d.param(key.strip(), owner)
        if not eq:
            raise StrategyError(f"{owner}: parameter {key!r} has no value; write "
                                f"{key}=VALUE ({p.describe_type()})")
        values[p.name] = p.parse(value, owner)
        given.add(p.name)
    if d.complete is not None:
        d.complete(values, given)
    return values


def _row(d: StrategyDef, values: dict) -> np.ndarray:
    row = np.zeros(N_PARAMS)
    for i, p in enumerate(d.params):
        row[i] = p.encode(values[p.name])
    return row


def _label(name: str, d: StrategyDef, values: dict) -> str:
    changed = [f"{p.name}={p.format(values[p.name])}" for p in d.params
               if values[p.name] != p.default]
    return name + (":" + ",".join(changed) if changed else "")


def resolve(spec: str) -> Strategy:
    """Parse a strategy spec (module docstring) into a :class:`Strategy`."""
    if not isinstance(spec, str) or not spec.strip():
        raise StrategyError(f"empty strategy spec {spec!r}; valid strategies: "
                            f"{', '.join(REGISTRY)}")
    play_text, plus, swap_text = spec.strip().partition("+")
    name, d, values = _resolve_play(play_text.strip())
    params = np.zeros((2, N_PARAMS))
    params[0] = _row(d, values)
    label = _label(name, d, values)
    policy = SWAP_BY_PLAY
    if plus:
        pname, _, ptext = swap_text.strip().partition(":")
        if pname not in SWAP_POLICIES:
            raise StrategyError(f"strategy {spec!r}: unknown swap policy {pname!r}"
                                f"{valid_choices(pname, SWAP_POLICIES, 'swap policies')}")
        sd = SWAP_POLICIES[pname]
        svalues = _parse_values(sd, ptext, f"swap policy {pname}")
        params[1] = _row(sd, svalues)
        policy = sd.kind
        if policy != SWAP_BY_PLAY:
            label += "+" + _label(pname, sd, svalues)
    kind = KIND_PYTHON if d.python else d.kind
    return Strategy(label, (kind, policy), params,
                    user_fn=d.fn if d.kind == KIND_USER and not d.python else None,
                    omniscient=d.omniscient, python_fn=d.fn if d.python else None,
                    values=values, bind=d.bind)


def _resolve_play(text: str) -> tuple[str, StrategyDef, dict]:
    parts = text.split(":")
    if parts[0] in REGISTRY:
        d = REGISTRY[parts[0]]
        return d.name, d, _parse_values(d, ":".join(parts[1:]), f"strategy {d.name}")
    if len(parts) >= 2 and "=" not in parts[1] and parts[1]:
        d = _user_definition(parts[0], parts[1])
        return d.name, d, _parse_values(d, ":".join(parts[2:]), f"strategy {d.name}")
    raise StrategyError(f"unknown strategy {parts[0]!r}{did_you_mean(parts[0], REGISTRY)}; "
                        f"valid strategies: "
                        f"{', '.join(REGISTRY)}, or module:function for a user strategy")


# ---- user strategies -------------------------------------------------------------------

def _user_definition(module_name: str, attr: str) -> StrategyDef:
    """The :class:`StrategyDef` of the user strategy ``module_name:attr``."""
    spec = f"{module_name}:{attr}"
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        raise StrategyError(f"user strategy {spec!r}: cannot import module {module_name!r} "
                            f"({e}); put {module_name}.py in the current directory or on "
                            "PYTHONPATH") from None
    except Exception as e:  # the user's module failed while importing
        raise StrategyError(f"user strategy {spec!r}: importing module {module_name!r} failed:"
                            f" {type(e).__name__}: {e}") from None
    fn = getattr(module, attr, None)
    if fn is None:
        found = sorted(n for n, v in vars(module).items()
                       if isinstance(v, Dispatcher) or (callable(v) and not n.startswith("_")
                                                        and not isinstance(v, type)))
        raise StrategyError(f"user strategy {spec!r}: module {module_name!r} has no "
                            f"{attr!r}; its functions: {', '.join(found) or 'none'}")
    params = tuple(getattr(module, "STRATEGY_PARAMS", {}).get(attr, ()))
    return _definition(spec, fn, params, (fn.__doc__ or "").strip().split("\n")[0])


def _definition(name: str, fn, params, doc: str, bind=None) -> StrategyDef:
    if isinstance(fn, Dispatcher):
        check_signature(fn, name)
        return StrategyDef(name, KIND_USER, tuple(params), doc or "user strategy", fn=fn,
                           bind=bind)
    if callable(fn):
        return StrategyDef(name, KIND_USER, tuple(params),
                           doc or "prototype strategy (pure Python, slow)", fn=fn, python=True,
                           bind=bind)
    raise StrategyError(f"user strategy {name!r}: {type(fn).__name__} is not a function; "
                        f"expected a numba function with signature {EXPECTED_SIGNATURE}, or "
                        "a Python function fn(view, params, rng)")


def check_signature(fn: Dispatcher, name: str) -> None:
    """Make sure the numba function ``fn`` has exactly the strategy signature, compiling it
    for that signature if it is lazily jitted; StrategyError otherwise."""
    if STRATEGY_SIGNATURE not in fn.nopython_signatures and fn._can_compile:
        try:
            fn.compile(STRATEGY_SIGNATURE.args)
        except Exception as e:
            msg = str(e).strip().splitlines()
            raise StrategyError(f"user strategy {name!r} does not compile for the strategy "
                                f"signature {EXPECTED_SIGNATURE}: {msg[0] if msg else e}"
                                ) from None
    if STRATEGY_SIGNATURE not in fn.nopython_signatures:
        got = "; ".join(str(s) for s in fn.nopython_signatures) or "none"
        raise StrategyError(f"user strategy {name!r} has the wrong signature: got {got}; "
                            f"expected {EXPECTED_SIGNATURE} (decorate it with "
                            "@njit(STRATEGY_SIGNATURE) from briscasim.strategies.api, and "
                            "return an int64)")


def register_strategy(name: str, fn, params=(), doc: str = "", bind=None) -> StrategyDef:
    """Make ``fn`` usable by ``name`` in every strategy spec.

    ``fn`` is a numba function with :data:`~briscasim.strategies.api.STRATEGY_SIGNATURE`
    (it runs in the batch kernels), or a plain Python callable ``fn(view, params, rng)`` (a
    prototype strategy, played by a slow Python loop). ``params`` is a sequence of
    :class:`Param`; ``bind`` as :class:`StrategyDef`'s. Registering a name again replaces a
    user strategy; built-in names are refused.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise StrategyError(f"strategy name {name!r}: use letters, digits, '_' and '-', "
                            "starting with a letter")
    if name in BUILTINS:
        raise StrategyError(f"strategy name {name!r} is a built-in strategy; built-ins: "
                            f"{', '.join(sorted(BUILTINS))}")
    params = tuple(params)
    if not all(isinstance(p, Param) for p in params):
        raise StrategyError(f"strategy {name!r}: params must be Param values")
    d = _definition(name, fn, params, doc, bind)
    REGISTRY[name] = d
    return d


def unregister_strategy(name: str) -> None:
    """Remove a user strategy registered with :func:`register_strategy`."""
    if name in BUILTINS or name not in REGISTRY:
        raise StrategyError(f"{name!r} is not a registered user strategy")
    del REGISTRY[name]
