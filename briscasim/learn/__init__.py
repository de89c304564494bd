"""Training the ``learned`` player (the ``learn`` extra: JAX and optax): :func:`train`.

Playing a trained model needs none of this: :mod:`briscasim.strategies.learned` runs the
network in numba.
"""
from .train import TrainConfig, train

__all__ = ["TrainConfig", "train"]
