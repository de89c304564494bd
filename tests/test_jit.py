"""Kernels compile on first use only: a random-vs-random run of single deals never compiles
the search strategies or the match kernel (what keeps the first run short)."""
import subprocess
import sys

_PROBE = """
from briscasim import batch
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies import dispatch
rules = Rules.preset("brisca-2")
play_chunk(rules, Lineup.build(rules, "random"), 1, 0, 10)
print(len(batch.play_deals.signatures), len(batch.play_matches.signatures),
      len(dispatch.search_decide.signatures))
play_chunk(rules, Lineup.build(rules, ["ismcts:iterations=20", "greedy"]), 1, 0, 2)
play_chunk(rules, Lineup.build(rules, ["pimc:worlds=2", "omniscient"]), 1, 0, 2)
print(len(batch.play_deals.signatures), len(batch.play_matches.signatures),
      len(dispatch.search_decide.signatures))
"""


def test_kernels_compile_on_first_use_only():
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "1 0 0"        # random deals: the deal kernel alone
    assert out[1] == "1 0 1"        # one search slot for every search strategy, no recompile
