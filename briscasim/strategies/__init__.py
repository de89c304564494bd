"""Strategies: every built-in player, the registry that names them, and the dispatcher that
calls them from the kernels.

A strategy is a jitted function of :data:`~briscasim.strategies.api.STRATEGY_SIGNATURE` in
a module of its own with its :class:`~briscasim.strategies.params.StrategyDef`;
:mod:`.registry` lists the built-ins and parses strategy specs, and :mod:`.dispatch` builds
the kernels' dispatcher from the registry. This package imports nothing on import.
"""
