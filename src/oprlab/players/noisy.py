"""Noise as a knob (issue 14, item 3): ``rules:0.2`` plays a uniformly random legal action
with probability 0.2, else the base commander's choice, so a ladder has rungs between random
and rules.

The coin and the random action come from the noise's own stream, a child of the commander's
seed that no other stream of the game uses, so the base commander's own choices (a search's
samples) and the game's dice are the same as without noise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from oprlab.errors import OptionError
from oprlab.game.play import Commander
from oprlab.rng import SeedLike

__all__ = ["NOISE_KEY", "NoisyCommander", "noise_stream", "parse_noise"]

#: The spawn key that marks a commander seed's noise stream ("nois" in ASCII).
NOISE_KEY = 0x6E6F6973


def noise_stream(seed: SeedLike) -> np.random.SeedSequence:
    """The noise's own stream of a commander seed (an int or a spawned stream)."""
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, NOISE_KEY))


def parse_noise(text: str, spec: str) -> float:
    """The probability after the colon of ``spec``; an :class:`OptionError` names it if it is
    not a number from 0 to 1."""
    try:
        p = float(text)
    except ValueError:
        p = math.nan
    if not 0.0 <= p <= 1.0:  # also NaN
        raise OptionError(
            "commander noise is not a probability",
            value=spec,
            expected="a number from 0 to 1 after the colon, as in rules:0.2",
        )
    return p


class NoisyCommander:
    """The base commander's choice, or with probability ``p`` a uniformly random legal one."""

    def __init__(self, base: Commander, p: float, seed: SeedLike = 0) -> None:
        self.base = base
        self.p = p
        self.name = f"{base.name}:{p:g}"
        self.rng = np.random.default_rng(noise_stream(seed))

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        if self.rng.random() < self.p:  # one coin per decision, then the pick if it lands
            return actions[int(self.rng.integers(len(actions)))]
        return self.base.choose(state, actions)
