"""The Riverside melee exchange (seed 002_fdb385c07cc953af "Charge Action", "Melee Attacks",
"Morale Tests", "Terms: Fatigued, Shaken", "Furious").

Clause tests script each die face through :func:`resolve_exchange` (the real pipeline); the exact
composition :func:`exchange_outcomes` is checked against a brute-force enumeration of every face
sequence :func:`resolve_exchange` itself asks for (:func:`~tests.rules.riverside.scripted.
every_roll`), which shares nothing with the composition but the rules code it enumerates.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TypedDict, Unpack

import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Mechanic, Outcome, State, Test
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.d6 import D6, outcome_table
from oprlab.prob import Dist
from oprlab.rules.gff.melee import (
    AfterCombat,
    ExactTooLarge,
    ExchangeResult,
    Side,
    UnitState,
    probability_of,
)
from oprlab.rules.gff.melee import resolve_exchange as gff_exchange
from oprlab.rules.gff.resolve import Roller
from oprlab.rules.riverside.attack import ATTACKER, DEFENDER, Readings
from oprlab.rules.riverside.melee import (
    OWNERS,
    MeleeStep,
    RiversideExchangeResult,
    RiversideSide,
    exchange_outcomes,
    loser_shaken,
    resolve_exchange,
    routed,
    side_result,
)
from oprlab.units.model import Rule, Unit, Weapon
from tests.rules.riverside.scripted import ScriptedDice, every_roll, scripted_roller

SEED = "seed 002_fdb385c07cc953af"
D6_MECHANIC = D6()


# --- helpers ----------------------------------------------------------------------------------


def unit(
    name: str,
    size: int = 1,
    q: int = 4,
    d: int = 4,
    weapons: Sequence[Weapon] = (),
    rules: Sequence[Rule] = (),
) -> Unit:
    return Unit(name, size, q, d, rules=tuple(rules), weapons=tuple(weapons))


def knife(count: int = 1, attacks: int = 1, *rules: Rule) -> Weapon:
    return Weapon("Knife", attacks, count=count, rules=tuple(rules))


def tough(x: int) -> Rule:
    return Rule("Tough", x)


class ExchangeOptions(TypedDict, total=False):
    """The exchange's options a test may set (those ``exchange_outcomes`` shares)."""

    strike_back: bool
    attacker_state: UnitState | None
    defender_state: UnitState | None
    impact: str
    tie: str
    readings: Readings


def play(
    attacker: Unit, defender: Unit, *faces: int, **options: Unpack[ExchangeOptions]
) -> tuple[RiversideExchangeResult, ScriptedDice]:
    """Roll the exchange with these faces; every face must be used."""
    roller, dice = scripted_roller(faces)
    r = resolve_exchange(attacker, defender, roller, **options)
    assert dice.used == len(faces), f"{len(faces) - dice.used} faces left"
    assert isinstance(r, RiversideExchangeResult)
    return r, dice


def steps(r: RiversideExchangeResult) -> list[tuple[MeleeStep, Side, int]]:
    return [(a.step, a.striker, a.dice) for a in r.attacks]


def side(r: ExchangeResult, s: Side) -> RiversideSide:
    return side_result(r, s)


# --- Determine Attacks, Resolve Attacks, Furious, Impact --------------------------------------


def test_all_charging_models_attack_with_melee_weapons() -> None:
    """seed 002 "Melee Attacks: Determine Attacks": all models in the Charging unit (the odds
    layer puts them all within 2") attack with their melee weapons; a rifle does not."""
    gang = unit("Gang", 3, weapons=[knife(3), Weapon("Rifle", 1, range=24, count=3)])
    post = unit("Post", 1, weapons=[knife()])
    r, dice = play(gang, post, 1, 1, 1, 1)  # three misses, then the return strike misses
    assert steps(r) == [
        (MeleeStep.CHARGE, Side.ATTACKER, 3),
        (MeleeStep.RETURN_STRIKES, Side.DEFENDER, 1),
    ]
    assert [c.test for c in dice.checks] == [Test.HIT] * 4
    assert {c.owner.army for c in dice.checks[:3]} == {ATTACKER.army}
    assert dice.checks[3].owner.army == DEFENDER.army
    assert r.system == "riverside" and r.after_combat is AfterCombat.NONE


