"""``briscasim bench``: a smoke test with tiny counts (no timing assertions)."""
import json

import pytest

from briscasim.bench import format_bench
from briscasim.cli.main import main

pytestmark = pytest.mark.slow     # measures the engine


def test_bench_cli_json(capsys):
    """One run of the whole bench (its subprocesses are most of a run's time), through the
    command line: ``--quick`` with smaller counts given, each step shown on stderr."""
    main(["bench", "--quick", "--deals", "2000", "--greedy-deals", "500",
          "--memory-deals", "1000,5000", "--json"])
    out, err = capsys.readouterr()
    d = json.loads(out)
    steps = [line for line in err.splitlines() if line.startswith("[")]
    total = len(steps)
    assert total >= 12 and steps[0].startswith(f"[1/{total}, ") \
        and steps[-1].startswith(f"[{total}/{total}, ")
    assert d["repeats"] == 1 and d["deals"] == 2000
    for key in ("random_deals_per_second", "random_deals_per_second_all_cores", "scaling",
                "greedy_deals_per_second", "expert_deals_per_second",
                "chiamata_random_deals_per_second", "chiamata_greedy_deals_per_second",
                "vector_env_steps_per_second", "step_api_deals_per_second",
                "warm_start_seconds", "ismcts_iterations_per_second"):
        assert d[key] > 0
    assert set(d["peak_rss_mb"]) == {"1000", "5000"}
    assert all(mb > 10 for mb in d["peak_rss_mb"].values())
    text = format_bench(d)
    assert "deals/s" in text and "peak RSS" in text


def test_bench_cli_bad_input(capsys):
    try:
        main(["bench", "--memory-deals", "ten"])
        code = 0
    except SystemExit as e:
        code = e.code
    assert code == 2
    assert "--memory-deals = 'ten'" in capsys.readouterr().err
