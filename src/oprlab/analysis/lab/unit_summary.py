"""Per unit, per cell: points lost and destroyed per game in real games, beside the unit's
exact-odds efficiency (expected wounds per 100 points against the standard targets).

The sums come from the store (:meth:`LabStore.unit_totals`), so the table costs the same for a
hundred games or a million. A game's two seats are counted as two games here (the interval is
a t interval over games: a little narrow when seats are correlated).

No I/O; the exact odds through :mod:`oprlab.analysis.efficiency`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from oprlab.analysis.lab.stats import t_quantile
from oprlab.units.model import Unit

__all__ = ["exact_efficiency", "unit_rows"]


def _mean_iv(total: float, squares: float, n: int) -> dict[str, float | int | None]:
    if n < 1:
        return {"estimate": None, "low": None, "high": None, "n": n}
    mean = total / n
    if n < 2:
        return {"estimate": round(mean, 4), "low": None, "high": None, "n": n}
    var = max(0.0, (squares - total * total / n) / (n - 1))
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return {
        "estimate": round(mean, 4),
        "low": round(mean - half, 4),
        "high": round(mean + half, 4),
        "n": n,
    }


def exact_efficiency(unit: Unit, system: str) -> dict[str, float | None]:
    """Mean expected wounds per 100 points over the standard targets, shooting and in melee
    (``None`` where the unit cannot attack that way, or the odds cannot be had)."""
    from oprlab.analysis.efficiency import efficiency_report
    from oprlab.errors import UserError

    out: dict[str, float | None] = {"shooting": None, "melee": None}
    if unit.cost <= 0:
        return out
    try:
        rep = efficiency_report([unit], system=system)
    except UserError:
        return out
    for mode, rows in rep.rankings.items():
        if rows and rows[0].can_attack:
            out[str(mode)] = round(rows[0].mean_wounds_per_100, 4)
    return out


def unit_rows(
    totals: Sequence[Mapping[str, Any]],
    units_by_name: Mapping[str, Unit],
    systems: Mapping[str, str],
) -> list[dict[str, Any]]:
    """One row per cell, army and unit: games fielded, copies per game, points lost and
    destroyed per game (with intervals), destroyed per 100 points fielded, and the exact-odds
    efficiency. ``systems``: each cell's rule system."""
    cache: dict[tuple[str, str, int], dict[str, float | None]] = {}
    rows = []
    for t in totals:
        n = int(t["games"])
        key = (str(t["name"]), systems.get(str(t["cell"]), "gff"), int(t["cost"]))
        if key not in cache:
            unit = units_by_name.get(key[0])
            cache[key] = (
                exact_efficiency(unit, key[1])
                if unit is not None and unit.cost == key[2]
                else {"shooting": None, "melee": None}
            )
        fielded = float(t["cost"]) * float(t["copies"])
        rows.append(
            {
                "cell": t["cell"],
                "army": int(t["army"]),
                "unit": t["name"],
                "cost": int(t["cost"]),
                "games": n,
                "copies_per_game": round(float(t["copies"]) / n, 4) if n else None,
                "points_lost": _mean_iv(float(t["lost"]), float(t["lost2"]), n),
                "points_destroyed": _mean_iv(float(t["destroyed"]), float(t["destroyed2"]), n),
                "destroyed_per_100": (
                    round(100 * float(t["destroyed"]) / fielded, 4) if fielded else None
                ),
                "exact_wounds_per_100": cache[key],
            }
        )
    return rows
