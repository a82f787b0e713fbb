"""The experiment's report: its numbers as JSON data, and one self-contained HTML page.

The JSON holds the experiment file, the seeds, the versions (each procedure's, oprlab's), the
readings of every cell, each cell's numbers, each effect (paired and unpaired intervals), and
the stopping rule's decisions; the HTML shows the same numbers with plots embedded as base64
PNG (matplotlib, imported only here and only when HTML is asked for). Both are functions of
the stored games, so a rerun gives identical files.

No file I/O: the command line writes the text (:func:`oprlab.files.write_atomic`).
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from oprlab.analysis.lab.design import Cell, GameRecord, experiment_hash
from oprlab.analysis.lab.model import Experiment
from oprlab.analysis.lab.run import first_levels, schedule
from oprlab.analysis.lab.summary import (
    across_every_commander,
    cell_numbers,
    contrasts,
    effect_summary,
    score_a,
    seed_scores,
    stopped_cells,
)
from oprlab.analysis.lab.tally import SeedTable, Tally, tally_games
from oprlab.game.systems import VERSIONS
from oprlab.version import __version__

__all__ = [
    "DESIGN_NOTE",
    "KEYED_NOTE",
    "STATISTICS_NOTE",
    "build_report",
    "needs_seeds",
    "report_html",
]

DESIGN_NOTE = (
    "Every cell plays the same seeds; each seed is played twice, army A on the first side and "
    "then the armies swapped, with the same dice, table and commander streams, so the seats "
    "share their roll-offs and first-mover advantage cancels in the seed's mean (unless the "
    "first factor fixes who wins the roll-off: then it is that level's), and cells "
    "differ only by their factor (common random numbers). A score is army A's: a win 1, a draw "
    "1/2; a seed's score is the mean of its two seats."
)
KEYED_NOTE = (
    " Dice are keyed: each activation rolls its own dice, keyed on the game seed, the round and "
    "the unit, so two cells whose games part (a unit acts otherwise, a rule rolls more dice) "
    "still roll the same dice for the same unit's activation after they part."
)
STATISTICS_NOTE = (
    "Intervals are 95%. A cell's score: a t interval over its seeds' scores. An effect: the mean "
    "of the per-seed differences (variant minus baseline, same seeds) with a paired t interval; "
    "beside it Welch's unpaired interval on the same seeds, and how much narrower pairing made "
    "the interval. Rates of games (wins, draws, upsets, decided in the last round): Wilson "
    "intervals. Spreads (standard deviations of margins) and their changes: percentile "
    "bootstrap over seeds (1,000 resamples, seeded from the experiment seed)."
)


def build_report(
    exp: Experiment,
    cells: Sequence[Cell],
    data: Sequence[GameRecord] | Tally,
    *,
    text: str = "",
    unit_totals: Sequence[Mapping[str, Any]] = (),
    unit_counts: Sequence[tuple[str, int, int, int, str, int]] = (),
) -> dict[str, Any]:
    """Every number of the report, as JSON data.

    Args:
        data: the experiment's counts (:meth:`LabStore.tally`: summed by DuckDB, however many
            games are stored), or its games (counted here in Python: the same numbers).
        text: the experiment file as written.
        unit_totals, unit_counts: the store's per-unit sums and each game's lists
            (:meth:`LabStore.unit_totals`, :meth:`LabStore.unit_counts`).
    """
    from oprlab.analysis.lab.fair_report import handicaps, unit_values

    rng = np.random.default_rng(exp.seed)
    pairs = contrasts(cells, first_levels(exp))
    tally = (
        data
        if isinstance(data, Tally)
        else tally_games(
            data, [c.key for c in cells], [(p.variant.key, p.baseline.key) for p in pairs]
        )
    )
    weaker: dict[int, int] = {}
    for c in cells:  # the weaker army of a matchup: lower score in its first (baseline) cell
        t = tally.cells[c.key]
        if c.matchup not in weaker and t.games:
            weaker[c.matchup] = 0 if score_a(t) / t.games < 0.5 else 1
    seeds = tally.played
    return {
        "experiment": {
            "name": exp.name,
            "question": exp.question,
            "hash": experiment_hash(exp, cells),
            "seed": exp.seed,
            "file": exp.model_dump(),
            "text": text,
            "versions": dict(VERSIONS),
            "oprlab": __version__,
        },
        "seeds": {
            "derivation": "game seed i = oprlab.rng.child_seed(experiment seed, i)",
            "played": seeds,
            **tally.seed_summary(exp.seed),
        },
        "design": DESIGN_NOTE + (KEYED_NOTE if exp.dice == "keyed" else ""),
        "statistics": STATISTICS_NOTE,
        "stopping": {
            **exp.stop.model_dump(),
            "cells": replay_stops(
                exp,
                cells,
                tally.seeds,
                {k: t.seed_scores.n for k, t in tally.cells.items()},
            ),
        },
        "cells": [
            cell_numbers(c, tally.cells[c.key], weaker.get(c.matchup), rng)
            | {"readings": _readings(c)}
            for c in cells
        ],
        "effects": [effect_summary(p, tally, exp.stop, rng) for p in pairs],
        "verdict_across_commanders": across_every_commander(cells, tally),
        "units": _units(cells, unit_totals),
        "handicaps": handicaps(exp, cells, tally.seeds, pairs),
        "unit_values": unit_values(cells, tally.seeds, unit_counts),
    }


def needs_seeds(exp: Experiment, cells: Sequence[Cell]) -> bool:
    """Whether the report needs each seed's score, not only counts: a stopping rule that
    looks between batches, the handicap search, or a unit-value fit."""
    return exp.stop.rule in ("width", "sprt", "handicap") or any(
        p is not None for c in cells for p in c.pools
    )


def _units(cells: Sequence[Cell], totals: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per unit: points lost and destroyed per game beside its exact-odds efficiency."""
    from oprlab.analysis.lab.unit_summary import unit_rows

    by_name = {u.name: u for c in cells for a in c.armies for u in a.units}
    return unit_rows(totals, by_name, {c.key: c.system for c in cells})


