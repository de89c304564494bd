"""Training the learned player (the learn extra) on a tiny budget."""
import csv

import numpy as np

from briscasim.observation import OBSERVATION_LEN
from briscasim.learn import train
from briscasim.learn.train import apply, export, init_params, input_scale
from briscasim.strategies.learned import load_model
from briscasim.strategies.network import forward_batch

TINY = dict(envs=16, eval_every=2, eval_deals=50, progress=False)


def test_numba_inference_equals_the_training_forward_pass():
    params = init_params(4)
    obs = np.random.default_rng(0).integers(0, 4, (32, OBSERVATION_LEN)).astype(np.int8)
    q, v = apply(params, obs.astype(np.float32) * input_scale())
    nq = np.zeros(q.shape, np.float32)
    nv = np.zeros(v.shape, np.float32)
    forward_batch(export(params), obs, nq, nv)
    np.testing.assert_allclose(nq, np.asarray(q), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(nv, np.asarray(v), rtol=1e-4, atol=1e-4)


def test_training_learns_resumes_and_repeats(tmp_path):
    straight = train("brisca-2", tmp_path / "a", iterations=4, seed=3, **TINY)
    w = load_model(straight.model).weights
    with open(tmp_path / "a" / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["iteration"]) for r in rows] == [2, 2, 4, 4]
    assert {r["opponent"] for r in rows} == {"greedy", "expert"}
    assert (tmp_path / "a" / "curve.png").stat().st_size > 0
    # the same seed: the same model; stopped at 2 and resumed: the same model
    again = train("brisca-2", tmp_path / "b", iterations=4, seed=3, **TINY)
    np.testing.assert_array_equal(load_model(again.model).weights, w)
    train("brisca-2", tmp_path / "c", iterations=2, seed=3, **TINY)
    resumed = train("brisca-2", tmp_path / "c", iterations=4, seed=3, resume=True, **TINY)
    np.testing.assert_array_equal(load_model(resumed.model).weights, w)
    other = train("brisca-2", tmp_path / "d", iterations=2, seed=4, **TINY)
    assert not np.array_equal(load_model(other.model).weights,
                              load_model(tmp_path / "c" / "pool" / "iteration-000002.npz"
                                         ).weights)


def test_the_loss_falls(tmp_path):
    r = train("brisca-2", tmp_path / "m", iterations=6, seed=1, **TINY)
    assert np.mean(r.losses[-5:]) < np.mean(r.losses[:5])


def test_imitation_of_a_teacher_learns_resumes_and_repeats(tmp_path):
    """With a teacher the targets are its moves: the loss (cross entropy) falls, and the
    weights repeat from the seed and across a resume."""
    kw = dict(TINY, teacher="expert", passes=2)
    r = train("brisca-2", tmp_path / "a", iterations=6, seed=2, **kw)
    assert np.mean(r.losses[-5:]) < np.mean(r.losses[:5])
    assert load_model(r.model).meta["method"] == "imitation of expert"
    train("brisca-2", tmp_path / "b", iterations=4, seed=2, **kw)
    resumed = train("brisca-2", tmp_path / "b", iterations=6, seed=2, resume=True, **kw)
    np.testing.assert_array_equal(load_model(resumed.model).weights,
                                  load_model(r.model).weights)
