"""OpenSpiel playthroughs of the briscasim game, one preset of each family, kept as OpenSpiel
keeps them for its own games (``open_spiel.python.algorithms.generate_playthrough``), in
``tests/playthroughs/<preset>.txt.xz``::

    python scripts/openspiel_playthroughs.py            # write them afresh
    python scripts/openspiel_playthroughs.py --check    # replay each and compare, as CI does

A playthrough deals and plays one game with chance outcomes and actions drawn from ``SEED``,
printing every observer's view of the first states and of every tenth state after them;
replaying it plays the same actions again and must print the same text. The files are
xz-compressed: the information-state tensor (a row for each thing a seat has seen) makes
them 0.4 to 3 MB of text each. Needs the ``rl`` extra.
"""
from __future__ import annotations

import lzma
import sys
import tempfile
from pathlib import Path

PRESETS = ("brisca-2", "brisca-4-pairs-signals", "brisca-3-faceup", "briscola-2",
           "briscolone-2", "schembil", "chiamata-5")
"""A preset of each family: two players; partners with signals; a face-up card left over;
Briscola (no swaps); Briscolone (no trump, five cards a hand); Schembil (a captain's rais);
Briscola Chiamata (the auction and the call)."""
SEED = 1
DIR = Path(__file__).resolve().parents[1] / "tests" / "playthroughs"


def _generate_playthrough():
    """OpenSpiel's playthrough module, with the briscasim game registered."""
    from absl import flags

    from briscasim.envs import register_openspiel
    if not flags.FLAGS.is_parsed():      # it reads one flag, left at its default
        flags.FLAGS.mark_as_parsed()
    register_openspiel()
    from open_spiel.python.algorithms import generate_playthrough
    return generate_playthrough


def path(preset: str) -> Path:
    return DIR / f"{preset}.txt.xz"


def generate(preset: str) -> str:
    """A new playthrough of ``preset``."""
    return _generate_playthrough().playthrough(f"briscasim(preset={preset})", [], seed=SEED)


def replay(preset: str) -> tuple[str, str]:
    """The stored playthrough of ``preset`` and the same actions played again, as
    OpenSpiel's ``replay`` gives them."""
    gp = _generate_playthrough()
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / f"{preset}.txt"
        plain.write_bytes(lzma.decompress(path(preset).read_bytes()))
        return gp.replay(str(plain))


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print("usage: python scripts/openspiel_playthroughs.py [--check]", file=sys.stderr)
        return 2
    failed = []
    for preset in PRESETS:
        if argv:
            stored, new = replay(preset)
            if stored != new:
                failed.append(preset)
            print(f"{preset}: {'differs' if stored != new else 'same'}")
        else:
            path(preset).write_bytes(lzma.compress(generate(preset).encode("utf-8"),
                                                   preset=9))
            print(f"wrote {path(preset)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
