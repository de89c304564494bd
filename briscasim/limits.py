"""Upper bounds on what one command, spec or call may ask for, checked before any work starts.

They keep a typing slip (``--deals 10**23``) from turning into a run that never ends, and keep
every count inside the integer types of the engine and of the result files. The documented
values (docs/specs.md, docs/cli.md) are these:

- ``MAX_DEALS``: deals (matches, under a match rule) per cell and seating, per simulation or
  per ``max_deals`` of a target: 2**32, about 4.3 billion (deal indices of the seatings of a
  lineup played without duplicate deals start 2**32 apart). At the engine's few million deals
  per second per core that is hours of play; split a larger study into several seeds.
- ``MAX_MATCH_DEALS``: the ``N`` of ``match = "deals N"``, and the rule option
  ``max_deals`` (the most deals a match to points or rounds may last): 10,000.
- ``MAX_MATCH_POINTS``: the ``P`` of ``match = "points P"``: 100,000.
- ``MAX_CELLS``: cells a spec may expand to: 10,000 (each is a folder of the results).
- ``MAX_INDEX``: a seed or a deal index: below 2**63.
"""
import os

MAX_DEALS = 1 << 32
MAX_MATCH_DEALS = 10_000
MAX_MATCH_POINTS = 100_000
MAX_CELLS = 10_000
MAX_INDEX = (1 << 63) - 1


def deals_error(value: int) -> str | None:
    """Why ``value`` deals is too many, or None."""
    if value > MAX_DEALS:
        return (f"is more than the limit of {MAX_DEALS:,} (2**32) deals; split the study "
                "into several seeds")
    return None


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), the default number of
    workers."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:              # no affinity on this platform
        return os.cpu_count() or 1