def test_furious_bonus_hit_on_the_charge_only() -> None:
    """seed 002 "Furious": a Critical Hit during its Charge Action generates 1 Bonus Hit; the
    same rule on the defender does nothing in Return Strikes (not its Charge Action)."""
    wild = unit("Wild", 1, weapons=[knife()], rules=[Rule("Furious"), tough(3)])
    # charge: 6 (hit + Bonus Hit), both blocks fail; return: 6 (one hit), block fails;
    # the defender lost 2 wounds to 1 and tests: 4 passes.
    r, _ = play(wild, wild, 6, 1, 1, 6, 1, 4)
    charge, back = r.attacks
    assert charge.result.hits == 2 and charge.result.wounds == 2
    assert back.result.hits == 1 and back.result.wounds == 1
    assert r.attacker.wounds_dealt == 2 and r.defender.wounds_dealt == 1
    assert r.defender.markers == 2 and r.attacker.markers == 1  # wounds on the Tough models
    assert side(r, Side.DEFENDER).morale_test and r.tests[0].result == "passed"
    assert r.winner is Side.ATTACKER


def test_impact_rolls_inside_the_charge_and_counts_for_the_charger() -> None:
    """seed 002 "Morale Tests": abilities that trigger as part of an attack (Impact) apply their
    wounds during that attack's resolution and trigger no separate Morale Test. Reading
    (docs/rules/riverside.md): Impact(X) as in GFF, X dice per model, each 2+ a hit."""
    ram = unit("Ram", 1, weapons=[knife()], rules=[Rule("Impact", 2)])
    line = unit("Line", 4, q=5, weapons=[knife(4)])
    # Impact 2, 2 hit; knife 1 misses; two blocks fail: 2 wounds, 2 of 4 left (half), but no
    # Morale Test from wounds. Return strikes: 2 dice miss. The defender lost 2-0: Q5 test 5.
    r, dice = play(ram, line, 2, 2, 1, 1, 1, 1, 1, 5)
    charge = r.attacks[0]
    assert charge.dice == 3 and charge.result.hits == 2 and not charge.result.morale_test
    assert [c.target for c in dice.checks[:3]] == [2, 2, 4]  # Impact 2+, then the knife Q4
    assert r.attacker.wounds_dealt == 2 and r.defender.casualties == 2
    assert r.tests[0].side is Side.DEFENDER and r.tests[0].result == "passed"
    # The reading "none": Riverside gives Impact no text, so it does nothing.
    plain, _ = play(ram, line, 1, 1, 1, 1, 1, impact="none")
    assert plain.attacks[0].dice == 1


def test_impact_not_when_fatigued_or_shaken() -> None:
    """seed 002 "Terms: Shaken" (counts as Fatigued); Impact read as in GFF ("unless
    fatigued"): a Fatigued or Shaken charger rolls no Impact dice, and hits only on 6s."""
    ram = unit("Ram", 1, weapons=[knife()], rules=[Rule("Impact", 2)])
    post = unit("Post", 1)
    for state in (UnitState(1, fatigued=True), UnitState(1, shaken=True)):
        r, dice = play(ram, post, 5, attacker_state=state)  # a 5 misses: 6s only
        assert r.attacks[0].dice == 1 and dice.checks[0].unmodified_six_only
        assert r.attacker.wounds_dealt == 0


# --- Return Strikes ---------------------------------------------------------------------------


def test_return_strikes_are_optional() -> None:
    """seed 002 "Return Strikes": the defending unit may choose to strike back."""
    a = unit("A", 1, weapons=[knife()])
    r, _ = play(a, a, 1, strike_back=False)
    assert steps(r) == [(MeleeStep.CHARGE, Side.ATTACKER, 1)]
    assert not r.struck_back and not r.defender.fatigued and r.attacker.fatigued
    assert r.winner is None


def test_return_strikes_by_the_models_left() -> None:
    """seed 002 "Return Strikes": all defending models (left) attack; casualties of the charge
    do not strike back."""
    blades = unit("Blades", 1, q=3, weapons=[knife(1, 2)])
    trio = unit("Trio", 3, weapons=[knife(3)])
    # charge: 2 hits, 2 failed blocks: 2 of 3 removed; return: 1 die (miss). 2-0: test 6 passes
    r, _ = play(blades, trio, 3, 3, 1, 1, 1, 6)
    assert steps(r)[1] == (MeleeStep.RETURN_STRIKES, Side.DEFENDER, 1)
    assert r.defender.models == 1 and r.defender.casualties == 2


