"""Experiment specs: a TOML file that expands into *cells* (the format: docs/specs.md).

A cell is one rules variant with one lineup of strategies, played for a number of deals.
:func:`load_spec` reads and checks a whole spec before any work starts: every bad key, type or
value raises :class:`~briscasim.errors.UserError` naming the file, the key path and the value
(rules and strategies are checked by :meth:`Rules.preset` and
:func:`~briscasim.strategies.registry.resolve`; their messages are wrapped, not repeated).

Expansion order (fixed): variants in file order; within a variant, the grids (``[grid]`` or
``[[grid]]`` tables) in file order; within a grid, the cartesian product of its keys with the
first key varying slowest (``itertools.product``). Cells are numbered 0, 1, ... in that order.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError
from ..limits import MAX_CELLS, deals_error
from ..rules import OPTION_NAMES, PRESETS, Rules, RulesError
from ..strategies import registry
from ..strategies.registry import StrategyError, resolve
from ..suggest import valid_choices

TOP_KEYS = ("name", "description", "seed", "deals", "target", "chunk", "variants", "seats",
            "lineup", "duplicate", "grid", "analysis")
VARIANT_KEYS = ("name", "preset", "rules")
TARGET_KEYS = ("ci_half_width", "max_deals")
DEFAULT_CHUNK = 50_000
"""Deals per chunk unless the spec sets ``chunk``: big enough that the per-chunk costs
(a Parquet file, a progress update) stay small next to the play, small enough to spread."""
BLOCK_OFFSET = 1 << 32
"""Deal indices of seating ``b`` start at ``b * BLOCK_OFFSET`` when a rotated lineup is
played without duplicate deals, so every seating gets its own cards."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*\Z")


@dataclass(frozen=True)
class Cell:
    """One rules variant with one lineup, as the runner plays it.

    ``lineup`` holds the strategy specs as written (canonical labels in ``labels``); the
    engine lineup is ``lineup`` repeated to fill the seats (``seating[s]`` is the lineup entry
    at seat ``s`` before rotation). Each deal is played in ``rotations`` rotations with the
    same cards (duplicate mode), or each of ``blocks`` seatings plays its own deals.
    """
    id: int
    variant: str
    point: dict
    rules: Rules
    lineup: tuple[str, ...]
    labels: tuple[str, ...]
    seating: tuple[int, ...]
    rotations: int
    blocks: int

    @property
    def label(self) -> str:
        """Variant, the rule values of its grid point, and the lineup if the grid varies it:
        ``brisca-2 [swap_timing=after_draw]: greedy vs random``."""
        rules = ", ".join(f"{k.removeprefix('rules.')}={v if isinstance(v, str) else _fmt(v)}"
                          for k, v in self.point.items() if k.startswith("rules.")
                          or k == "preset")
        strategies = any(k.startswith(("lineup", "seats")) for k in self.point)
        return (self.variant + (f" [{rules}]" if rules else "")
                + (": " + " vs ".join(self.labels) if strategies else ""))

    def to_dict(self) -> dict:
        return dict(id=self.id, variant=self.variant, label=self.label, point=self.point,
                    preset=self.rules.name, rules=self.rules.options(),
                    lineup=list(self.lineup), labels=list(self.labels),
                    seating=list(self.seating), rotations=self.rotations, blocks=self.blocks)


@dataclass(frozen=True)
class Spec:
    """A checked experiment spec and the cells it expands to."""
    path: str
    name: str
    description: str
    seed: int
    deals: int | None
    target: dict | None
    chunk: int
    duplicate: bool
    mode: str                          # "seats" or "lineup"
    cells: tuple[Cell, ...] = field(repr=False)
    analysis: str | None = None        # the named analysis of briscasim.analysis to report

    def resolved(self) -> dict:
        """Everything that decides the results, as plain JSON data (stored in the manifest),
        and the analysis the spec names, if any."""
        out = dict(name=self.name, seed=self.seed, deals=self.deals, target=self.target,
                   chunk=self.chunk, duplicate=self.duplicate, mode=self.mode,
                   cells=[c.to_dict() for c in self.cells])
        if self.analysis is not None:
            out["analysis"] = self.analysis
        return out

    def digest(self) -> str:
        """A hash of :meth:`resolved` without the analysis (it does not change the results):
        two specs with the same digest give the same results."""
        return digest_of(self.resolved())


