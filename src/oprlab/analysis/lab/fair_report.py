"""The report's fair-points sections: each cell's handicap (and each effect's price in points),
and unit values from the lists drawn from pools. Numbers from :mod:`.fairpoints`; the plots
(matplotlib, only for HTML) beside them. docs/experiments.md "Fair points".

No I/O.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from oprlab.analysis.lab.design import Cell
from oprlab.analysis.lab.fairpoints import FitError, batch_steps, fit_handicap, fit_unit_values
from oprlab.analysis.lab.model import Experiment
from oprlab.analysis.lab.stats import Z95
from oprlab.analysis.lab.summary import Contrast
from oprlab.analysis.lab.tally import SeedTable

__all__ = ["fair_plots", "handicaps", "unit_values"]


def handicaps(
    exp: Experiment,
    cells: Sequence[Cell],
    seeds_by_cell: Mapping[str, SeedTable],
    pairs: Sequence[Contrast],
) -> dict[str, Any]:
    """Each cell's handicap (points added to army A's list for a 50% score) with its
    interval and bisection steps; each effect's price: the variant's handicap minus the
    baseline's (independent searches: the standard errors add in quadrature)."""
    if exp.stop.rule != "handicap":
        return {}
    per_cell: dict[str, dict[str, Any]] = {}
    for c in cells:
        seeds = seeds_by_cell[c.key].pairs()
        row: dict[str, Any] = {
            "cell": c.key,
            "label": c.label(),
            "steps": [
                {"handicap": d, "score": round(s, 6)}
                for d, s in batch_steps(exp.stop.batch, seeds, 10**9)
            ],
        }
        try:
            h = fit_handicap([v[1] for v in seeds.values()], [v[0] for v in seeds.values()])
            row |= h.to_json()
        except FitError as exc:
            row["note"] = str(exc)
        per_cell[c.key] = row
    prices = []
    for p in pairs:
        v, b = per_cell[p.variant.key], per_cell[p.baseline.key]
        if v.get("points") is None or b.get("points") is None:
            continue
        price = b["points"] - v["points"]
        bounded = all(x.get("low") is not None for x in (v, b))
        half = (
            Z95 * math.hypot(*[(x["high"] - x["low"]) / (2 * Z95) for x in (v, b)])
            if bounded
            else None
        )
        prices.append(
            {
                "name": p.name,
                "matchup": p.variant.matchup,
                "price": round(price, 3),
                "low": None if half is None else round(price - half, 3),
                "high": None if half is None else round(price + half, 3),
            }
        )
    return {
        "range": [exp.stop.low, exp.stop.high],
        "seeds_per_step": exp.stop.batch,
        "cells": list(per_cell.values()),
        "prices": prices,
    }


def unit_values(
    cells: Sequence[Cell],
    seeds_by_cell: Mapping[str, SeedTable],
    counts: Sequence[tuple[str, int, int, int, str, int]],
) -> list[dict[str, Any]]:
    """Per cell with a side drawn from a pool: each unit's value in points from the fit of
    seed scores on the two lists' unit counts, with its interval and whether its cost is off."""
    lists: dict[tuple[str, int, int], dict[str, int]] = defaultdict(dict)
    for cell, seed, seat, army, name, k in counts:
        if seat == 0:  # both seats play the same two lists
            lists[(cell, seed, army)][name] = k
    out = []
    for c in cells:
        if all(p is None for p in c.pools):
            continue
        pool = sorted({u.name: u.cost for a in c.armies for u in a.units}.items())
        seeds = seeds_by_cell[c.key].pairs()
        rows = [i for i in seeds if (c.key, i, 0) in lists and (c.key, i, 1) in lists]
        entry: dict[str, Any] = {"cell": c.key, "label": c.label(), "seeds": len(rows)}
        # a unit no list took (e.g. too dear for GFF's 35% at these points) has no value to
        # fit: it would make the design singular, so it is named and left out
        fielded = {n for i in rows for army in (0, 1) for n in lists[(c.key, i, army)]}
        units = [(n, k) for n, k in pool if n in fielded]
        if len(units) < len(pool):
            entry["never_fielded"] = [n for n, _ in pool if n not in fielded]
        a = np.array([[lists[(c.key, i, 0)].get(n, 0) for n, _ in units] for i in rows])
        b = np.array([[lists[(c.key, i, 1)].get(n, 0) for n, _ in units] for i in rows])
        y = np.array([seeds[i][0] for i in rows])
        try:
            if len(rows) <= len(units) + 1:
                raise FitError(f"{len(rows)} seeds for {len(units)} units")
            values = fit_unit_values([n for n, _ in units], [k for _, k in units], a, b, y)
            entry["units"] = [v.to_json() for v in values]
        except FitError as exc:
            entry["note"] = f"no fit: {exc}"
        out.append(entry)
    return out


def fair_plots(report: Mapping[str, Any], png: Callable[[Any], str]) -> list[tuple[str, str]]:
    """The fair-points curves: score against handicap per cell, and value against cost."""
    import matplotlib.pyplot as plt

    out: list[tuple[str, str]] = []
    hc = report.get("handicaps") or {}
    if hc.get("cells"):
        fig, ax = plt.subplots(figsize=(8, 4), constrained_layout=True)
        for i, c in enumerate(hc["cells"]):
            xs = [s["handicap"] for s in c["steps"]]
            ys = [s["score"] for s in c["steps"]]
            line = ax.plot(xs, ys, "o", label=f"{i + 1}: {c['label']}")[0]
            if c.get("points") is not None and c.get("low") is not None:
                ax.axvspan(c["low"], c["high"], color=line.get_color(), alpha=0.15)
                ax.axvline(c["points"], color=line.get_color(), linestyle="--")
        ax.axhline(0.5, color="grey", linestyle=":")
        ax.set_xlabel("points added to army A's list")
        ax.set_ylabel("army A's score per step")
        ax.legend(fontsize="small")
        out.append(("Handicap search: score per step, the 50% point and its interval", png(fig)))
        plt.close(fig)
    for i, entry in enumerate(report.get("unit_values") or []):
        if "units" not in entry:
            continue
        fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
        us = entry["units"]
        for u in us:
            colour = "tab:red" if u["flagged"] else "tab:blue"
            ax.errorbar(u["cost"], u["value"], yerr=[[u["value"] - u["low"]],
                        [u["high"] - u["value"]]], fmt="o", color=colour, capsize=3)  # fmt: skip
            ax.annotate(u["unit"], (u["cost"], u["value"]), fontsize="x-small",
                        xytext=(4, 2), textcoords="offset points")  # fmt: skip
        top = max(max(u["high"], u["cost"]) for u in us)
        ax.plot([0, top], [0, top], color="grey", linestyle=":")
        ax.set_xlabel("cost (points)")
        ax.set_ylabel("fitted value (points), 95% interval")
        out.append((f"Unit values against cost, cell {i + 1} (red: cost off)", png(fig)))
        plt.close(fig)
    return out
