"""A PettingZoo AEC environment of any preset: :class:`BriscaEnv` (``pettingzoo_env``).

::

    from briscasim.envs import pettingzoo_env
    env = pettingzoo_env("brisca-4-pairs", seed=1)
    env.reset()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else policy(obs["observation"], obs["action_mask"])
        env.step(action)

- Agents are ``player_0`` .. ``player_{n-1}``, one per seat; the agent to act is the seat
  the engine says acts next (the trick's winner leads, a swap offer goes to the seat that
  may swap).
- ``observe(agent)`` is a dict: ``"observation"``, the seat's view as the ``int8`` array of
  :mod:`briscasim.observation` (only what that seat may know), and ``"action_mask"``,
  its legal actions from the engine (all 0 when it is not its turn). Actions are
  ``Discrete(N_ACTIONS)`` (168): card ids 0..47, 48 swap, 49 keep, and in Briscola Chiamata
  50 pass, 51..119 the bids, 120..167 the calls.
- Rewards come at the end of the deal, to every seat: ``reward="outcome"`` (default) +1 for
  the winning side, -1 for the others, 0 for all in a draw; ``reward="margin"``: the side's
  card points minus the best other side's (turned round under ``objective = fewest``). In
  Briscola Chiamata the outcome is the seat's game points and the margin is measured
  against what its side needed (:data:`briscasim.observation.REWARDS`).
- ``reset(seed=s)`` plays deal 0 under seed ``s``; each later ``reset()`` the next deal
  index, so deal ``k`` after a seeded reset is ``Deal.from_seed(rules, s, k)`` (a deal that a
  black hand ends as it is dealt is skipped; a Chiamata deal thrown in ends the episode with
  0 to all). Every other keyword argument of
  :func:`~briscasim.envs.pettingzoo_env` is a rule option overriding the preset's; a preset
  that plays a match is played deal by deal (:func:`~briscasim.envs.episode.deal_rules`).
- ``advice(strategy)`` is the action a built-in strategy (any jitted one: ``"learned"``,
  ``"greedy"``, ``"ismcts:iterations=200"``...) takes for the agent selected, from its seat's
  view alone, so that strategies play the seats a learner does not. Their random choices
  come from the seat's stream of the deal, as :func:`~briscasim.driver.play_deal` plays deal
  ``deal_index`` under the seed: the strategy advising every seat plays that very deal.
  A learner at ``player_0``, the shipped learned player at the other seats::

    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = (None if terminated else env.advice("learned") if agent != "player_0"
                  else policy(obs["observation"], obs["action_mask"]))
        env.step(action)

- ``state()`` is the global state for a centralised critic: every seat's observation, seat
  0 first, end to end (``players * OBSERVATION_LEN`` int8, ``state_space``). It holds every
  hand (never the face-down stock's order): give it to a critic in training, never to a
  seat's policy.
- As PettingZoo's AEC API has it: ``step``, ``observe``, ``last``, ``state`` and
  ``agent_iter`` need a ``reset()`` first; once the deal is over every agent is terminated,
  and ``step(None)`` removes the agent selected (any other action is refused) until none is
  left; a step after that is refused too, until the next ``reset()``. An action is a whole
  number (a Python or numpy integer; not a bool or a float) that the engine finds legal. Every
  refusal is an :class:`~briscasim.errors.IllegalAction` (a bad action) or a
  :class:`~briscasim.errors.UserError` (a call out of order, an unknown agent).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.layout import MAX_LEGAL_ANY, N_ACTIONS
from ..errors import IllegalAction, UserError
from ..game import Deal, check_count
from .adviser import Adviser
from .episode import deal_rules
from ..observation import (COUNT_FIELDS, OBSERVATION, OBSERVATION_LEN, REWARDS, _observe,
                           check_reward, write_rewards)


def _observation_high() -> np.ndarray:
    """The largest value of each observation entry: 1 for the card, one-hot and signal
    fields, 127 (int8) for the counts."""
    high = np.ones(OBSERVATION_LEN, np.int8)
    for f in OBSERVATION.fields:
        if f.name in COUNT_FIELDS:
            high[f.offset:f.offset + f.size] = 127
    return high


class BriscaEnv(AECEnv):
    """One deal of ``preset`` (with rule overrides in ``options``) at a time, seat by seat
    (the module's docstring says how)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "briscasim_v0",
                "is_parallelizable": False}

    def __init__(self, preset: str = "brisca-2", *, seed: int = 0, reward: str = "outcome",
                 render_mode: str | None = None, **options):
        super().__init__()
        self.rules = deal_rules(preset, options)
        check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UserError(f"render_mode = {render_mode!r}: choose one of "
                            f"{', '.join(self.metadata['render_modes'])}")
        self.render_mode = render_mode
        self.reward_kind = reward
        self._seed = check_count("seed", seed, 2 ** 64)
        self._next_index = 0
        self._r = self.rules.to_array()
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(0, _observation_high(), (OBSERVATION_LEN,), np.int8),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        act_space = spaces.Discrete(N_ACTIONS)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.state_space = spaces.Box(0, np.tile(_observation_high(), n),
                                      (n * OBSERVATION_LEN,), np.int8)
        self._legal_scratch = np.empty(MAX_LEGAL_ANY, np.int16)
        self.deal: Deal | None = None
        self.deal_index = -1
        self._advisers: dict[str, Adviser] = {}

    def observation_space(self, agent):
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent):
        return self.action_spaces[self._known(agent)]

    def _known(self, agent) -> str:
        if not isinstance(agent, str) or agent not in self.agent_name_mapping:
            raise UserError(f"agent {agent!r} is not one of this environment's agents "
                            f"({self.possible_agents[0]} .. {self.possible_agents[-1]})")
        return agent

    def _check_reset(self, what: str) -> None:
        if self.deal is None:
            raise UserError(f"{what} needs a deal: call env.reset() first (the environment "
                            f"has not been reset since it was made or closed)")

    # ---- the deal ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed = check_count("seed", seed, 2 ** 64)
            self._next_index = 0
        while True:
            self.deal_index = self._next_index
            self._next_index += 1
            self.deal = Deal.from_seed(self.rules, self._seed, self.deal_index)
            if not self.deal.over:          # a black hand dealt: nobody decides anything
                break
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.deal.turn]
        for adviser in self._advisers.values():
            adviser.start(self._seed, self.deal_index)

    def advice(self, strategy: str) -> int:
        """The action the built-in ``strategy`` (a spec: ``"learned"``, ``"greedy"``,
        ``"ismcts:iterations=200"``...) takes for ``agent_selection`` now, from that seat's
        view alone; its random choices come from the seat's stream of this deal, as
        :func:`~briscasim.driver.play_deal` plays deal ``deal_index`` under the seed."""
        self._check_reset("advice()")
        if not isinstance(strategy, str) or strategy not in self._advisers:
            adviser = Adviser(self.rules, strategy)
            adviser.start(self._seed, self.deal_index)
            self._advisers[strategy] = adviser
        return self._advisers[strategy].action(self.deal)

    def observe(self, agent):
        self._check_reset("observe()")
        seat = self.agent_name_mapping[self._known(agent)]
        obs = np.empty(OBSERVATION_LEN, np.int8)
        mask = np.empty(N_ACTIONS, np.int8)
        _observe(self._r, self.deal.state, seat, obs, mask, self._legal_scratch)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """Every seat's observation, seat 0 first, end to end (every hand: for a centralised
        critic, never for a seat's policy)."""
        self._check_reset("state()")
        out = np.empty((self.rules.players, OBSERVATION_LEN), np.int8)
        mask = np.empty(N_ACTIONS, np.int8)
        for seat in range(self.rules.players):
            _observe(self._r, self.deal.state, seat, out[seat], mask, self._legal_scratch)
        return out.reshape(-1)

    def last(self, observe: bool = True):
        self._check_reset("last()")
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2 ** 63):
        self._check_reset("agent_iter()")
        return super().agent_iter(max_iter)

    def step(self, action) -> None:
        self._check_reset("step()")
        if not self.agents:
            raise UserError("step() after the deal is over and every agent has been removed: "
                            "call env.reset() for the next deal")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalAction(f"the deal is over: {agent} is terminated, and the only "
                                    f"step for it is step(None), which removes it; got "
                                    f"{action!r}")
            self._was_dead_step(None)
            return
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalAction(f"action {action!r} ({type(action).__name__}) for {agent}: an "
                                f"action is a whole number, an int or a numpy integer, from "
                                f"0 below {N_ACTIONS}")
        self.deal.play(int(action))          # an illegal action raises IllegalAction
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.deal.over:
            rewards = np.zeros(self.rules.players, np.float32)
            write_rewards(self._r, self.deal.state, REWARDS[self.reward_kind], rewards)
            for a in self.agents:
                self.rewards[a] = float(rewards[self.agent_name_mapping[a]])
                self.terminations[a] = True
            outcome = self.deal.outcome.to_dict()
            for a in self.agents:
                self.infos[a] = {"outcome": outcome, "deal": self.deal_index}
            # dead steps follow in seat order from the seat that acted
        else:
            self.agent_selection = self.possible_agents[self.deal.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.deal.log() if self.deal is not None else ""
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self.deal = None
