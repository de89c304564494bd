"""Files written whole: a process killed at any moment leaves the old file or the new one,
never a part of either."""
import os
from pathlib import Path


def write_atomic(path, write) -> None:
    """Write ``path`` with ``write(f)`` on a binary temporary file beside it, flushed to the
    disk, renamed into place, and the folder's entry flushed too."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
