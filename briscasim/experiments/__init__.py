"""Experiments: TOML specs (:mod:`.spec`), the resumable runner (:mod:`.runner`) on threads or
Dask (:mod:`.executors`), reports (:mod:`.report`) and charts (:mod:`.plots`)."""