def _readings(cell: Cell) -> dict[str, Any]:
    """The cell's readings of the text in full (its system's defaults filled in)."""
    from oprlab.game.system import flat_readings
    from oprlab.game.systems import find_system

    options = cell.options if cell.options is not None else find_system(cell.system).readings()
    return dict(flat_readings(options))


def replay_stops(
    exp: Experiment,
    cells: Sequence[Cell],
    by_cell: Mapping[str, Sequence[GameRecord] | SeedTable],
    seeds: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """Why each cell stopped, found again from the stored games (or seeds) the way the run
    found it. ``seeds``: each cell's seeds with both seats, if ``by_cell`` is not given (a
    fixed rule, or the handicap search, looks at nothing between batches)."""
    pairs = contrasts(cells, first_levels(exp))
    count = dict(seeds) if seeds is not None else {}
    for key, v in by_cell.items():
        count.setdefault(key, len(v.index) if isinstance(v, SeedTable) else len(seed_scores(v)))
    active = list(cells)
    out: dict[str, str] = {}
    played = max(count.values(), default=0)
    for upto in schedule(exp):
        if upto > played or upto == exp.stop.seeds:
            break
        stopped = stopped_cells(exp.stop, active, pairs, by_cell, upto)
        out |= stopped
        active = [c for c in active if c.key not in stopped]
    for c in active:
        n = count.get(c.key, 0)
        out[c.key] = (
            f"played every seed ({n})" if n >= exp.stop.seeds else f"unfinished: {n} seeds so far"
        )
    return out


# -- HTML ----------------------------------------------------------------------------------


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _plots(report: dict[str, Any]) -> list[tuple[str, str]]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cells = [c for c in report["cells"] if c["games"]]
    out: list[tuple[str, str]] = []
    if not cells:
        return out
    labels = [f"{i + 1}" for i, _ in enumerate(cells)]
    figs = []
    fig, ax = plt.subplots(figsize=(8, 0.5 + 0.45 * len(cells)), constrained_layout=True)
    figs.append(fig)
    ys = np.arange(len(cells))[::-1]
    for y, c in zip(ys, cells, strict=True):
        s = c["score_a"]
        ax.errorbar(
            s["estimate"],
            y,
            xerr=[[s["estimate"] - s["low"]], [s["high"] - s["estimate"]]],
            fmt="o",
            color="tab:blue",
            capsize=3,
        )
    ax.axvline(0.5, color="grey", linestyle=":")
    ax.set_yticks(ys, [f"cell {lab}" for lab in labels])
    ax.set_xlabel("army A's score (win 1, draw 1/2), 95% interval")
    out.append(("Army A's score per cell", _png(fig)))

    effects = report["effects"]
    if effects:
        fig, ax = plt.subplots(figsize=(8, 1.2 + 0.6 * len(effects)), constrained_layout=True)
        figs.append(fig)
        ys = np.arange(len(effects))[::-1]
        for y, e in zip(ys, effects, strict=True):
            for dy, kind, colour in (
                (0.12, "paired", "tab:green"),
                (-0.12, "unpaired", "tab:grey"),
            ):
                iv = e["score_a"][kind]
                if iv["estimate"] is None or math.isnan(iv["estimate"]):
                    continue
                ax.errorbar(
                    iv["estimate"],
                    y + dy,
                    xerr=[[iv["estimate"] - iv["low"]], [iv["high"] - iv["estimate"]]],
                    fmt="o",
                    color=colour,
                    capsize=3,
                    label=kind if y == ys[0] else None,
                )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(ys, [e["name"] + f" (matchup {e['matchup'] + 1})" for e in effects])
        ax.set_xlabel("effect on army A's score, 95% interval")
        ax.legend(loc="best", fontsize="small")
        out.append(
            ("Paired effects (green) and unpaired intervals on the same games (grey)", _png(fig))
        )

    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), constrained_layout=True)
    figs.append(fig)
    for ax, key, what in (
        (axes[0], "objective_margins", "objective margin (A - B)"),
        (axes[1], "points_margins", "points destroyed margin (A - B)"),
    ):
        counts = [np.asarray(c[key], dtype=float).reshape(-1, 2) for c in cells]
        low = min(float(v[:, 0].min()) for v in counts)
        high = max(float(v[:, 0].max()) for v in counts)
        bins = np.linspace(low - 0.5, high + 0.5, min(40, int(high - low) + 2))
        for lab, v in zip(labels, counts, strict=True):
            ax.hist(
                v[:, 0],
                bins=bins,
                weights=v[:, 1],
                histtype="step",
                linewidth=1.5,
                label=f"cell {lab}",
            )
        ax.set_xlabel(what)
        ax.set_ylabel("games")
        ax.legend(fontsize="small")
    out.append(("Margin distributions", _png(fig)))

    fig, axes = plt.subplots(1, 3, figsize=(11, 0.8 + 0.4 * len(cells)), constrained_layout=True)
    figs.append(fig)
    ys = np.arange(len(cells))[::-1]
    for ax, key, what in (
        (axes[0], "objective_margin_sd", "spread of objective margin (sd)"),
        (axes[1], "decided_last_round", "share decided in the last round"),
        (axes[2], "lead_changes", "lead changes per game"),
    ):
        for y, c in zip(ys, cells, strict=True):
            iv = c[key]
            ax.errorbar(
                iv["estimate"],
                y,
                xerr=[[iv["estimate"] - iv["low"]], [iv["high"] - iv["estimate"]]],
                fmt="o",
                color="tab:purple",
                capsize=3,
            )
        ax.set_yticks(ys, [f"cell {lab}" for lab in labels])
        ax.set_xlabel(what)
    out.append(("Swing: spread of the margin, late decisions, lead changes", _png(fig)))
    for f in figs:
        plt.close(f)
    from oprlab.analysis.lab.fair_report import fair_plots

    return out + fair_plots(report, _png)


