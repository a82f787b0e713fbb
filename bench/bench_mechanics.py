"""Checks: exact listing and sampling under each mechanic, and importing army lists."""

from __future__ import annotations

import numpy as np

from bench.harness import Result, measure, prose
from oprlab.mechanics import Check, Owner, Test, get_mechanic
from oprlab.mechanics.d6 import face_table
from oprlab.mechanics.dq import opposed_result_dist, quality_dist
from oprlab.samples import sample_path, sample_text
from oprlab.units.forge_json import format_army_json, parse_army_json
from oprlab.units.model import Army, Unit
from oprlab.units.text import format_army_text, parse_army_text

TITLE = "Checks and army import"
NOTES = prose("mechanics")


def _big_army() -> Army:
    units: list[Unit] = []
    for name in ("gff/shooty-300", "gff/melee-300", "gff/elite-300", "gff/horde-300"):
        units.extend(parse_army_text(sample_text(name + ".txt"), name).units)
    army = parse_army_text(sample_text("gff/shooty-300.txt"), "big")
    many = tuple(units) * 2
    # Fresh uids so the list stays valid; about 2,400 points.
    renamed = tuple(
        type(u)(
            **{
                **{f: getattr(u, f) for f in u.__dataclass_fields__},
                "uid": f"u{i}",
                "joined_to": None,
            }
        )
        for i, u in enumerate(many)
    )
    return Army("Big list", army.system, 2400, renamed, army.books)


def run(budget: float) -> list[Result]:
    out: list[Result] = []
    d6 = get_mechanic("d6")
    check = Check(Test.HIT, 4, modifier=-1, owner=Owner("A", "U"))
    out.append(
        measure(
            "d6 exact outcomes (cached)", lambda: d6.outcomes(check), unit="checks", budget=budget
        )
    )
    rng = np.random.default_rng(1)
    out.append(
        measure(
            "d6 sample, one check",
            lambda: d6.sample(check, None, rng),
            unit="checks",
            budget=budget,
        )
    )
    success, _ = face_table(check)
    n = 1_000_000
    out.append(
        measure(
            "d6 sample, vectorised (numpy)",
            lambda: success[rng.integers(0, 6, size=n)].sum(),
            unit="checks",
            work_per_call=n,
            budget=budget,
        )
    )
    clock = get_mechanic("clock")
    state = clock.initial_state([check.owner])
    out.append(
        measure(
            "clock resolve, one check",
            lambda: clock.outcomes(check, state),
            unit="checks",
            budget=budget,
        )
    )
    wwpd = get_mechanic("wwpd")
    wcheck = Check(Test.HIT, 1)
    out.append(
        measure("wwpd exact outcomes", lambda: wwpd.outcomes(wcheck), unit="checks", budget=budget)
    )
    out.append(
        measure(
            "dq quality distribution (100 rolls)",
            lambda: quality_dist(45),
            unit="checks",
            budget=budget,
        )
    )
    out.append(
        measure(
            "dq opposed result (100x100 rolls)",
            lambda: opposed_result_dist(45, 30),
            unit="checks",
            budget=budget,
        )
    )
    big = _big_army()
    text = format_army_text(big)
    blob = format_army_json(big)
    out.append(
        measure(
            f"import {big.cost}-pt list, text ({len(big.units)} units)",
            lambda: parse_army_text(text, "big.txt"),
            unit="lists",
            budget=budget,
        )
    )
    out.append(
        measure(
            f"import {big.cost}-pt list, JSON ({len(big.units)} units)",
            lambda: parse_army_json(blob, "big.json"),
            unit="lists",
            budget=budget,
        )
    )
    assert sample_path("gff/shooty-300.txt").exists()
    return out