def test_a_destroyed_defender_does_not_strike_back_or_test() -> None:
    """seed 002 "Melee Attacks": a unit wiped out by the charge has no models to strike back
    (Return Strikes) or to take the Morale Test."""
    a = unit("A", 1, weapons=[knife()])
    r, dice = play(a, a, 4, 1)
    assert steps(r) == [(MeleeStep.CHARGE, Side.ATTACKER, 1)]
    assert side(r, Side.DEFENDER).wiped_out and not r.tests
    assert [c.test for c in dice.checks] == [Test.HIT, Test.DEFENSE]
    assert r.winner is Side.ATTACKER and not r.defender.fatigued


def test_wounds_carry_over_between_charge_and_return_strikes() -> None:
    """seed 002 "Remove Casualties": wounds go to the wounded Tough model first and stay on it;
    the charge's casualties and wounds carry into the Return Strikes and the Morale Test."""
    pack = unit("Pack", 1, q=2, weapons=[knife(1, 4)])
    brutes = unit("Brutes", 2, q=4, d=4, weapons=[knife(2, 2)], rules=[tough(3)])
    # charge: 4 hits, 4 failed blocks: one Brute removed, the other carries 1 wound.
    # return: the last Brute's 2 dice miss. Brutes lost 4-0, at half (1 of 2): 1 fails: Rout.
    r, _ = play(pack, brutes, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1)
    assert r.attacks[1].dice == 2 and r.attacks[1].result.wounds == 0
    d = side(r, Side.DEFENDER)
    assert d.routed and d.destroyed and not d.wiped_out and d.casualties == 1
    assert d.models == 0 and d.markers == 0
    assert r.tests[0].result == "rout"
    # Without the Rout the Brute keeps its wound: pass the test instead.
    kept, _ = play(pack, brutes, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 4)
    assert kept.defender.models == 1 and kept.defender.markers == 1


def test_a_wounded_charger_takes_return_wounds_on_its_wounded_model() -> None:
    """seed 002 "Remove Casualties": the charger's wounded Tough model (``markers``) takes the
    Return Strikes' wounds first: 1 + 1 wounds of Tough(2) removes it."""
    ogre = unit("Ogre", 2, weapons=[knife(2)], rules=[tough(2)])
    post = unit("Post", 3, weapons=[knife(3)])
    # charge: 2 dice miss; return: 3 dice, one hit; its block fails.
    r, _ = play(ogre, post, 1, 1, 4, 1, 1, 1, 6, attacker_state=UnitState(2, markers=1))
    assert r.attacker.casualties == 1 and r.attacker.models == 1 and r.attacker.markers == 0
    # The charger lost 0-1 and is at half (1 of 2): its Morale Test (6) passes.
    assert r.tests[0].side is Side.ATTACKER and r.tests[0].result == "passed"


# --- Fatigue and Shaken -----------------------------------------------------------------------


def test_fatigued_after_charging_and_striking_back() -> None:
    """seed 002 "Fatigue": after attacking with a melee weapon by Charging or striking back, a
    unit is Fatigued for the rest of the round."""
    a = unit("A", 1, weapons=[knife()])
    r, _ = play(a, a, 1, 1)
    assert r.attacker.fatigued and r.defender.fatigued and r.struck_back


def test_fatigued_defender_strikes_back_on_sixes_only() -> None:
    """seed 002 "Terms: Fatigued": when using melee weapons, fatigued units only hit on a roll
    of 6 (a defender that already fought this round)."""
    a = unit("A", 1, q=2, weapons=[knife()])
    r, dice = play(a, a, 1, 5, defender_state=UnitState(1, fatigued=True))
    assert dice.checks[1].unmodified_six_only and not dice.checks[0].unmodified_six_only
    assert r.defender.wounds_dealt == 0


