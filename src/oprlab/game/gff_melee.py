"""GFF melee on the table (seed 003 "Melee"): who strikes, the strike back, casualties.

- "Models must strike enemies within 2" horizontally and 4" vertically": before each attack of
  the exchange the game counts each unit's models within that reach of the other
  (:func:`reach`), and only they strike (``rules.gff.melee``: their share of the weapons and of
  Impact). Casualties are removed from the table after each attack, so the next attack counts
  the models left where they stand.
- Casualties in melee (the defender's choice, seed 003 leaves it open): models within 3" of a
  marker last, then the models farthest from the enemy first, so the fighters stay (as
  Riverside's habit); never breaking cohesion while another choice keeps it.
- "Defenders may choose to strike back, but don't have to": a decision of the charged unit's
  side (``STRIKE_BACK``, phase ``strike_back``, value 1: strike back, 0: do not), asked once,
  before its first attack (its Counter strike when it has Counter models within 2", else the
  strike back). Striking back fatigues it for the rest of the round, so it is a real choice.
  ``GffOptions.strike_back``: ``"choose"`` (default), ``"always"`` (the old reading).

May import ``oprlab.game`` state, actions, casualties and below, ``oprlab.rules``, ``oprlab.table``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oprlab.game import casualties as losses
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.rules.gff import melee
from oprlab.table import charge as table_charge

#: Striking: "within 2" horizontally and 4" vertically".
STRIKE_RANGE = 2.0
STRIKE_HEIGHT = 4.0


def strikers(state: GameState, us: UnitState, enemy: UnitState) -> int:
    """Models of ``us`` within 2" horizontally and 4" vertically of a model of ``enemy``."""
    if us.placement is None or enemy.placement is None:
        return 0
    near = table_charge.strikers(
        us.placement, enemy.placement, STRIKE_RANGE, table=state.table, vertical=STRIKE_HEIGHT
    )
    return int(near.sum())


def reach(state: GameState, x: melee.Exchange, charger: str, charged: str) -> melee.Exchange:
    """The exchange with the models each unit has within strike reach now."""
    a, d = state.units[charger], state.units[charged]
    return melee.with_reach(x, strikers(state, a, d), strikers(state, d, a))


def casualty_order(state: GameState, target: UnitState, enemy: UnitState, n: int) -> list[int]:
    """Which models of ``target`` a melee attack removes: farthest from ``enemy`` first."""
    assert target.placement is not None and enemy.placement is not None
    p, e = target.placement, enemy.placement
    ec = e.centres[e.alive] if e.alive.any() else e.centres
    near = np.linalg.norm(p.centres[:, None, :] - ec[None, :, :], axis=2).min(axis=1)
    return losses.casualty_order(state, p, n, -near)


@dataclass(frozen=True)
class StrikeBackDeciding:
    """A charge waiting for the charged side's ``STRIKE_BACK`` decision.

    Attributes:
        charger, charged: the two units' uids; ``side``: the charger's side.
        exchange: the exchange before the defender's first attack.
        blow: that attack (Counter or the strike back), as it would be made.
        defended: hits defended with bennies earlier in this exchange (for the log).
    """

    charger: str
    charged: str
    side: int
    exchange: melee.Exchange
    blow: melee.Blow
    defended: int = 0


def strike_back_actions(state: GameState) -> list[Action]:
    """Do not strike back (0) or strike back (1)."""
    w = state.strike_back
    if state.phase != Phase.STRIKE_BACK or not isinstance(w, StrikeBackDeciding):
        return []
    return [Action(Kind.STRIKE_BACK, w.charged, value=v) for v in (0, 1)]


def strike_back_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    """Why ``a`` (a ``STRIKE_BACK`` by ``us``) may not be taken now, or ``None``."""
    w = state.strike_back
    if state.phase != Phase.STRIKE_BACK or not isinstance(w, StrikeBackDeciding):
        return "no charge waits for a strike back decision"
    if us.uid != w.charged:
        return "only the charged unit decides whether to strike back"
    if a.value not in (0, 1) or a.to is not None or a.target:
        return "strike back takes only value 1 (strike back) or 0 (do not)"
    return None
