"""The numba cache folder is keyed by the source digest, whatever was imported first."""
import os
import subprocess
import sys

PROBE = ("import os{first}; import briscasim; from briscasim.engine import rng; "
         "print(briscasim.SOURCE_DIGEST); print(rng.mix64._cache._cache_path)")


def _probe(first: str, tmp_path) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["BRISCASIM_CACHE_DIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", PROBE.format(first=first)], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return out[0], out[1]


def test_cache_folder_is_keyed_by_the_source_digest(tmp_path):
    digest, path = _probe("", tmp_path)
    assert path.startswith(str(tmp_path / f"numba-{digest}"))


def test_numba_imported_first_still_uses_the_keyed_folder(tmp_path):
    # numba reads NUMBA_CACHE_DIR when imported; caching next to the sources instead would
    # keep kernels that inlined an edited module
    digest, path = _probe("; import numba", tmp_path)
    assert path.startswith(str(tmp_path / f"numba-{digest}"))


def test_the_cache_follows_xdg_cache_home_unless_briscasim_cache_dir_is_set(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "BRISCASIM_CACHE_DIR")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    probe = "import os, briscasim; print(os.environ['NUMBA_CACHE_DIR'])"
    path = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()
    assert path.startswith(str(tmp_path / "xdg" / "briscasim" / "numba-"))
    env["BRISCASIM_CACHE_DIR"] = str(tmp_path / "mine")
    path = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()
    assert path.startswith(str(tmp_path / "mine" / "numba-"))