def test_shaken_counts_as_fatigued() -> None:
    """seed 002 "Terms: Shaken": Shaken units count as being Fatigued (6s only) in Return
    Strikes and in their own charge (Riverside lets a Shaken unit charge)."""
    a = unit("A", 1, q=2, weapons=[knife()])
    r, dice = play(a, a, 1, 5, defender_state=UnitState(1, shaken=True))
    assert dice.checks[1].unmodified_six_only and r.defender.wounds_dealt == 0
    r2, dice2 = play(a, a, 5, 1, attacker_state=UnitState(1, shaken=True))
    assert dice2.checks[0].unmodified_six_only and r2.attacker.wounds_dealt == 0


# --- Morale Test ------------------------------------------------------------------------------


def test_no_morale_test_from_wounds_in_melee() -> None:
    """seed 002 "Melee Attacks: Morale Test": units in melee don't take morale tests from
    wounds. The defender at half strength but ahead on wounds does not test; the charger
    (fewer wounds) does."""
    a = unit("A", 1, q=4, weapons=[knife()], rules=[tough(3)])
    pair = unit("Pair", 2, q=2, weapons=[knife(2, 2)])
    # charge: hit, block fails: 1 of 2 removed (half). return: 1 model, 2 dice, 2 hits,
    # 2 failed blocks: 2 wounds. The charger lost 1-2 and tests (Q4): 3 fails; Tough 3 with
    # 2 wounds is at half for a single model unit: it Routs.
    r, dice = play(a, pair, 4, 1, 2, 2, 1, 1, 3)
    assert not r.attacks[0].result.morale_test
    assert [t.side for t in r.tests] == [Side.ATTACKER]
    assert dice.checks[-1].test is Test.MORALE and dice.checks[-1].target == 4
    assert dice.checks[-1].owner.army == ATTACKER.army
    assert routed(r, Side.ATTACKER) and r.winner is Side.DEFENDER
    assert not side(r, Side.DEFENDER).morale_test


def test_lowest_total_loses_unless_the_opposing_unit_was_destroyed() -> None:
    """seed 002 "Melee Attacks: Morale Test": "must take a Morale Test unless the opposing unit
    was destroyed": the charger caused more wounds but died to the Return Strikes, so the
    defender (the lower total) does not test, and wins the exchange (docs: a unit removed
    loses)."""
    hero = unit("Hero", 1, q=2, weapons=[knife(1, 2)])
    mob = unit("Mob", 5, weapons=[knife(5)])
    # charge: 2 hits, 2 failed blocks (2 wounds); return: 3 models, one hit, block fails.
    r, _ = play(hero, mob, 2, 2, 1, 1, 4, 1, 1, 1)
    assert r.attacker.wounds_dealt == 2 and r.defender.wounds_dealt == 1
    assert side(r, Side.ATTACKER).wiped_out and not r.tests
    assert r.winner is Side.DEFENDER


def test_results_success_nothing_failure_rout_or_shaken() -> None:
    """seed 002 "Results of the Morale Test": success, nothing happens; failure: Rout (removed)
    when half or less of the models remain from the start, otherwise Shaken."""
    blades = unit("Blades", 1, q=3, weapons=[knife()])
    four = unit("Four", 4, q=4, weapons=[knife(4)])
    # 1 wound: 3 of 4 left (not half). Return strikes: 3 misses. Test: 4 passes / 3 fails.
    passed, _ = play(blades, four, 3, 1, 1, 1, 1, 4)
    assert passed.tests[0].result == "passed" and not passed.defender.shaken
    failed, _ = play(blades, four, 3, 1, 1, 1, 1, 3)
    assert failed.tests[0].result == "shaken" and failed.defender.shaken
    assert failed.defender.models == 3 and not side(failed, Side.DEFENDER).routed
    assert loser_shaken(failed) and not loser_shaken(passed)
    assert failed.winner is Side.ATTACKER


def test_single_model_routs_at_half_its_tough() -> None:
    """seed 002 "Results of the Morale Test": a single model unit Routs on a failure once it
    has taken at least half of its Tough value in wounds (Tough(4): 2 wounds), else Shaken."""
    duo = unit("Duo", 1, q=2, weapons=[knife(1, 2)])
    giant = unit("Giant", 1, q=4, d=4, weapons=[knife()], rules=[tough(4)])
    one, _ = play(duo, giant, 2, 1, 1, 1, 1)  # 1 wound; return misses; test 1 fails
    assert one.tests[0].result == "shaken" and one.defender.shaken and one.defender.markers == 1
    two, _ = play(duo, giant, 2, 2, 1, 1, 1, 1)  # 2 wounds; return misses; test 1 fails
    assert two.tests[0].result == "rout" and routed(two, Side.DEFENDER)


