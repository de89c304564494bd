"""Compiling once: few kernels serve every built-in lineup on every preset, ``briscasim
compile`` compiles them ahead, and the command line's help loads none of them."""
import itertools
import os
import subprocess
import sys

import pytest

from briscasim import batch
from briscasim.engine.layout import EVERY_FEATURE
from briscasim.kernels import work
from briscasim.rules import PRESETS, Rules
from briscasim.simulate import Lineup, needed_features
from briscasim.strategies.dispatch import lineup_shape, search_features
from briscasim.strategies.registry import BUILTINS


def _lineups(rules):
    """Every built-in alone, with a swap policy, and every pair of built-ins."""
    names = sorted(BUILTINS)
    yield from ([name] for name in names)
    yield ["greedy+hold"]
    for a, b in itertools.combinations(names, 2):
        yield [a, b] * (rules.players // 2) + [a] * (rules.players % 2)


def test_every_built_in_lineup_on_every_preset_runs_a_kernel_compiled_ahead():
    """``briscasim compile`` compiles the kernels of batch.KERNEL_KEYS and the searches of
    both feature sets: any lineup of built-ins on any preset finds its kernels there."""
    keys = {(kind, key) for kind, menu in batch.KERNEL_KEYS.items() for key in menu}
    assert len(work()) >= len(keys) + 2
    for name in PRESETS:
        rules = Rules.preset(name)
        kind = "deal" if rules.match_kind == "deal" else "match"
        for specs in _lineups(rules):
            lineup = Lineup.build(rules, specs)
            needed = needed_features(rules, lineup)
            key = batch.kernel_key(rules.match_kind, lineup.own_shape, needed)
            assert (kind, key) in keys, (name, specs)
            assert lineup.own_shape & ~key[0] == 0 and needed & ~key[1] == 0
            assert search_features(needed) in (0, EVERY_FEATURE)


def test_every_chiamata_preset_plays_the_kernel_of_chiamata_rules():
    for name in PRESETS:
        rules = Rules.preset(name)
        if rules.chiamata:
            needed = needed_features(rules, Lineup.build(rules, "greedy"))
            assert needed & ~batch.CHIAMATA_FEATURES == 0, name


def test_the_kernel_menu_holds_every_lineup_and_rule():
    every = lineup_shape([[k, 1] for k in range(-1, 20)])
    for kind in ("deal", "points"):
        assert batch.kernel_key(kind, every, EVERY_FEATURE)[1] == EVERY_FEATURE


def test_a_run_plays_the_fastest_kernel_ready_else_the_kernel_of_every_lineup(monkeypatch):
    """Without ``briscasim compile``: one compile for the classic rules, one for Briscola
    Chiamata's, one for the others; none when a kernel that plays the run is ready."""
    from briscasim.engine.layout import F_AUCTION, F_SIGNALS
    from briscasim.strategies.dispatch import EVERY_SHAPE, HAS_RANDOM
    ready = set()
    monkeypatch.setattr(batch, "ready", lambda kernel, signature: kernel in ready)
    every = (EVERY_SHAPE, EVERY_FEATURE)
    chiamata = (EVERY_SHAPE, batch.CHIAMATA_FEATURES)
    assert batch.kernel_key("deal", HAS_RANDOM, 0) == (EVERY_SHAPE, 0)
    assert batch.kernel_key("deal", HAS_RANDOM, F_AUCTION) == chiamata
    ready.add(batch._uncompiled("deal", HAS_RANDOM, batch.CHIAMATA_FEATURES))
    assert batch.kernel_key("deal", HAS_RANDOM, F_AUCTION) == (HAS_RANDOM,
                                                              batch.CHIAMATA_FEATURES)
    assert batch.kernel_key("deal", EVERY_SHAPE, F_AUCTION) == chiamata
    ready.clear()
    assert batch.kernel_key("deal", HAS_RANDOM, F_SIGNALS) == every
    assert batch.kernel_key("points", HAS_RANDOM, 0) == every
    ready.add(batch._uncompiled("deal", *every))
    assert batch.kernel_key("deal", HAS_RANDOM, F_AUCTION) == every
    assert batch.kernel_key("deal", HAS_RANDOM, 0) == every
    ready.add(batch._uncompiled("deal", HAS_RANDOM, 0))
    assert batch.kernel_key("deal", HAS_RANDOM, 0) == (HAS_RANDOM, 0)
    assert batch.kernel_key("deal", EVERY_SHAPE, 0) == every


def test_help_loads_no_kernel():
    code = ("import sys\nfrom briscasim.cli.main import main\n"
            "try:\n    main(['-h'])\nexcept SystemExit:\n    pass\n"
            "print('numba' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split()[-2:] == ["False", "False"]


@pytest.mark.slow     # compiles in a fresh cache on purpose
def test_a_first_run_announces_its_compile_before_it_starts(tmp_path):
    """On a fresh cache, the notice is the first thing a compiling command prints, on
    stderr, before its results."""
    env = dict(os.environ, BRISCASIM_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    from briscasim.jit import NOTICE
    run = subprocess.run([sys.executable, "-m", "briscasim", "simulate", "--preset",
                          "brisca-2", "--strategy", "random", "--deals", "100", "--json"],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith(NOTICE)


@pytest.mark.parametrize("preset", ["brisca-2", "chiamata-5"])
def test_every_kernel_a_vector_env_builds_is_compiled_ahead(monkeypatch, preset):
    """Self-play, any opponent and any adviser run the environment's kernels that
    ``briscasim compile`` builds (recorded here, not compiled)."""
    from briscasim.envs import vector
    built = []
    monkeypatch.setattr(vector, "_entry", lambda make, signature, shape: built.append(
        (make, signature, shape)) or (lambda *args: None))
    for _, build in vector.kernel_work():
        build()
    ahead = set(built)
    assert {w for w, _ in vector.kernel_work()} <= {w for w, _ in work()}
    built.clear()
    rules = Rules.preset(preset)
    vector.VectorEnv(rules, 2)
    for opponent in ("random", "expert", "greedy", "learned", "ismcts:iterations=10"):
        env = vector.VectorEnv(rules, 2, opponent=opponent)
        env._started = True
        env.advice(opponent)
    assert built and set(built) <= ahead
