"""The Dask executor gives exactly the records of a local run (two worker processes)."""
import pandas as pd
import pytest

from briscasim.errors import UserError
from briscasim.experiments.runner import run
from briscasim.experiments.spec import load_spec
from test_runner import read_chunks

pytestmark = pytest.mark.slow     # starts a Dask cluster

SPEC = """
name = "dk"
seed = 21
deals = 300
chunk = 70
lineup = ["random"]
[[variants]]
preset = "brisca-2"
[[variants]]
preset = "brisca-3-hidden"
"""


def test_dask_cluster_matches_local_run(tmp_path):
    from distributed import LocalCluster
    p = tmp_path / "s.toml"
    p.write_text(SPEC)
    spec = load_spec(p)
    local = run(spec, tmp_path / "local", progress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        remote = run(spec, tmp_path / "dask", executor="dask", scheduler=cluster.scheduler_address,
                     progress=False)
    a = read_chunks(local).sort_values(["cell", "deal", "rotation"])
    b = read_chunks(remote).sort_values(["cell", "deal", "rotation"])
    assert len(a) == 600
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def test_dask_needs_a_scheduler_address(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text(SPEC)
    with pytest.raises(UserError, match="--executor dask needs --scheduler"):
        run(load_spec(p), tmp_path / "x", executor="dask", progress=False)