def test_shaken_units_always_fail_morale_tests() -> None:
    """seed 002 "Morale Tests" and "Terms: Shaken": Shaken units always fail Morale Tests: no
    roll is made; not at half it stays Shaken, at half it Routs."""
    blades = unit("Blades", 1, q=3, weapons=[knife()])
    four = unit("Four", 4, weapons=[knife(4)])
    shaken = UnitState(4, shaken=True)
    r, dice = play(blades, four, 3, 1, 1, 1, 1, defender_state=shaken)  # no morale face
    assert r.tests[0].check is None and r.tests[0].result == "shaken"
    assert Test.MORALE not in [c.test for c in dice.checks]
    half = UnitState(3, shaken=True)  # 3 of 4; one more casualty leaves 2: half
    r2, _ = play(blades, four, 3, 1, 1, 1, defender_state=half)
    assert r2.tests[0].result == "rout" and routed(r2, Side.DEFENDER)


def test_equal_totals_readings() -> None:
    """seed 002 "Melee Attacks: Morale Test": "the unit with the lowest total loses". Reading
    "none" (default): with equal totals no unit has the lowest, nobody tests; reading "both":
    both share it and test, the charger first."""
    a = unit("A", 1, weapons=[knife()], rules=[tough(2)])
    r, _ = play(a, a, 4, 1, 4, 1)  # one wound each way
    assert not r.tests and r.winner is None
    both, dice = play(a, a, 4, 1, 4, 1, 1, 6, tie="both")  # charger fails (at half): Rout
    assert [t.side for t in both.tests] == [Side.ATTACKER, Side.DEFENDER]
    assert [c.owner.army for c in dice.checks[-2:]] == [ATTACKER.army, DEFENDER.army]
    assert routed(both, Side.ATTACKER) and both.tests[1].result == "passed"
    assert both.winner is Side.DEFENDER


def test_checks_come_in_rulebook_order() -> None:
    """seed 002 "Melee Attacks" steps 2-5: the charger's attack dice and Defense rolls, then the
    Return Strikes' dice and Defense rolls, then the Morale Test (the order the clock sees)."""
    a = unit("A", 1, weapons=[knife(1, 2)], rules=[tough(3)])
    # charge: 2 hits, 2 failed blocks; return: hit, miss, failed block; the defender lost 1-2
    _, dice = play(a, a, 4, 4, 1, 1, 4, 1, 1, 4)
    kinds = [(c.test, c.owner.army) for c in dice.checks]
    assert kinds == [
        (Test.HIT, "attacker"),
        (Test.HIT, "attacker"),
        (Test.DEFENSE, "defender"),
        (Test.DEFENSE, "defender"),
        (Test.HIT, "defender"),
        (Test.HIT, "defender"),
        (Test.DEFENSE, "attacker"),
        (Test.MORALE, "defender"),
    ]


# --- the clock and the exact composition ------------------------------------------------------


def test_the_clock_plays_the_exchange_out() -> None:
    """seed 000 clock with seed 002 "Melee Attacks": certain given the clocks; the exact
    composition refuses a deterministic mechanic."""
    a = unit("A", 2, q=3, weapons=[knife(2, 2)], rules=[Rule("Furious")])
    b = unit("B", 3, q=4, d=5, weapons=[knife(3)], rules=[tough(2)])
    clock = Clock()
    first = resolve_exchange(a, b, Roller(clock, clock.initial_state(OWNERS), None))
    again = resolve_exchange(a, b, Roller(clock, clock.initial_state(OWNERS), None))
    assert first == again and isinstance(first, RiversideExchangeResult)
    assert [x.step for x in first.attacks] == [MeleeStep.CHARGE, MeleeStep.RETURN_STRIKES]
    with pytest.raises(OptionError, match="random mechanic"):
        exchange_outcomes(a, b, clock)


class _Need(Exception):
    def __init__(self, check: Check) -> None:
        self.check = check


