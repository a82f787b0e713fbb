"""Bennies' defence in the GFF and Riverside games: which hits, the decision, spending them.

Seed 000 variation 5 ("Bennies"): "Defend against any single attack (even if it would have
bypassed Defense)". Both procedures read a single attack as one hit: once an attack's hits on
a unit are known and before its Defense rolls, the side hit may spend one benny per hit
(``Kind.DEFEND``), and the hits defended are the ones that hurt most. How an attack is split
at its Defense rolls is each system's (:mod:`oprlab.game.gff_defend`,
:mod:`oprlab.game.riverside_defend`); this module is what they share. The one difference in
which hits go first is explicit: under Riverside a hit without Cover goes before one with it
(its Defense roll is the harder one); GFF decides Cover for the whole attack.

May import ``oprlab.game.state``, ``oprlab.game.actions``, ``oprlab.mechanics`` and below.
"""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, UnitState
from oprlab.mechanics.clock_state import BennyUse, ClockState, spend_benny

#: One weapon line of an attack for choosing the hits to defend: its Deadly(X) multiplier, the
#: AP of each of its hits, and whether it rolls Defense in Cover.
Line = tuple[int, Sequence[int], bool]


def defended_hits(lines: Sequence[Line], n: int) -> set[tuple[int, int]]:
    """The ``n`` hits a benny defends (line index, hit index): the ones that hurt most.

    Deadly hits first (the most wounds), then the highest AP, then hits without Cover, then the
    rolling order.
    """
    order = sorted(
        ((i, j) for i, (_, aps, _) in enumerate(lines) for j in range(len(aps))),
        key=lambda ij: (-lines[ij[0]][0], -lines[ij[0]][1][ij[1]], lines[ij[0]][2], ij),
    )
    return set(order[: max(0, n)])


def defend_actions(target: str, attacker: str, hits: int, bennies: int) -> list[Action]:
    """0 up to one benny per hit, no more than the side's ``bennies`` (named by the unit hit)."""
    most = min(hits, bennies)
    return [Action(Kind.DEFEND, target, target=attacker, value=n) for n in range(most + 1)]


def defend_problem(
    target: str, attacker: str, hits: int, unit: str, a: Action, bennies: int, *, who: str
) -> str | None:
    """Why ``a`` (a ``DEFEND`` by ``unit``) may not be taken against ``hits`` hits of
    ``attacker`` on ``target``, or ``None``; ``who`` names the attacker in the message."""
    if unit != target or a.target != attacker:
        return f"defend names the unit hit and {who}"
    if a.to is not None or a.benny or a.spell or a.boost or a.second or a.split or a.choice:
        return "defend takes only the number of bennies to spend"
    most = min(hits, bennies)
    if not 0 <= a.value <= most:
        return f"spend 0 to {most} bennies: one per hit, no more than the side has"
    return None


def spend_defence(state: GameState, us: UnitState, n: int) -> None:
    """Spend ``n`` of ``us``'s side's bennies defending hits (logged once, when any)."""
    assert isinstance(state.mech_state, ClockState)
    for _ in range(n):
        state.mech_state = spend_benny(state.mech_state, f"side{us.side}", BennyUse.DEFEND)
    if n:
        state.log.add("benny", side=us.side, unit=us.uid, use=BennyUse.DEFEND.value, hits=n)


__all__: Sequence[str] = [
    "Line",
    "defend_actions",
    "defend_problem",
    "defended_hits",
    "spend_defence",
]
