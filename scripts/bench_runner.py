"""Benchmark of the experiment runner against the raw engine.

    python scripts/bench_runner.py [--deals 1000000] [--workers 2] [--repeat 3] [--json]

1. raw engine: ``play_chunk`` over the spec's chunks on a pool of ``workers`` threads, records
   discarded (the floor any runner can reach);
2. runner: ``briscasim.experiments.runner.run`` on the same chunks (play, Parquet files,
   manifest, progress bookkeeping), in-process;
3. the commands, as a user types them: ``briscasim run SPEC`` then ``briscasim report DIR``
   (new processes: interpreter start-up, numba cache load, charts included);
4. CPU time of one chunk on one thread (``time.thread_time``, so other load on the machine
   matters less than for the wall-clock figures): playing it, and what the runner adds
   (the chunk file: table, Parquet, checksum, rename), best and median of ``20 * repeat``
   writes.

The spec is 2-player ``brisca-2``, random against random, ``deals`` deals. Each timing is the
best of ``repeat`` (steps 1 and 2 take turns); run with a warm numba cache (the script
warms it first). The machine's other load makes single timings noisy: compare the best of
several. Steps 1 and 2 also give
the CPU time of the whole process (``*_cpu_seconds``), which other load disturbs less.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SPEC = """
name = "bench-random-2p"
seed = 1
deals = {deals}
seats = ["random"]
[[variants]]
preset = "brisca-2"
"""


def best(fns, repeat: int) -> list[tuple[float, float]]:
    """Per function of ``fns``: least wall-clock seconds and least CPU seconds (all threads
    of this process) of ``repeat`` calls. The functions take turns, so a change in the
    machine's other load hits them alike."""
    wall, cpu = ([[] for _ in fns] for _ in range(2))
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t, c = time.perf_counter(), time.process_time()
            fn()
            wall[i].append(time.perf_counter() - t)
            cpu[i].append(time.process_time() - c)
    return [(min(w), min(c)) for w, c in zip(wall, cpu)]


def thread_times(fn, n: int) -> list[float]:
    """CPU seconds of this thread for each of ``n`` calls of ``fn``."""
    out = []
    for _ in range(n):
        t = time.thread_time()
        fn()
        out.append(time.thread_time() - t)
    return out


def chunk_cpu(spec, cell, lineup, bounds, out: Path, repeat: int):
    """Milliseconds of CPU to play one chunk (best of ``repeat``) and to write it as the
    runner does (best and median of ``20 * repeat``)."""
    from briscasim.experiments.records import run_schema
    from briscasim.experiments.runner import TMP_DIR, _Finisher, chunk_path
    from briscasim.simulate import play_chunk

    b, first, count = bounds
    resolved = spec.resolved()["cells"][0]
    play = thread_times(lambda: play_chunk(cell.rules, lineup, spec.seed, first, count), repeat)
    records = play_chunk(cell.rules, lineup, spec.seed, first, count)
    chunk_path(out, 0, 0).parent.mkdir(parents=True)
    (out / TMP_DIR).mkdir()
    finish = _Finisher(out, resolved, cell.rules.side_of, run_schema([resolved]), 0, b, first,
                       count, False)
    write = []
    for _ in range(20 * repeat):
        chunk_path(out, 0, 0).unlink(missing_ok=True)      # a run never replaces a chunk file
        write += thread_times(lambda: finish(records), 1)
    write.sort()
    return 1e3 * min(play), (1e3 * write[0], 1e3 * write[len(write) // 2])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from briscasim.experiments.runner import run
    from briscasim.experiments.spec import chunk_bounds, load_spec
    from briscasim.simulate import Lineup, play_chunk

    tmp = Path(tempfile.mkdtemp(prefix="bench_runner_"))
    try:
        spec_path = tmp / "bench.toml"
        spec_path.write_text(SPEC.format(deals=args.deals))
        spec = load_spec(spec_path)
        cell = spec.cells[0]
        resolved = spec.resolved()
        chunks = [chunk_bounds(resolved, resolved["cells"][0], j)
                  for j in range(-(-args.deals // spec.chunk))]
        lineup = Lineup.build(cell.rules, list(cell.lineup))
        play_chunk(cell.rules, lineup, 1, 0, 1000)                 # warm the numba cache

        def raw():
            with ThreadPoolExecutor(args.workers) as ex:
                list(ex.map(lambda c: play_chunk(cell.rules, lineup, spec.seed, c[1], c[2]),
                            chunks))

        n = [0]

        def runner():
            n[0] += 1
            run(spec, tmp / f"run{n[0]}", workers=args.workers, progress=False)

        (t_raw, cpu_raw), (t_run, cpu_run) = best([raw, runner], args.repeat)
        cli = [sys.executable, "-c", "from briscasim.cli.main import main; main()"]

        def commands():
            out = tmp / "cli"
            shutil.rmtree(out, ignore_errors=True)
            t = time.perf_counter()
            subprocess.run(cli + ["run", str(spec_path), "-o", str(out), "--workers",
                                  str(args.workers), "--quiet"], check=True,
                           stdout=subprocess.DEVNULL)
            t_cmd_run = time.perf_counter() - t
            t = time.perf_counter()
            subprocess.run(cli + ["report", str(out), "-o", str(tmp / "report")], check=True,
                           stdout=subprocess.DEVNULL)
            return t_cmd_run, time.perf_counter() - t

        cmd = min((commands() for _ in range(args.repeat)), key=sum)
        size = sum(f.stat().st_size for f in (tmp / "cli").glob("cell=*/*.parquet"))
        play_ms, write_ms = chunk_cpu(spec, cell, lineup, chunks[0], tmp / "cpu", args.repeat)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    res = dict(deals=args.deals, workers=args.workers, chunk=spec.chunk,
               raw_engine_seconds=round(t_raw, 3),
               raw_deals_per_second=round(args.deals / t_raw),
               runner_seconds=round(t_run, 3),
               runner_deals_per_second=round(args.deals / t_run),
               runner_overhead=round(t_run / t_raw - 1, 4),
               raw_engine_cpu_seconds=round(cpu_raw, 3), runner_cpu_seconds=round(cpu_run, 3),
               runner_cpu_overhead=round(cpu_run / cpu_raw - 1, 4),
               run_command_seconds=round(cmd[0], 3), report_command_seconds=round(cmd[1], 3),
               run_plus_report_seconds=round(sum(cmd), 3),
               parquet_bytes_per_deal=round(size / args.deals, 2),
               chunk_play_cpu_ms=round(play_ms, 2),
               chunk_write_cpu_ms=round(write_ms[0], 2),
               chunk_write_cpu_ms_median=round(write_ms[1], 2),
               chunk_write_over_play=round(write_ms[0] / play_ms, 4))
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>26}: {v}")


if __name__ == "__main__":
    main()
