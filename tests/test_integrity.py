"""Results that can be trusted: every chunk checked against its checksum, the manifest bound
to its spec, damage named and repaired by ``run --resume``, one run per folder, a first
manifest write that a kill cannot spoil, and the file system's errors as one line."""
import errno
import fcntl
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from briscasim.errors import UserError
from briscasim.experiments import report, runner
from briscasim.experiments.runner import JOURNAL, LOCK, MANIFEST, TMP_DIR, chunk_path, run
from briscasim.experiments.spec import load_spec
from command_line import run as run_cli

SPEC = """
name = "trust"
seed = 3
deals = 400
chunk = 100
lineup = ["random", "random:swap_prob=1"]
[[variants]]
preset = "brisca-2"
[[variants]]
preset = "brisca-2"
name = "after draw"
rules = {{ swap_timing = "after_draw" }}
"""

CLI = [sys.executable, "-c", "from briscasim.cli.main import main; main()"]


def briscasim(capsys, *args):
    """The command line in this process: (exit status, stderr)."""
    return run_cli(capsys, *args)[::2]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished run, its spec, and the bytes of every chunk file."""
    d = tmp_path_factory.mktemp("trust")
    (d / "spec.toml").write_text(SPEC.format())
    spec = load_spec(d / "spec.toml")
    out = run(spec, d / "run", progress=False)
    files = sorted(out.glob("cell=*/chunk-*.parquet"))
    return spec, out, {f: f.read_bytes() for f in files}


def fresh_copy(finished_run, tmp_path):
    spec, out, files = finished_run
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    return spec, copy, {copy / f.relative_to(out): b for f, b in files.items()}


def test_random_bit_flips_are_caught_and_replayed(finished_run, tmp_path):
    spec, out, files = fresh_copy(finished_run, tmp_path)
    whole = report.load(out).records
    rng = np.random.default_rng(17)
    names = sorted(files)
    for _ in range(12):
        f = names[rng.integers(len(names))]
        data = bytearray(files[f])
        i = int(rng.integers(len(data)))
        data[i] ^= 1 << int(rng.integers(8))
        f.write_bytes(bytes(data))
        with pytest.raises(UserError) as e:
            report.load(out)
        msg = str(e.value)
        assert msg.startswith(f"{f}: damaged chunk file") and "--resume" in msg
        with pytest.raises(UserError, match=f"{f}: damaged chunk file"):
            runner.load(out)
        log = []
        run(spec, out, resume=True, progress=False, log=log.append)
        assert any(str(f) in line for line in log)
        assert f.read_bytes() == files[f]
    pd.testing.assert_frame_equal(report.load(out).records, whole)


def test_missing_chunks_of_a_finished_run_are_replayed(finished_run, tmp_path, capsys):
    spec, out, files = fresh_copy(finished_run, tmp_path)
    gone = [chunk_path(out, 0, 2), chunk_path(out, 1, 0)]
    for f in gone:
        f.unlink()
    with pytest.raises(UserError, match=f"{gone[0]}: missing chunk file; play it again "
                                        f"with: briscasim run .*spec.toml -o {out} --resume"):
        report.load(out)
    code, err = briscasim(capsys, "run", spec.path, "-o", out)
    assert code == 0 and "already complete" in err and "--resume" in err
    code, err = briscasim(capsys, "run", spec.path, "-o", out, "--resume")
    assert code == 0, err
    assert "2 chunk files missing or damaged" in err
    assert {f: f.read_bytes() for f in files} == files
    code, err = briscasim(capsys, "run", spec.path, "-o", out, "--resume")
    assert code == 0 and "every chunk file matches its checksum" in err


@pytest.mark.parametrize("edit", ["seed", "lineup", "digest", "chunk"])
def test_a_hand_edited_manifest_is_refused(finished_run, tmp_path, edit):
    spec, out, files = fresh_copy(finished_run, tmp_path)
    m = json.loads((out / MANIFEST).read_text())
    if edit == "seed":
        m["spec"]["seed"] += 1
    elif edit == "lineup":
        m["spec"]["cells"][1]["lineup"][1] = "random"
    elif edit == "digest":
        m["digest"] = "0" * 20
    else:
        m["spec"]["chunk"] = 50
    (out / MANIFEST).write_text(json.dumps(m))
    for attempt in (lambda: report.load(out), lambda: runner.load(out),
                    lambda: run(spec, out, resume=True, progress=False)):
        with pytest.raises(UserError, match=f"{out / MANIFEST}: the spec recorded in the "
                                            "manifest does not match its digest"):
            attempt()
    assert {f: f.read_bytes() for f in files} == files


def test_an_interrupted_run_with_damage_and_debris_completes(finished_run, tmp_path):
    """A kill at any point of a chunk's write: a truncated file, a half-written temporary
    file, a chunk whose checksum line was never written or was cut short."""
    spec, out, files = fresh_copy(finished_run, tmp_path)
    m = json.loads((out / MANIFEST).read_text())
    sums = m.pop("checksums")
    m["status"] = "running"
    m["seal"] = runner.seal_of(m)
    (out / MANIFEST).write_text(json.dumps(m))
    lines = [f"{c} {j} {s}\n" for c, values in sums.items() for j, s in enumerate(values)]
    # cell 0 chunk 3 unrecorded, cell 1 chunk 3 cut short, cell 1 chunk 1 truncated
    journal = "".join(lines[:3] + lines[4:7]) + lines[7][:20]
    (out / JOURNAL).write_text(journal)
    chunk_path(out, 1, 1).write_bytes(files[chunk_path(out, 1, 1)][:300])
    chunk_path(out, 0, 1).unlink()
    (out / TMP_DIR / "0-chunk-000001.parquet.123-456.tmp").write_bytes(b"PAR1 half")
    with pytest.raises(UserError, match="--resume"):
        run(spec, out, progress=False)
    run(spec, out, resume=True, progress=False)
    assert {f: f.read_bytes() for f in files} == files
    assert not list((out / TMP_DIR).iterdir()) and not (out / JOURNAL).exists()
    assert json.loads((out / MANIFEST).read_text())["checksums"] == sums


@pytest.mark.parametrize("resume", [False, True])
def test_a_killed_first_manifest_write_leaves_a_folder_that_runs(finished_run, tmp_path,
                                                                  resume):
    spec, _, files = finished_run
    out = tmp_path / "new"
    out.mkdir()
    (out / LOCK).write_text("4242\n")
    (out / f"{MANIFEST}.4242.tmp").write_text('{"format": "briscasim-run", "form')
    run(spec, out, resume=resume, progress=False)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [LOCK, MANIFEST, TMP_DIR, "cell=0", "cell=1"])
    assert report.load(out).records.shape[0] == 2 * 2 * 400


def test_a_second_run_on_the_same_folder_is_refused(finished_run, tmp_path):
    spec, out, files = fresh_copy(finished_run, tmp_path)
    fd = os.open(out / LOCK, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.pwrite(fd, b"999999\n", 0)
        for resume in (False, True):
            with pytest.raises(UserError, match=f"{out}: another briscasim run "
                                                r"\(process 999999\) is writing"):
                run(spec, out, resume=resume, progress=False)
    finally:
        os.close(fd)
    assert {f: f.read_bytes() for f in files} == files
    run(spec, out, resume=True, progress=False)          # the lock is free again


def test_a_full_disk_is_one_line_and_keeps_the_finished_chunks(finished_run, tmp_path,
                                                               monkeypatch):
    spec, _, files = finished_run
    out = tmp_path / "full"
    real = runner.write_chunk
    written = []

    def write_chunk(sink, table, repeating):
        if len(written) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(out / TMP_DIR / "x"))
        written.append(1)
        real(sink, table, repeating)

    monkeypatch.setattr(runner, "write_chunk", write_chunk)
    with pytest.raises(UserError) as e:
        run(spec, out, workers=1, progress=False)
    msg = str(e.value)
    assert msg.startswith(f"{out / TMP_DIR / 'x'}: No space left on device; 3 finished chunk "
                          f"files are kept in {out}")
    assert f"briscasim run {spec.path} -o {out} --resume" in msg
    monkeypatch.setattr(runner, "write_chunk", real)
    run(spec, out, resume=True, progress=False)
    assert sorted(f.read_bytes() for f in out.glob("cell=*/*.parquet")) == sorted(
        files.values())


def test_out_under_a_file_is_one_line(finished_run, tmp_path, capsys):
    spec, _, _ = finished_run
    (tmp_path / "afile").write_text("x")
    code, err = briscasim(capsys, "run", spec.path, "-o", tmp_path / "afile")
    assert code == 2 and f"'{tmp_path / 'afile'}' is a file" in err
    code, err = briscasim(capsys, "run", spec.path, "-o", tmp_path / "afile" / "run")
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"error: {tmp_path / 'afile'}") and len(err.splitlines()) == 1, err
    with pytest.raises(UserError, match=f"{tmp_path / 'afile'}: exists and is not a directory"):
        run(spec, tmp_path / "afile", progress=False)


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 256 KB tmpfs (needs root and mount; skipped where the machine has neither)."""
    d = tmp_path / "mnt"
    d.mkdir()
    if shutil.which("mount") is None or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(d)],
            capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    yield d
    subprocess.run(["umount", "-l", str(d)], capture_output=True)


