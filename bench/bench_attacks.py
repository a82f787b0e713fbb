"""GFF attacks: exact odds (float fast path, Fractions, icepool) and Monte Carlo sampling."""

from __future__ import annotations

from collections.abc import Callable

import icepool
import numpy as np
import numpy.typing as npt

from bench.harness import Result, measure, prose
from oprlab.analysis.montecarlo import simulate_attacks
from oprlab.mechanics.d6 import D6
from oprlab.rules.gff import exact, fast
from oprlab.rules.gff.attack import Situation
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.resolve import Roller, resolve_attack

TITLE = "GFF attacks: exact odds and Monte Carlo"
NOTES = prose("attacks")

QUALITY = 4
DEFENSE = 4
TOUGH = 3
DEADLY = 3
RENDING_AP = 4
TOLERANCE = 1e-9


def _weapon(dice: int) -> AttackProfile:
    return AttackProfile(
        "Rending gun", dice=dice, quality=QUALITY, melee=False, rending=True, deadly=DEADLY
    )


DEFENDER = DefenderProfile(defense=DEFENSE, models=1, tough=TOUGH, regeneration=True)
SQUAD = DefenderProfile(defense=DEFENSE, models=5, tough=TOUGH, regeneration=True)
RIFLES = AttackProfile("Rifles", dice=10, quality=QUALITY, melee=False, ap=1)
SITUATION = Situation()


def icepool_query(dice: int) -> tuple[icepool.Die, icepool.Die, float, float]:
    """The query as icepool dice, written from the rules text rather than from our hooks.

    Returns the hits and wounds dice and P(Destroyed), P(Shaken) as floats.
    """
    d6 = icepool.d6

    def blocked(face: int, ap: int) -> bool:
        return face == 6 or (face != 1 and face - ap >= DEFENSE)

    def wounds_of_die(hit: int) -> icepool.Die | int:
        if hit < QUALITY:
            return 0
        ap = RENDING_AP if hit == 6 else 0
        return d6.map(lambda f: 0 if blocked(f, ap) else DEADLY)

    hits = dice @ d6.map(lambda h: int(h >= QUALITY))
    wounds = dice @ d6.map(wounds_of_die)

    def effect(w: int) -> icepool.Die | str:
        if w < TOUGH:  # Tough(3): no roll before 3 wounds (and none at all without wounds)
            return "none"
        return d6.map(lambda f: "out" if f + w >= 5 + TOUGH else "shaken")

    effects = wounds.map(effect)
    return hits, wounds, float(effects.probability("out")), float(effects.probability("shaken"))


def _pmf(die: icepool.Die, size: int) -> npt.NDArray[np.float64]:
    return np.array([float(die.probability(k)) for k in range(size)])


def _compare(dice: int) -> float:
    """Largest difference between the fast path and icepool; raises beyond the tolerance."""
    ours = fast.attack_odds_fast([_weapon(dice)], DEFENDER, SITUATION, D6())
    hits, wounds, p_out, p_shaken = icepool_query(dice)
    gaps = [
        float(np.abs(_pmf(hits, len(ours.hits)) - ours.hits).max()),
        float(np.abs(_pmf(wounds, len(ours.wounds)) - ours.wounds).max()),
        abs(p_out - ours.p_destroyed),
        abs(p_shaken - ours.p_shaken),
    ]
    if abs(sum(ours.wounds) - 1.0) > TOLERANCE or max(gaps) > TOLERANCE:
        raise RuntimeError(f"fast path and icepool disagree by {max(gaps):.3g}")
    return max(gaps)


def run(budget: float) -> list[Result]:
    out: list[Result] = []
    d6 = D6()
    weapons = [_weapon(20)]

    def cold() -> object:
        fast.clear_caches()
        return fast.attack_odds_fast(weapons, DEFENDER, SITUATION, d6)

    def warm() -> object:
        return fast.attack_odds_fast(weapons, DEFENDER, SITUATION, d6)

    gap = _compare(20)
    cold_r = measure("exact odds, fast path, cold", cold, unit="queries", budget=budget)
    warm_r = measure("exact odds, fast path, warm", warm, unit="queries", budget=budget)
    ice_r = measure("exact odds, icepool", lambda: icepool_query(20), unit="queries", budget=budget)
    ratio_warm = ice_r.per_call_us / warm_r.per_call_us
    ratio_cold = ice_r.per_call_us / cold_r.per_call_us
    out += [
        cold_r,
        warm_r,
        Result(
            f"exact odds, icepool (equal within {gap:.1g}; fast path {ratio_warm:.1f}x warm, "
            f"{ratio_cold:.1f}x cold)",
            ice_r.work,
            ice_r.unit,
            ice_r.seconds,
        ),
    ]
    mixed = [_weapon(20), RIFLES]

    def squad_cold() -> object:
        fast.clear_caches()
        return fast.attack_odds_fast(mixed, SQUAD, SITUATION, d6)

    def squad_warm() -> object:
        return fast.attack_odds_fast(mixed, SQUAD, SITUATION, d6)

    out += [
        measure("exact odds, fast path, cold, 5 models", squad_cold, unit="queries", budget=budget),
        measure("exact odds, fast path, warm, 5 models", squad_warm, unit="queries", budget=budget),
    ]
    out.append(
        measure(
            "exact odds, Fractions",
            lambda: exact.attack_odds(weapons, DEFENDER, SITUATION, d6),
            unit="queries",
            budget=budget,
        )
    )
    rng = np.random.default_rng(2026)
    n = 100_000
    for dice in (5, 10, 20, 40):
        out.append(
            measure(
                f"Monte Carlo, vectorised, {dice} dice",
                _vectorised([_weapon(dice)], n, rng),
                unit="attacks",
                work_per_call=n,
                budget=budget,
            )
        )
    roller = Roller(d6, None, rng)
    for dice in (5, 20):
        out.append(
            measure(
                f"Monte Carlo, sequential resolve_attack, {dice} dice",
                _sequential([_weapon(dice)], roller),
                unit="attacks",
                budget=budget,
            )
        )
    return out


def _vectorised(
    weapons: list[AttackProfile], n: int, rng: np.random.Generator
) -> Callable[[], object]:
    return lambda: simulate_attacks(weapons, DEFENDER, SITUATION, n, rng)


def _sequential(weapons: list[AttackProfile], roller: Roller) -> Callable[[], object]:
    return lambda: resolve_attack(weapons, DEFENDER, SITUATION, roller)