class Replay(Mechanic):
    """Replays chosen outcomes, and asks for a choice when it runs out (brute force)."""

    name = "replay"
    summary = "replays chosen outcomes (tests only)"

    def __init__(self, chosen: tuple[Outcome, ...]) -> None:
        self.chosen = chosen
        self.used = 0

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        raise NotImplementedError("replay only samples")

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        if self.used == len(self.chosen):
            raise _Need(check)
        self.used += 1
        return self.chosen[self.used - 1]


def face_classes(check: Check) -> list[tuple[Outcome, Fraction]]:
    """The d6 faces of ``check`` merged where Riverside cannot tell them apart: same success,
    Critical Hit and unmodified 1 or 6 (the only things its hooks read)."""
    groups: dict[tuple[bool, bool, bool, bool], tuple[Outcome, int]] = {}
    for o in outcome_table(check):
        key = (o.success, o.critical, o.fumble, o.natural == 6)
        first, n = groups.get(key, (o, 0))
        groups[key] = (first, n + 1)
    return [(o, Fraction(n, 6)) for o, n in groups.values()]


_UNUSED_RNG = np.random.default_rng(0)
#: Leaves the brute force may reach in a test.
LIMIT = 200_000


def brute(
    attacker: Unit, defender: Unit, **options: Unpack[ExchangeOptions]
) -> Dist[ExchangeResult]:
    """Every sequence of (merged) faces resolve_exchange asks for, each with its probability."""
    results: dict[ExchangeResult, Fraction] = {}
    stack: list[tuple[tuple[Outcome, ...], Fraction]] = [((), Fraction(1))]
    leaves = 0
    while stack:
        chosen, p = stack.pop()
        replay = Replay(chosen)
        try:
            out = resolve_exchange(
                attacker,
                defender,
                Roller(replay, None, _UNUSED_RNG),
                **options,
            )
        except _Need as need:
            stack.extend(((*chosen, o), p * q) for o, q in face_classes(need.check))
            continue
        assert replay.used == len(chosen)
        leaves += 1
        assert leaves <= LIMIT, "brute force too large for a test"
        results[out] = results.get(out, Fraction(0)) + p
    return Dist(results)


def test_worked_example_by_hand_and_by_brute_force() -> None:
    """seed 002 "Melee Attacks" worked small: a Q4 knife charges a Q4 D4 Tough(2) single model
    with one knife. A wound each way lands with 1/2 x 1/2 = 1/4.

    - charger wounds (1/4), no return wound (3/4): the defender lost 1-0 and tests at half
      (1 of Tough 2): fails 1/2 and Routs: P(Rout) = 1/4 x 3/4 x 1/2 = 3/32; the charger wins
      either way: 3/16;
    - a return wound kills the one-wound charger: the defender wins 1/4 (1/16 after a wound,
      a tie with the charger destroyed, and 3/16 after none);
    - no wounds at all: a draw, 9/16.
    """
    a = unit("A", 1, weapons=[knife()])
    giant = unit("Giant", 1, weapons=[knife()], rules=[tough(2)])
    exact = exchange_outcomes(a, giant, D6_MECHANIC)
    assert probability_of(exact, Side.ATTACKER) == Fraction(3, 16)
    assert probability_of(exact, None) == Fraction(9, 16)
    assert probability_of(exact, Side.DEFENDER) == Fraction(1, 4)
    assert exact.probability(lambda r: routed(r, Side.DEFENDER)) == Fraction(3, 32)
    assert exact.probability(lambda r: r.attacker.destroyed) == Fraction(1, 4)
    assert exact.probability(loser_shaken) == 0
    assert exact == every_roll(lambda roller: resolve_exchange(a, giant, roller))
    assert exact == brute(a, giant)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        (  # Furious on the charge; a Tough defender carries its wounds into Return Strikes
            unit("Wild", 1, weapons=[knife()], rules=[Rule("Furious")]),
            unit("Pair", 2, d=5, weapons=[knife(2)], rules=[tough(2)]),
            {},
        ),
        (  # Impact rolled inside the charge
            unit("Ram", 1, weapons=[knife()], rules=[Rule("Impact", 1)]),
            unit("Post", 1, weapons=[knife()], rules=[tough(2)]),
            {},
        ),
        (  # a Shaken, wounded defender; AP; equal totals test both
            unit("Duo", 2, q=4, weapons=[knife(2, 1, Rule("AP", 1))]),
            unit("Ogre", 1, q=5, d=3, weapons=[knife()], rules=[tough(3)]),
            {"defender_state": UnitState(1, markers=1, shaken=True), "tie": "both"},
        ),
        (  # Rending (AP(4) on a Critical Hit), Regeneration, no strike back
            unit("Cutter", 1, q=3, weapons=[knife(1, 2, Rule("Rending"))]),
            unit("Troll", 1, q=4, d=4, weapons=[knife()], rules=[tough(2), Rule("Regeneration")]),
            {"strike_back": False},
        ),
        (  # Deadly packets on Tough models; Readings pass through
            unit("Axe", 1, q=4, weapons=[knife(1, 1, Rule("Deadly", 2))]),
            unit("Pair", 2, q=4, d=4, weapons=[knife(2)], rules=[tough(2)]),
            {"readings": Readings(rending_ap="add")},
        ),
        (  # a Fatigued charger (6s only)
            unit("Axe", 1, q=4, weapons=[knife(1, 1, Rule("Deadly", 2))]),
            unit("Pair", 2, q=4, d=4, weapons=[knife(2)]),
            {"attacker_state": UnitState(1, fatigued=True)},
        ),
    ],
)
def test_exact_matches_brute_force(
    attacker: Unit, defender: Unit, options: ExchangeOptions
) -> None:
    """The exact composition (charge, Return Strikes conditioned on the charge's casualty
    state, Morale Test) equals every face sequence of resolve_exchange, Fraction for Fraction
    (seed 002 "Melee Attacks", "Resolving Attacks", "Morale Tests")."""
    exact = exchange_outcomes(attacker, defender, D6_MECHANIC, **options)
    assert exact == brute(attacker, defender, **options)
    assert sum(p for _, p in exact.items()) == 1


