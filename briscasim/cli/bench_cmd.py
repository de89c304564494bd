"""``briscasim bench``."""
import json
import time

import click
from click.core import ParameterSource

from ..errors import UserError
from . import HELP_OPTIONS


@click.command(context_settings=HELP_OPTIONS)
@click.option("--deals", type=int, default=1_000_000, show_default=True,
              help="Deals per random vs random measurement.")
@click.option("--greedy-deals", type=int, default=200_000, show_default=True,
              help="Deals per greedy vs greedy (and expert vs expert) measurement.")
@click.option("--repeats", type=int, default=3, show_default=True,
              help="Runs per figure; the best is kept.")
@click.option("--memory-deals", default="10000,100000,1000000", show_default=True,
              help="Deal counts for the peak-memory runs (comma separated).")
@click.option("--quick", is_flag=True,
              help="Every figure once, on fewer deals (100,000 random, 20,000 greedy, one "
                   "memory run): under a minute once compiled; options given still count.")
@click.option("--cold", is_flag=True,
              help="Also measure a cold start (fresh numba cache: compiles what a random run needs).")
@click.option("--no-ismcts", is_flag=True, help="Skip the ISMCTS measurement.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def bench(ctx, deals, greedy_deals, repeats, memory_deals, quick, cold, no_ismcts, as_json):
    """Measure deals per second (one thread and every core), ISMCTS iterations per second,
    start-up times and peak memory. Each step is shown on stderr as it starts."""
    from ..bench import QUICK
    ismcts_deals = 10
    if quick:
        def given(name):
            return ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE
        deals = deals if given("deals") else QUICK["deals"]
        greedy_deals = greedy_deals if given("greedy_deals") else QUICK["greedy_deals"]
        repeats = repeats if given("repeats") else QUICK["repeats"]
        if not given("memory_deals"):
            memory_deals = ",".join(str(n) for n in QUICK["memory_deals"])
        ismcts_deals = QUICK["ismcts_deals"]
    for name, v in (("--deals", deals), ("--greedy-deals", greedy_deals),
                    ("--repeats", repeats)):
        if v < 1:
            raise UserError(f"{name} = {v} must be at least 1")
    try:
        counts = tuple(int(x) for x in memory_deals.split(",") if x.strip())
    except ValueError:
        raise UserError(f"--memory-deals = {memory_deals!r} must be whole numbers separated "
                        "by commas") from None
    if not counts or min(counts) < 1:
        raise UserError(f"--memory-deals = {memory_deals!r} needs at least one count >= 1")
    from ..bench import format_bench, run_bench

    start = time.perf_counter()

    def show(step, steps, message):
        click.echo(f"[{step}/{steps}, {time.perf_counter() - start:.0f} s] {message}",
                   err=True)

    d = run_bench(deals, greedy_deals, repeats, counts, cold, not no_ismcts, show,
                  ismcts_deals)
    click.echo(json.dumps(d, indent=2) if as_json else format_bench(d))