@pytest.mark.slow          # fills a disk with a 40,000-deal run
def test_a_really_full_and_a_read_only_disk(finished_run, small_tmpfs):
    spec, _, _ = finished_run
    big = small_tmpfs / "big.toml"
    big.write_text(SPEC.format().replace("deals = 400", "deals = 40000"))
    r = subprocess.run(CLI + ["run", str(big), "-o", str(small_tmpfs / "run")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith(f"error: {small_tmpfs}") and "No space left on device" in line
    assert "finished chunk files are kept" in line or "no results were written" in line
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    r = subprocess.run(CLI + ["run", str(spec.path), "-o", str(small_tmpfs / "ro")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: {small_tmpfs / 'ro'}: Read-only file system")


def test_every_reader_gets_every_column(finished_run):
    import briscasim
    _, out, _ = finished_run
    records = report.load(out).records
    df = pd.read_parquet(out)
    columns = ["deal", "rotation", "entry_0", "entry_1", "winner", "black_hand",
               "last_winner", "trump", "turned", "swap7_seat", "swap7_trick", "swap7_card",
               "swap2_seat", "swap2_trick", "swap2_card", "swap7_declined", "swap2_declined",
               "out_points", "points_0", "points_1", "target_seat", "cell"]
    assert list(df.columns) == columns
    assert len(df) == 2 * 2 * 400
    df["cell"] = df["cell"].astype(int)
    mine = df.sort_values(["cell", "deal", "rotation"]).reset_index(drop=True)
    assert (mine["winner"].to_numpy() == records["winner"].to_numpy()).all()
    tidy = briscasim.load(out)
    assert len(tidy) == len(df)
    assert {"variant", "preset", "rules.swap_timing", "lineup", "strategy_0",
            "strategy_1"} <= set(tidy.columns)
    assert set(columns) <= set(tidy.columns)
    c1 = tidy[tidy["cell"] == 1]
    assert set(c1["variant"]) == {"after draw"} and set(c1["rules.swap_timing"]) == {
        "after_draw"}
    swapped = tidy[tidy["rotation"] == 1]
    assert set(swapped["strategy_0"]) == {"random:swap_prob=1"}


def test_duckdb_and_polars_read_every_column(finished_run):
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    _, out, _ = finished_run
    expected = pd.read_parquet(out)
    glob = str(out / "*" / "*.parquet")
    d = duckdb.sql(f"select * from read_parquet('{glob}', hive_partitioning = true)").df()
    p = pl.read_parquet(str(out / "**" / "*.parquet"), hive_partitioning=True)
    assert set(d.columns) == set(p.columns) == set(expected.columns)
    assert len(d) == len(p) == len(expected)
    key = ["cell", "deal", "rotation"]
    a = d.sort_values(key)["points_0"].to_numpy()
    b = p.sort(key)["points_0"].to_numpy()
    assert (a == b).all()


def _edited(value):
    """Another value of a manifest field, of the kind a hand edit makes."""
    if isinstance(value, dict):
        if value and all(isinstance(v, int) for v in value.values()):
            k = sorted(value)[0]
            return {**value, k: value[k] // 2}            # done['0'] = 2, deals ...
        return {**value, "edited": 1}
    if isinstance(value, list):
        return value[:-1]
    if isinstance(value, str):
        return value + "x"
    return value + 1


def test_a_hand_edit_of_any_manifest_field_is_refused_naming_it(finished_run, tmp_path,
                                                               capsys):
    """Not only the spec: what is done, the deals, the checksums, the versions... (a
    report of half the chunks, told by an edited ``done``, would otherwise pass)."""
    spec, base, files = fresh_copy(finished_run, tmp_path)
    original = json.loads((base / MANIFEST).read_text())
    fields = [k for k in original if k not in ("digest", "spec", "format", "format_version",
                                               runner.SEAL)]
    assert {"done", "deals", "checksums", "status", "versions", "last_run"} <= set(fields)
    for key in fields + ["spec.analysis", "added", "removed"]:
        out = tmp_path / key
        shutil.copytree(base, out)
        m = json.loads((out / MANIFEST).read_text())
        if key == "spec.analysis":           # outside the spec's digest
            m["spec"]["analysis"], key = "generic", "spec"
        elif key == "added":
            m["comment"], key = "mine", "comment"
        elif key == "removed":
            del m["versions"]
            key = "versions"
        else:
            m[key] = _edited(m[key])
        (out / MANIFEST).write_text(json.dumps(m, indent=1))
        for args in (("report", out, "-o", tmp_path / "r"),
                     ("run", spec.path, "-o", out, "--resume")):
            code, err = briscasim(capsys, *args)
            assert code == 2 and len(err.splitlines()) == 1, err
            assert err.startswith(f"error: {out / MANIFEST}: field {key!r}"), err
        with pytest.raises(UserError, match=f"field {key!r}"):
            runner.load(out)
    assert {f: f.read_bytes() for f in files} == files


def test_the_done_count_of_the_issue_is_refused(finished_run, tmp_path):
    """``m['done']['0'] = 2`` on a run of four chunks per cell."""
    spec, out, _ = fresh_copy(finished_run, tmp_path)
    m = json.loads((out / MANIFEST).read_text())
    assert m["done"]["0"] == 4
    m["done"]["0"] = 2
    (out / MANIFEST).write_text(json.dumps(m))
    for attempt in (lambda: report.load(out), lambda: run(spec, out, resume=True,
                                                          progress=False)):
        with pytest.raises(UserError, match="field 'done' was changed"):
            attempt()


def _unfinished(finished_run, tmp_path):
    """A copy of the run as a kill before its end leaves it: running, checksums in the
    journal."""
    spec, out, files = fresh_copy(finished_run, tmp_path)
    m = json.loads((out / MANIFEST).read_text())
    sums = m.pop("checksums")
    m.update(status="running")
    m[runner.SEAL] = runner.seal_of(m)
    (out / MANIFEST).write_text(json.dumps(m))
    (out / JOURNAL).write_text("".join(f"{c} {j} {s}\n" for c, values in sums.items()
                                       for j, s in enumerate(values)))
    return spec, out, files, sums


@pytest.mark.parametrize("damage", ["invalid bytes", "garbage", "truncated", "empty",
                                    "deleted", "edited", "a line edited", "a directory"])
def test_a_damaged_checksum_journal_is_rebuilt(finished_run, tmp_path, capsys, damage):
    spec, out, files, sums = _unfinished(finished_run, tmp_path)
    j = out / JOURNAL
    text = j.read_bytes()
    lines = text.splitlines(keepends=True)
    if damage == "invalid bytes":
        j.write_bytes(b"\xff\xfe garbage\n" + text[:40] + b"\xc3\x28" + text[40:])
    elif damage == "garbage":
        j.write_bytes(b"\xff\xfe garbage\n")
    elif damage == "truncated":
        j.write_bytes(text[:len(text) // 2])
    elif damage == "empty":
        j.write_bytes(b"")
    elif damage == "deleted":
        j.unlink()
    elif damage == "edited":
        j.write_bytes(text.replace(b"0 1 ", b"0 2 ", 1))
    elif damage == "a line edited":
        j.write_bytes(b"".join(lines[:2]) + lines[2].upper() + b"".join(lines[3:]))
    else:
        j.unlink()
        j.mkdir()
    code, err = briscasim(capsys, "run", spec.path, "-o", out, "--resume", "--quiet")
    if damage == "a directory":
        assert code == 2 and len(err.splitlines()) == 1 and err.startswith(f"error: {j}"), err
        return
    assert code == 0 and "Traceback" not in err, err
    if damage in ("invalid bytes", "a line edited"):
        assert f"{j}: " in err and "damaged lines, ignored" in err
    assert {f: f.read_bytes() for f in files} == files
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "complete" and m["checksums"] == sums and not j.exists()
    report.load(out)