def test_exact_gives_up_when_too_large() -> None:
    """A joint state beyond ``max_states`` raises ExactTooLarge (the odds layer then samples)."""
    horde = unit("Horde", 10, q=4, weapons=[knife(10, 2)])
    with pytest.raises(ExactTooLarge):
        exchange_outcomes(horde, horde, D6_MECHANIC, max_states=20)


# --- bad inputs -------------------------------------------------------------------------------


def test_bad_inputs() -> None:
    """Errors say what was wrong and what would be right."""
    a = unit("A", 2, weapons=[knife(2)], rules=[tough(3)])
    roller, _ = scripted_roller(())
    with pytest.raises(OptionError, match="unknown Impact reading") as e:
        resolve_exchange(a, a, roller, impact="sometimes")
    assert e.value.expected == "with_attack or none"
    with pytest.raises(OptionError, match="unknown melee tie reading") as e:
        exchange_outcomes(a, a, D6_MECHANIC, tie="coin")
    assert e.value.where == "tie"
    with pytest.raises(OptionError, match="models out of range"):
        resolve_exchange(a, a, roller, attacker_state=UnitState(0))
    with pytest.raises(OptionError, match="models out of range"):
        resolve_exchange(a, a, roller, defender_state=UnitState(3))
    with pytest.raises(OptionError, match="wounded Tough model") as e:
        resolve_exchange(a, a, roller, defender_state=UnitState(2, markers=3))
    assert e.value.expected == "0 to 2 for Tough(3)"


def test_side_result_refuses_other_systems() -> None:
    """Riverside figures need Riverside results: a GFF result is refused by name."""
    a = unit("A", 1, weapons=[knife()])
    roller, _ = scripted_roller((1, 1))
    gff = gff_exchange(a, a, roller)
    with pytest.raises(OptionError, match="not a Riverside") as e:
        loser_shaken(gff)
    assert e.value.value == "gff"


def test_results_are_hashable_and_compare_without_records() -> None:
    """Sampled results equal exact ones: the attack and test records are not compared."""
    a = unit("A", 1, weapons=[knife()])
    r, _ = play(a, a, 1, 1)
    exact = exchange_outcomes(a, a, D6_MECHANIC)
    assert r in exact.support and r.attacks
    assert all(isinstance(x, RiversideExchangeResult) and not x.attacks for x in exact.support)
    assert exact[r] == Fraction(9, 16)  # both miss: hash and equality ignore the records
