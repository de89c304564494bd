"""Environments for learning agents: many deals at once (:class:`VectorEnv`), a PettingZoo
AEC environment (:func:`pettingzoo_env`) and an OpenSpiel game (:func:`register_openspiel`),
the last two with the ``rl`` extra installed.

Every environment gives a seat what it may know as the ``int8`` arrays of
:mod:`briscasim.observation` and its legal actions as an action mask from the engine.

Built-in strategies (``"learned"``, ``"greedy"``, ``"ismcts:iterations=200"``...) play the
seats a learner does not: ``VectorEnv(..., opponent=spec, agent_seats=[0])`` and
``VectorEnv.advice(spec)``, the PettingZoo environment's ``env.advice(spec)`` and OpenSpiel's
bot :class:`briscasim.envs.openspiel.StrategyBot` (the last two decide through
:class:`briscasim.envs.adviser.Adviser`).
"""
from ..observation import OBSERVATION, OBSERVATION_LEN, fields, observe
from .vector import VectorEnv

__all__ = ["OBSERVATION", "OBSERVATION_LEN", "VectorEnv", "fields", "observe",
           "pettingzoo_env", "register_openspiel"]


def pettingzoo_env(preset: str = "brisca-2", **options):
    """A PettingZoo AEC environment of ``preset`` (options: rule overrides, and the
    environment's own, :class:`briscasim.envs.pettingzoo.BriscaEnv`); needs the ``rl``
    extra (``pip install 'briscasim[rl]'``)."""
    from .pettingzoo import BriscaEnv
    return BriscaEnv(preset, **options)


def register_openspiel() -> None:
    """Register ``"briscasim"`` with OpenSpiel as a Python game (parameter ``preset``):
    ``pyspiel.load_game("briscasim", {"preset": "brisca-4-pairs"})``; needs the ``rl``
    extra. See :mod:`briscasim.envs.openspiel`."""
    from .openspiel import register
    register()