def _fair_html(report: dict[str, Any], cells: Sequence[dict[str, Any]]) -> list[str]:
    """The fair-points tables: handicaps and prices, unit values against cost."""
    parts: list[str] = []
    hc = report.get("handicaps") or {}
    if hc:
        parts += [
            "<h2>Handicap search</h2><p>Points added to army A's list (drawn from its pool) "
            f"for a 50% score: bisection over {hc['range']}, {hc['seeds_per_step']} seeds a "
            "step, then one logistic fit over every seed (95% delta-method interval). A "
            "price is the baseline's handicap minus the variant's: what the variant is worth "
            "to army A in points.</p>",
            _table(
                ["cell", "levels", "handicap", "interval", "steps (points: score)"],
                [[str(i + 1), c["label"], c.get("points") or c.get("note", "-"),
                  f"[{c['low']}, {c['high']}]" if c.get("low") is not None else "unbounded",
                  ", ".join(f"{s['handicap']:+.0f}: {s['score']:.2f}" for s in c["steps"])]
                 for i, c in enumerate(hc["cells"])],
            ),
            _table(
                ["effect", "matchup", "price (points)", "interval"],
                [[p["name"], p["matchup"] + 1, p["price"],
                  f"[{p['low']}, {p['high']}]" if p["low"] is not None else "unbounded"]
                 for p in hc["prices"]],
            ),
        ]  # fmt: skip
    index = {c["cell"]: i + 1 for i, c in enumerate(cells)}
    for entry in report.get("unit_values") or []:
        parts.append(
            f"<h2>Unit values, cell {index.get(entry['cell'], '?')}</h2><p>Fitted from "
            f"{entry['seeds']} seeds of lists drawn from the pool: each unit's value in points "
            "(the pool priced right on average) with its 95% interval; flagged when the "
            "interval excludes the cost.</p>"
        )
        if entry.get("never_fielded"):
            parts.append(
                "<p>Never in a list (no value to fit): "
                f"{html.escape(', '.join(entry['never_fielded']))}</p>"
            )
        if "units" not in entry:
            parts.append(f"<p>{html.escape(entry.get('note', ''))}</p>")
            continue
        parts.append(
            _table(
                ["unit", "cost", "value", "interval", "copies per list", "cost off?"],
                [
                    [
                        u["unit"],
                        u["cost"],
                        u["value"],
                        f"[{u['low']}, {u['high']}]",
                        u["usage"],
                        "yes" if u["flagged"] else "-",
                    ]
                    for u in entry["units"]
                ],
            )
        )
    return parts


