"""The runner: results independent of workers and chunking, equal to play_chunk, resumable after
SIGKILL, and refusing foreign directories without deleting anything. Damage, locks and the
file system's errors: test_integrity.py."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from briscasim.errors import UserError
from briscasim.experiments import report
from briscasim.experiments.records import (DEAL_FIELDS, _column_range, match_fields, read_chunk,
                                          run_schema, to_table, write_chunk)
from briscasim.experiments.runner import run, seal_of
from briscasim.experiments.spec import load_spec
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk

SPEC = """
name = "r"
seed = 11
deals = {deals}
chunk = {chunk}
lineup = ["random", "random:swap_prob=1"]
[[variants]]
preset = "brisca-2"
[[variants]]
preset = "brisca-4-pairs"
"""

CLI = [sys.executable, "-c", "from briscasim.cli.main import main; main()"]


def spec_file(tmp_path, name="spec.toml", **kw):
    args = dict(deals=600, chunk=100)
    args.update(kw)
    p = tmp_path / name
    p.write_text(SPEC.format(**args))
    return p


def chunk_files(path) -> list:
    return sorted(path.glob("cell=*/chunk-*.parquet"))


def read_chunks(path) -> pd.DataFrame:
    """Every chunk file of a results directory."""
    return pd.concat([read_chunk(f).to_pandas() for f in chunk_files(path)], ignore_index=True)


def table(path) -> pd.DataFrame:
    df = read_chunks(path)
    return df.sort_values(["cell", "deal", "rotation"]).reset_index(drop=True)


def test_workers_and_chunking_do_not_change_results(tmp_path):
    a = run(load_spec(spec_file(tmp_path)), tmp_path / "a", workers=1, progress=False)
    b = run(load_spec(spec_file(tmp_path, "s2.toml", chunk=70)), tmp_path / "b", workers=2,
            progress=False)
    ta, tb = table(a), table(b)
    assert len(ta) == 2 * 2 * 600
    pd.testing.assert_frame_equal(ta, tb)
    m = json.loads((a / "_manifest.json").read_text())
    assert m["status"] == "complete" and m["done"] == {"0": 6, "1": 6}
    assert [len(m["checksums"][c]) for c in "01"] == [6, 6]
    assert {"briscasim", "engine_sources", "models", "numpy", "numba",
            "python"} <= set(m["versions"])
    assert m["spec"]["cells"][1]["rules"]["teams"] == "pairs"


def test_records_are_play_chunk_records(tmp_path):
    out = run(load_spec(spec_file(tmp_path, deals=50, chunk=20)), tmp_path / "o",
              progress=False)
    t = table(out)
    rules = Rules.preset("brisca-4-pairs")
    rec = play_chunk(rules, Lineup.build(rules, ["random", "random:swap_prob=1"] * 2), 11, 0,
                     50, 2)
    mine = t[t["cell"] == 1]
    assert np.array_equal(mine["winner"].to_numpy(), rec[:, 0])
    assert np.array_equal(mine[["points_0", "points_1"]].to_numpy(), rec[:, 14:16])
    assert (rec[:, 16:20] == 0).all()       # two sides: no columns for the others
    # every record field, the ones stored once per chunk file included
    fields = [name for name, i in DEAL_FIELDS][:16]
    f = out / "cell=1" / "chunk-000000.parquet"
    assert read_chunk(f).column_names == (["cell", "deal", "rotation"]
                                          + [f"entry_{s}" for s in range(4)] + fields
                                          + ["target_seat"])
    assert np.array_equal(mine[fields].to_numpy(), rec[:, :16])
    assert (mine[fields].dtypes == np.int16).all()
    assert np.array_equal(mine["deal"].to_numpy(), np.repeat(np.arange(50), 2))
    # duplicate: both rotations of a deal have the same cards, seats swapped
    assert (mine["turned"].to_numpy()[::2] == mine["turned"].to_numpy()[1::2]).all()
    assert mine[["entry_0", "entry_1", "entry_2", "entry_3"]].iloc[1].tolist() == [1, 0, 1, 0]
    assert t[t["cell"] == 0]["entry_2"].isna().all()          # brisca-2 has two seats


def test_chunk_files_are_plain_parquet_with_every_column(tmp_path):
    out = run(load_spec(spec_file(tmp_path, deals=300, chunk=300)), tmp_path / "o",
              progress=False)
    f = out / "cell=0" / "chunk-000000.parquet"
    whole = read_chunk(f)
    stored = pq.read_table(f)           # any Parquet reader: every column but the cell (the
    assert stored.num_rows == whole.num_rows == 600                     # folder's name)
    assert ["cell"] + stored.column_names == whole.column_names
    assert stored.equals(whole.drop_columns(["cell"]))
    # each column encoded for what it holds: values that vary byte-stream-split, values that
    # repeat (constant fields such as brisca-2's black_hand, the rotation, seats) plain for
    # LZ4 to pack, deal indices as deltas
    pf = pq.ParquetFile(f)
    meta = pf.metadata.row_group(0)
    encodings = {meta.column(i).path_in_schema: meta.column(i).encodings
                 for i in range(meta.num_columns)}
    sizes = {meta.column(i).path_in_schema: meta.column(i).total_compressed_size
             for i in range(meta.num_columns)}
    assert "DELTA_BINARY_PACKED" in encodings["deal"]
    assert "BYTE_STREAM_SPLIT" in encodings["winner"]
    for name in ("black_hand", "out_points", "rotation", "entry_0", "entry_3"):
        assert encodings[name] == ("PLAIN",) or "PLAIN" in encodings[name], name
        assert sizes[name] < sizes["winner"] / 4, name
    assert whole.column("entry_3").null_count == 600           # brisca-2 has two seats
    # nullable only where a cell lacks the column (brisca-2 here: seats 2 and 3)
    nullable = [fd.name for fd in pf.schema_arrow if fd.nullable]
    assert nullable == ["entry_2", "entry_3"]
    # columns picked and ordered as asked
    part = read_chunk(f, ["points_1", "deal", "black_hand", "cell"])
    assert part.column_names == ["points_1", "deal", "black_hand", "cell"]
    assert part.equals(whole.select(["points_1", "deal", "black_hand", "cell"]))
    with pytest.raises(KeyError, match="points_2"):
        read_chunk(f, ["points_2"])


def test_match_records_round_trip(tmp_path):
    rules = Rules.preset("brisca-2", match="deals 3")
    rec = play_chunk(rules, Lineup.build(rules, ["random", "random:swap_prob=1"]), 4, 10, 30,
                     2)
    cell = dict(id=5, seating=[0, 1], rules=rules.options())
    table, repeating = to_table(cell, rec, 2, run_schema([cell]), 2, 0, 10, 30)
    write_chunk(str(tmp_path / "m.parquet"), table, repeating)
    back = read_chunk(tmp_path / "m.parquet")
    fields = back.column_names[5:]
    assert back.column_names[:5] == ["cell", "deal", "rotation", "entry_0", "entry_1"]
    index = dict(match_fields())
    assert fields == [name for name in index if not name.endswith(("_2", "_3", "_4", "_5"))]
    assert np.array_equal(np.stack([back.column(c).to_numpy() for c in fields], axis=1),
                          rec[:, [index[c] for c in fields]])
    assert back.column("winner").type == "int32"
    assert back.column("cell").to_pylist() == [5] * 60
    assert back.column("entry_0").to_pylist() == [0, 1] * 30


def test_column_range_of_any_length():
    rng = np.random.default_rng(1)
    for n in (1, 63, 64, 65, 200, 1000):
        rec = rng.integers(-5, 50, size=(n, 7), dtype=np.int32)
        lo, hi = _column_range(rec)
        assert np.array_equal(lo, rec.min(axis=0)) and np.array_equal(hi, rec.max(axis=0))


def test_results_of_an_older_layout_are_refused(tmp_path):
    spec = load_spec(spec_file(tmp_path, deals=40, chunk=40))
    out = run(spec, tmp_path / "o", progress=False)
    f = out / "cell=0" / "chunk-000000.parquet"
    pq.write_table(pq.read_table(f).replace_schema_metadata(None), tmp_path / "plain.parquet")
    with pytest.raises(ValueError, match="older briscasim: re-run"):
        read_chunk(tmp_path / "plain.parquet")
    m = json.loads((out / "_manifest.json").read_text())
    m["format_version"] = 2
    (out / "_manifest.json").write_text(json.dumps(m))
    for attempt in (lambda: report.load(out),
                    lambda: run(spec, out, resume=True, progress=False)):
        with pytest.raises(UserError, match="older briscasim: re-run"):
            attempt()
    old = tmp_path / "old"                # the layout before: manifest.json, chunks/
    (old / "chunks").mkdir(parents=True)
    (old / "manifest.json").write_text(json.dumps(m))
    for attempt in (lambda: report.load(old),
                    lambda: run(spec, old, resume=True, progress=False)):
        with pytest.raises(UserError, match="older briscasim.*re-run"):
            attempt()
    assert f.exists() and (old / "manifest.json").exists()


def test_non_duplicate_lineup_plays_other_deals_per_seating(tmp_path):
    p = tmp_path / "nd.toml"
    p.write_text(SPEC.format(deals=40, chunk=15).replace("chunk = 15",
                                                         "chunk = 15\nduplicate = false"))
    t = table(run(load_spec(p), tmp_path / "nd", progress=False))
    c0 = t[t["cell"] == 0]
    assert len(c0) == 80
    assert sorted(c0["rotation"].unique()) == [0, 1]
    assert c0[c0["rotation"] == 1]["deal"].min() == 1 << 32
    assert (c0[c0["rotation"] == 1]["entry_0"] == 1).all()


def test_refuses_a_different_spec_and_keeps_everything(tmp_path):
    out = run(load_spec(spec_file(tmp_path)), tmp_path / "o", progress=False)
    before = chunk_files(out)
    with pytest.raises(UserError, match="holds a different experiment"):
        run(load_spec(spec_file(tmp_path, "x.toml", deals=700)), out, progress=False)
    with pytest.raises(UserError, match="holds a different experiment"):
        run(load_spec(spec_file(tmp_path, "x.toml", deals=700)), out, resume=True,
            progress=False)
    assert chunk_files(out) == before
    # the same spec again: already complete, nothing to do
    assert run(load_spec(spec_file(tmp_path)), out, progress=False) == out


def test_refuses_a_directory_that_is_not_a_run(tmp_path):
    d = tmp_path / "mine"
    d.mkdir()
    (d / "thesis.txt").write_text("precious")
    with pytest.raises(UserError, match="not a briscasim results directory"):
        run(load_spec(spec_file(tmp_path)), d, resume=True, progress=False)
    (d / "_manifest.json").write_text("{not json")
    with pytest.raises(UserError, match="corrupt manifest"):
        run(load_spec(spec_file(tmp_path)), d, resume=True, progress=False)
    assert (d / "thesis.txt").read_text() == "precious"
    assert (d / "_manifest.json").read_text() == "{not json"


def test_unfinished_run_needs_resume(tmp_path):
    spec = load_spec(spec_file(tmp_path))
    out = run(spec, tmp_path / "o", progress=False)
    m = json.loads((out / "_manifest.json").read_text())
    m["status"] = "running"
    m["seal"] = seal_of(m)                     # as a run killed before its end leaves it
    (out / "_manifest.json").write_text(json.dumps(m))
    (out / "cell=1" / "chunk-000003.parquet").unlink()
    with pytest.raises(UserError, match="--resume"):
        run(spec, out, progress=False)
    run(spec, out, resume=True, progress=False)
    pd.testing.assert_frame_equal(table(out),
                                  table(run(spec, tmp_path / "fresh", progress=False)))


@pytest.mark.slow          # 40,000 deals in a process of its own, killed and resumed
def test_resume_after_sigkill_gives_the_uninterrupted_result(tmp_path):
    spec = spec_file(tmp_path, deals=40000, chunk=500)
    out = tmp_path / "killed"
    proc = subprocess.Popen(CLI + ["run", str(spec), "-o", str(out), "--workers", "2",
                                   "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if len(chunk_files(out)) >= 8:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be killed: " + \
        proc.stderr.read().decode()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(chunk_files(out))
    assert 8 <= done < 160
    assert json.loads((out / "_manifest.json").read_text())["status"] == "running"
    r = subprocess.run(CLI + ["run", str(spec), "-o", str(out), "--resume", "--quiet"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert len(chunk_files(out)) == 160
    assert not list((out / ".tmp").iterdir())
    whole = run(load_spec(spec), tmp_path / "whole", progress=False)
    pd.testing.assert_frame_equal(table(out), table(whole))


TARGET = """
name = "tg"
seed = 5
chunk = 200
lineup = ["random", "random:swap_prob=1"]
[target]
ci_half_width = 0.03
max_deals = 5000
[[variants]]
preset = "brisca-2"
[[variants]]
preset = "briscola-2"
"""


def test_target_mode_is_deterministic_and_stops_early(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text(TARGET)
    a = run(load_spec(p), tmp_path / "a", workers=1, progress=False)
    b = run(load_spec(p), tmp_path / "b", workers=2, progress=False)
    ma = json.loads((a / "_manifest.json").read_text())
    mb = json.loads((b / "_manifest.json").read_text())
    assert ma["done"] == mb["done"]
    # a win rate near 1/2 needs about 1070 plays per entry for a half-width of 0.03:
    # 3 chunks of 200 deals x 2 rotations
    assert ma["done"] == {"0": 3, "1": 3}
    assert len(chunk_files(a)) == 6
    pd.testing.assert_frame_equal(table(a), table(b))