def digest_of(resolved: dict) -> str:
    """The digest of a resolved spec (:meth:`Spec.resolved`, or its copy in a manifest); the
    analysis it names is left out."""
    results = {k: v for k, v in resolved.items() if k != "analysis"}
    text = json.dumps(results, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def chunk_bounds(spec_or_manifest: dict, cell: dict, j: int) -> tuple[int, int, int]:
    """``(seating, first deal, count)`` of chunk ``j`` of ``cell`` (resolved dicts).

    Chunks go round the seatings (``j % blocks``), each seating through its deals in order, so
    any prefix of chunks is balanced over the seatings (what target mode needs).
    """
    blocks = cell["blocks"]
    b, k = j % blocks, j // blocks
    deals = spec_or_manifest["deals"] or spec_or_manifest["target"]["max_deals"]
    first = k * spec_or_manifest["chunk"]
    count = min(spec_or_manifest["chunk"], deals - first)
    return b, first + (b * BLOCK_OFFSET if blocks > 1 else 0), count


def n_chunks(resolved: dict, cell: dict) -> int:
    """Most chunks a cell can have (all of them unless a target stops it early)."""
    deals = resolved["deals"] or resolved["target"]["max_deals"]
    return cell["blocks"] * math.ceil(deals / resolved["chunk"])


# ---- reading --------------------------------------------------------------------------

class _Where:
    """Builds error messages naming the file and a key path."""

    def __init__(self, path: str):
        self.path = path

    def error(self, key: str, value, msg: str) -> UserError:
        shown = _fmt(value) if not isinstance(value, (dict, list)) else json.dumps(value)
        if len(shown) > 80:
            shown = shown[:77] + "..."
        return UserError(f"{self.path}: {key} = {shown}: {msg}")


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def _check_keys(w: _Where, table: dict, valid, where: str) -> None:
    for k in table:
        if k not in valid:
            prefix = f"{where}." if where else ""
            raise w.error(prefix + k, table[k], f"unknown key{valid_choices(k, valid, 'keys')}")


def _int(w, value, key, low=None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise w.error(key, value, f"must be a whole number, not {type(value).__name__}")
    if low is not None and value < low:
        raise w.error(key, value, f"must be at least {low}")
    return value


def _deals(w, value, key) -> int:
    value = _int(w, value, key, 1)
    why = deals_error(value)
    if why:
        raise w.error(key, value, why)
    return value


def load_spec(path) -> Spec:
    """Read and check the spec file ``path``; UserError on any bad input."""
    path = str(path)
    try:
        text = Path(path).read_bytes().decode()
    except FileNotFoundError:
        raise UserError(f"{path}: no such spec file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{path}: cannot read the spec file ({e})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{path}: not valid TOML: {e}") from None
    return parse_spec(data, path)


def parse_spec(data: dict, path: str = "<spec>") -> Spec:
    """Check a spec given as a dict (the parsed TOML) and expand its cells."""
    w = _Where(path)
    _check_keys(w, data, TOP_KEYS, "")
    for key in ("name", "seed", "variants"):
        if key not in data:
            raise UserError(f"{path}: missing key {key!r}; a spec needs name, seed, variants, "
                            "deals (or [target]) and seats (or lineup)")
    name = data["name"]
    if not isinstance(name, str) or not _NAME.match(name):
        raise w.error("name", name, "must be a string of letters, digits, '_', '.' and '-' "
                      "(it names the output folder)")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise w.error("description", description, "must be a string")
    seed = _int(w, data["seed"], "seed", 0)
    if seed >= 1 << 63:
        raise w.error("seed", seed, "must be below 2**63")

    deals = target = None
    if ("deals" in data) == ("target" in data):
        raise UserError(f"{path}: give exactly one of 'deals' (deals per cell) and "
                        "[target] (ci_half_width and max_deals)")
    if "deals" in data:
        deals = _deals(w, data["deals"], "deals")
    else:
        target = _parse_target(w, data["target"])
    chunk = _int(w, data.get("chunk", DEFAULT_CHUNK), "chunk", 1)
    chunk = min(chunk, deals if deals is not None else target["max_deals"])

    if ("seats" in data) == ("lineup" in data):
        raise UserError(f"{path}: give exactly one of 'seats' (a strategy per seat, or one "
                        "for all) and 'lineup' (strategies rotated over the seats)")
    mode = "seats" if "seats" in data else "lineup"
    entries = _strategy_list(w, data[mode], mode)
    duplicate = data.get("duplicate", mode == "lineup")
    if not isinstance(duplicate, bool):
        raise w.error("duplicate", duplicate, "must be true or false")
    if duplicate and mode == "seats":
        raise w.error("duplicate", duplicate, "duplicate deals rotate a lineup over the "
                      "seats: use 'lineup' instead of 'seats'")

    variants = _parse_variants(w, data["variants"])
    grids = _parse_grids(w, data["grid"], mode) if "grid" in data else [("grid", {})]

    size = len(variants) * sum(math.prod(len(v) for v in axes.values()) for _, axes in grids)
    if size > MAX_CELLS:
        raise UserError(f"{path}: the spec expands to {size:,} cells, more than the limit of "
                        f"{MAX_CELLS:,}; split it into several specs or shorten the grid")
    cells = []
    for vi, (vname, preset, overrides) in enumerate(variants):
        for gkey, axes in grids:
            keys = list(axes)
            for combo in itertools.product(*(list(enumerate(axes[k])) for k in keys)):
                point = {k: v for k, (_, v) in zip(keys, combo)}
                paths = {k: f'{gkey}."{k}"[{i}]' for k, (i, _) in zip(keys, combo)}
                cells.append(_make_cell(w, len(cells), vi, vname, preset, overrides, paths,
                                        point, mode, entries, duplicate))
    dup = {lab for lab, n in Counter(c.label for c in cells).items() if n > 1}
    if dup:
        raise UserError(f"{path}: the spec expands to the same cell twice: {sorted(dup)[0]}; "
                        "give the variants different names or remove the repeated grid value")
    analysis = data.get("analysis")
    if analysis is not None and not (isinstance(analysis, str) and _NAME.match(analysis)):
        raise w.error("analysis", analysis, "must be the name of an analysis (briscasim "
                      "research --list)")
    return Spec(path, name, description, seed, deals, target, chunk, duplicate, mode,
                tuple(cells), analysis)


def _parse_target(w, t) -> dict:
    if not isinstance(t, dict):
        raise w.error("target", t, "must be a table with ci_half_width and max_deals")
    _check_keys(w, t, TARGET_KEYS, "target")
    for k in TARGET_KEYS:
        if k not in t:
            raise UserError(f"{w.path}: target needs {k!r} (keys: {', '.join(TARGET_KEYS)})")
    h = t["ci_half_width"]
    if isinstance(h, float) and not math.isfinite(h):
        raise w.error("target.ci_half_width", h, "must be a finite number between 0 and 0.5")
    if not isinstance(h, (int, float)) or isinstance(h, bool) or not 0 < h < 0.5:
        raise w.error("target.ci_half_width", h, "must be a number between 0 and 0.5 "
                      "(half-width of the 95% interval of a win rate, e.g. 0.01)")
    return dict(ci_half_width=float(h),
                max_deals=_deals(w, t["max_deals"], "target.max_deals"))


def _strategy_list(w, value, key) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise w.error(key, value, "must be a non-empty list of strategy specs "
                      "such as [\"greedy\", \"random\"]")
    for i, s in enumerate(value):
        _check_strategy(w, s, f"{key}[{i}]")
    return list(value)


def _check_strategy(w, s, key) -> str:
    if not isinstance(s, str):
        raise w.error(key, s, "must be a strategy spec string such as \"greedy\" or "
                      "\"greedy+hold:stock=6\"")
    try:
        return resolve(s).label
    except StrategyError as e:
        raise w.error(key, s, str(e)) from None


def _parse_variants(w, variants) -> list[tuple[str, str, dict]]:
    if isinstance(variants, dict):
        variants = [variants]
    if not isinstance(variants, list) or not variants:
        raise w.error("variants", variants, "must be a non-empty array of tables "
                      "([[variants]] with preset = \"...\")")
    out = []
    for i, v in enumerate(variants):
        key = f"variants[{i}]"
        if not isinstance(v, dict):
            raise w.error(key, v, "must be a table with preset (and optional name, rules)")
        _check_keys(w, v, VARIANT_KEYS, key)
        if "preset" not in v:
            raise UserError(f"{w.path}: {key} needs a preset; valid presets: "
                            f"{', '.join(PRESETS)}")
        preset = v["preset"]
        if preset not in PRESETS:
            raise w.error(f"{key}.preset", preset,
                          f"unknown preset{valid_choices(preset, PRESETS, 'presets')}")
        rules = v.get("rules", {})
        if not isinstance(rules, dict):
            raise w.error(f"{key}.rules", rules, "must be a table of rule options")
        for opt in rules:
            if opt not in OPTION_NAMES:
                raise w.error(f"{key}.rules.{opt}", rules[opt], "unknown rule option"
                              f"{valid_choices(opt, OPTION_NAMES, 'options')}")
        try:
            default_name = Rules.preset(preset, **rules).name
        except RulesError as e:
            raise w.error(f"{key}.rules", rules, str(e)) from None
        vname = v.get("name", default_name)
        if not isinstance(vname, str) or not vname:
            raise w.error(f"{key}.name", vname, "must be a non-empty string")
        if any(vname == o[0] for o in out):
            raise w.error(f"{key}.name", vname, "another variant has this name")
        out.append((vname, preset, dict(rules)))
    return out


_AXIS = re.compile(r"(?:(rules)\.(\w+)|(preset)|(seats|lineup)(?:\.(\d+)(?:\.(\w+))?)?)\Z")


def _parse_grids(w, grid, mode) -> list[tuple[str, dict]]:
    tables = [grid] if isinstance(grid, dict) else grid
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise w.error("grid", grid, "must be a table ([grid]) or an array of tables "
                      "([[grid]]) of key = [values]")
    if not tables:
        raise w.error("grid", grid, "is empty; leave it out for a single cell per variant")
    out = []
    for gi, table in enumerate(tables):
        gkey = "grid" if isinstance(grid, dict) else f"grid[{gi}]"
        if not table:
            raise w.error(gkey, table, "is empty: give at least one key = [values]")
        for key, values in table.items():
            m = _AXIS.match(key)
            kp = f'{gkey}."{key}"'
            if not m:
                raise w.error(kp, values, "unknown grid key; use rules.OPTION, preset, "
                              f"{mode}, {mode}.I (entry I) or {mode}.I.PARAM (a parameter of "
                              "entry I)")
            if m.group(1) and m.group(2) not in OPTION_NAMES:
                raise w.error(kp, values, f"unknown rule option {m.group(2)!r}"
                              f"{valid_choices(m.group(2), OPTION_NAMES, 'options')}")
            if m.group(4) and m.group(4) != mode:
                raise w.error(kp, values, f"this spec places strategies with {mode!r}; "
                              f"write {mode}{key[len(m.group(4)):]}")
            if not isinstance(values, list):
                raise w.error(kp, values, "must be a list of values, e.g. [1, 2, 3]")
            if not values:
                raise w.error(kp, values, "is an empty grid axis; give at least one value")
            for i, v in enumerate(values):
                if m.group(3) and v not in PRESETS:
                    raise w.error(f"{kp}[{i}]", v,
                                  f"unknown preset{valid_choices(v, PRESETS, 'presets')}")
                if m.group(4) and m.group(5) is None:
                    _strategy_list(w, v, f"{kp}[{i}]")
                elif m.group(4) and m.group(6) is None:
                    _check_strategy(w, v, f"{kp}[{i}]")
        out.append((gkey, table))
    return out


def _make_cell(w, cid, vi, vname, preset, overrides, paths, point, mode, entries, duplicate):
    where = f"variants[{vi}] ({vname})" + (
        " with " + ", ".join(f"{paths[k]} = {_fmt(v)}" for k, v in point.items())
        if point else "")
    rules_over = dict(overrides)
    entries = list(entries)
    param_axes = []
    for key, value in point.items():
        m = _AXIS.match(key)
        if m.group(1):
            rules_over[m.group(2)] = value
        elif m.group(3):
            preset = value
        elif m.group(5) is None:
            entries = list([value] if isinstance(value, str) else value)
        elif m.group(6) is None:
            i = int(m.group(5))
            if i >= len(entries):
                raise w.error(paths[key], value, f"{mode} has {len(entries)} entries "
                              f"(0..{len(entries) - 1})")
            entries[i] = value
        else:
            param_axes.append((key, int(m.group(5)), m.group(6), value))
    for key, i, pname, value in param_axes:
        if i >= len(entries):
            raise w.error(paths[key], value, f"{mode} has {len(entries)} entries "
                          f"(0..{len(entries) - 1})")
        entries[i] = _with_param(w, paths[key], entries[i], pname, value)
    try:
        rules = Rules.preset(preset, **rules_over)
    except RulesError as e:
        raise UserError(f"{w.path}: {where}: {e}") from None
    n = rules.players
    k = len(entries)
    if mode == "seats":
        if k == 1:
            entries = entries * n
            k = n
        if k != n:
            raise UserError(f"{w.path}: {where}: seats = {_fmt(entries)} gives {k} strategies "
                            f"for {n} seats; give one per seat, or one for all")
    elif n % k:
        raise UserError(f"{w.path}: {where}: lineup = {_fmt(entries)} has {k} entries, which "
                        f"do not fill {n} seats; give a number of entries that divides {n}")
    labels = tuple(resolve(e).label for e in entries)
    seating = tuple(s % k for s in range(n))
    rotating = mode == "lineup" and k > 1
    rotations = k if rotating and duplicate else 1
    blocks = k if rotating and not duplicate else 1
    return Cell(cid, vname, point, rules, tuple(entries), labels, seating, rotations, blocks)


def _with_param(w, key, spec: str, pname: str, value) -> str:
    """``spec`` with parameter ``pname`` of its play strategy or swap policy set to ``value``;
    the result is checked by ``resolve``."""
    text = _fmt(value) if not isinstance(value, str) else value
    play, plus, policy = spec.partition("+")
    st = resolve(spec)
    pol_name = policy.partition(":")[0].strip()
    pol_params = [p.name for p in registry.SWAP_POLICIES[pol_name].params] if plus else []
    if pname in st.values:
        parts = play.split(":")
        head = 1 if parts[0] in registry.REGISTRY else 2
        play = _set_item(":".join(parts[:head]), ":".join(parts[head:]), pname, text)
    elif pname in pol_params:
        head, _, rest = policy.partition(":")
        policy = _set_item(head, rest, pname, text)
    else:
        valid = list(st.values) + pol_params
        raise w.error(key, value, f"strategy {spec!r} has no parameter {pname!r}; valid: "
                      f"{', '.join(valid) or 'none'}")
    new = play + (plus + policy if plus else "")
    try:
        resolve(new)
    except StrategyError as e:
        raise w.error(key, value, str(e)) from None
    return new


def _set_item(head: str, rest: str, name: str, text: str) -> str:
    items = [s for s in (x.strip() for x in rest.split(",")) if s]
    items = [s for s in items if s.partition("=")[0].strip() != name] + [f"{name}={text}"]
    return f"{head.strip()}:{','.join(items)}"