def _every_commander(groups: Sequence[dict[str, Any]]) -> list[str]:
    """The verdict under every commanders level at once, per matchup (none: no such factor)."""
    if not groups:
        return []
    word = {"flips": "FLIPS", "depends": "depends on the commander"}
    return [
        "<h2>Does the verdict depend on the commander? (every level at once)</h2>",
        _table(
            ["matchup", "other factors", "army A's verdict under each commander", "across them"],
            [
                [
                    g["matchup"] + 1,
                    ", ".join(f"{k} {v}" for k, v in g["levels"].items()) or "-",
                    "; ".join(f"{v['commanders']}: {v['verdict']}" for v in g["verdicts"]),
                    word.get(g["verdict"], "holds"),
                ]
                for g in groups
            ],
        ),
    ]


def _across(v: dict[str, str] | None) -> str:
    """A commanders contrast's verdicts and whether they hold (a flip in capitals)."""
    if v is None:
        return "-"
    word = {"flips": "FLIPS", "depends": "depends on the commander"}.get(v["verdict"], "holds")
    return f"{v['variant']} / {v['baseline']}: {word}"


def _fmt(iv: dict[str, Any] | None, digits: int = 3) -> str:
    if not iv or iv.get("estimate") is None or math.isnan(iv["estimate"]):
        return "-"
    if iv.get("low") is None:
        return f"{iv['estimate']:.{digits}f}"
    return f"{iv['estimate']:.{digits}f} [{iv['low']:.{digits}f}, {iv['high']:.{digits}f}]"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    h = "".join(f"<th>{html.escape(x)}</th>" for x in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in r) + "</tr>" for r in rows
    )
    return f"<table><tr>{h}</tr>{body}</table>"


_STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:90%}"
    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}"
    "pre{background:#f5f5f5;padding:1em;overflow:auto}img{max-width:100%}"
)


def report_html(report: dict[str, Any]) -> str:
    """The report as one HTML page: no external file, plots embedded."""
    e = report["experiment"]
    cells = report["cells"]
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(e['name'])}"
        f"</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(e['name'])}</h1>",
        f"<p>{html.escape(e['question'])}</p>" if e["question"] else "",
        f"<p>experiment {e['hash']}, seed {e['seed']}, oprlab {html.escape(e['oprlab'])}; "
        f"procedures: {html.escape(', '.join(f'{k} {v}' for k, v in e['versions'].items()))}"
        "</p>",
        f"<h2>Design</h2><p>{html.escape(report['design'])}</p>",
        f"<p>{html.escape(report['statistics'])}</p>",
        "<h2>Cells</h2>",
        _table(
            [
                "cell",
                "levels",
                "armies (A, B)",
                "commanders (revisions)",
                "seeds",
                "games",
                "A's score",
                "A wins",
                "draws",
                "first player's score",
                "upset rate",
                "stopped",
            ],
            [
                [
                    str(i + 1),
                    c["label"],
                    " vs ".join(c["armies"]),
                    ", ".join(
                        f"{n} {r}"
                        for n, r in zip(
                            c.get("commanders", []), c.get("commander_revisions", []), strict=True
                        )
                    ),
                    c["seeds"],
                    c["games"],
                    _fmt(c.get("score_a")),
                    _fmt(c.get("win_a")),
                    _fmt(c.get("draw")),
                    _fmt(c.get("first_player_score")),
                    _fmt(c.get("upset_rate")),
                    report["stopping"]["cells"].get(c["cell"], ""),
                ]
                for i, c in enumerate(cells)
            ],
        ),
        "<h2>Effects</h2>",
        _table(
            [
                "effect",
                "matchup",
                "seeds",
                "paired effect",
                "unpaired",
                "narrower by",
                "change of margin spread",
                "SPRT",
                "verdicts (variant / baseline)",
            ],
            [
                [
                    x["name"],
                    x["matchup"] + 1,
                    x["seeds"],
                    _fmt(x["score_a"]["paired"]),
                    _fmt(x["score_a"]["unpaired"]),
                    "-"
                    if x["score_a"]["narrowing"] is None
                    else f"{100 * x['score_a']['narrowing']:.0f}%",
                    _fmt(x["objective_margin_sd_change"]),
                    x["sprt"]["verdict"] if "sprt" in x else "-",
                    _across(x.get("across_commanders")),
                ]
                for x in report["effects"]
            ],
        ),
        *_every_commander(report.get("verdict_across_commanders") or []),
        "<h2>Margins and swing</h2>",
        _table(
            [
                "cell",
                "objective margin",
                "its spread (sd)",
                "points margin",
                "its spread (sd)",
                "rounds",
                "lead changes",
                "decided in the last round",
            ],
            [
                [
                    str(i + 1),
                    _fmt(c.get("objective_margin")),
                    _fmt(c.get("objective_margin_sd")),
                    _fmt(c.get("points_margin"), 1),
                    _fmt(c.get("points_margin_sd"), 1),
                    _fmt(c.get("rounds"), 2),
                    _fmt(c.get("lead_changes")),
                    _fmt(c.get("decided_last_round")),
                ]
                for i, c in enumerate(cells)
            ],
        ),
    ]
    if report.get("units"):
        index = {c["cell"]: i + 1 for i, c in enumerate(cells)}
        parts += [
            "<h2>Per unit</h2><p>Points lost and destroyed per game the unit was fielded (all "
            "its copies; 95% t interval over games), destroyed per 100 points fielded, and its "
            "exact-odds efficiency: mean expected wounds per 100 points against the standard "
            "targets, shooting and charging.</p>",
            _table(
                ["cell", "army", "unit", "cost", "games", "copies", "points lost",
                 "points destroyed", "destroyed per 100pts", "exact: shooting", "exact: melee"],
                [
                    [
                        str(index.get(u["cell"], "?")), "AB"[u["army"]], u["unit"], u["cost"],
                        u["games"], u["copies_per_game"], _fmt(u["points_lost"], 1),
                        _fmt(u["points_destroyed"], 1), u["destroyed_per_100"],
                        u["exact_wounds_per_100"]["shooting"] or "-",
                        u["exact_wounds_per_100"]["melee"] or "-",
                    ]
                    for u in report["units"]
                ],
            ),
        ]  # fmt: skip
    parts += _fair_html(report, cells)
    for title, src in _plots(report):
        parts.append(f"<h3>{html.escape(title)}</h3><img alt='{html.escape(title)}' src='{src}'>")
    stop = report["stopping"]
    parts += [
        "<h2>Stopping rule</h2>",
        f"<p>{html.escape(json.dumps({k: v for k, v in stop.items() if k != 'cells'}))}</p>",
        "<h2>Readings per cell</h2>",
        _table(
            ["cell", "readings"],
            [[str(i + 1), json.dumps(c["readings"])] for i, c in enumerate(cells)],
        ),
        "<h2>Experiment file</h2>",
        f"<pre>{html.escape(e['text'] or json.dumps(e['file'], indent=2))}</pre>",
        f"<p>seeds: {html.escape(report['seeds']['derivation'])}; {report['seeds']['played']} "
        "seeds played (listed in the JSON report)</p>",
        "</body></html>",
    ]
    return "\n".join(parts)
