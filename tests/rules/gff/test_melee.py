"""The GFF melee exchange (seed 003_8abb008d4113ed75 "Melee", "Wound Effects", "Groups & Wounds").

Clause tests script each die face through the real pipeline (:class:`Faces`); the exact
distribution is checked against a brute-force enumeration of every roll of
:func:`resolve_exchange` itself (:func:`enumerate_exchange`), which shares nothing with the
exact composition but the rules code it enumerates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Mechanic, Outcome, State, Test, get_mechanic
from oprlab.mechanics.clock import Clock, ClockState
from oprlab.mechanics.d6 import D6, face_outcome, validate_check
from oprlab.prob import Dist
from oprlab.rules.gff.melee import (
    OWNERS,
    AfterCombat,
    ExactTooLarge,
    ExchangeResult,
    Side,
    SideResult,
    Step,
    Strike,
    UnitState,
    carried,
    counter_models_left,
    exchange_outcomes,
    impact_dice_left,
    probability_of,
    resolve_exchange,
)
from oprlab.rules.gff.resolve import Roller
from oprlab.units.model import Rule, Unit, Weapon

SEED = "seed 003_8abb008d4113ed75"


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


def ccw(count: int = 1, attacks: int = 1, *rules: Rule, name: str = "Knife") -> Weapon:
    return Weapon(name, attacks, count=count, rules=tuple(rules))


class Faces(Mechanic):
    """A d6 whose faces the test writes down; the state is (faces left, checks asked)."""

    name = "faces"
    summary = "scripted d6 faces (tests only)"
    deterministic = True

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        assert isinstance(state, tuple)
        faces, asked = state
        if not faces:
            raise AssertionError(f"the script ran out of faces at {check}")
        validate_check(check)
        return Dist.point(
            replace(face_outcome(check, faces[0]), state=(faces[1:], (*asked, check)))
        )


def scripted(*faces: int) -> Roller:
    return Roller(Faces(), (tuple(faces), ()), None)


def left_and_asked(roller: Roller) -> tuple[tuple[int, ...], tuple[Check, ...]]:
    state = roller.state
    assert isinstance(state, tuple)
    faces, asked = state
    return faces, asked


class _Need(Exception):
    def __init__(self, check: Check) -> None:
        self.check = check


class Replay(Mechanic):
    """Replays chosen outcomes, and asks for a choice when it runs out (brute force).

    It answers through :meth:`sample` (the generator is not used), so each roll is a lookup.
    """

    name = "replay"
    summary = "replays chosen outcomes (tests only)"

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        raise NotImplementedError("replay only samples")

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        assert isinstance(state, tuple)
        chosen: tuple[Outcome, ...]
        chosen, i = state
        if i == len(chosen):
            raise _Need(check)
        return replace(chosen[i], state=(chosen, i + 1))


_UNUSED_RNG = np.random.default_rng(0)


def _classes(check: Check, sixes: bool) -> list[tuple[Outcome, Fraction]]:
    """The d6's faces of ``check``, merged where nothing in GFF can tell them apart.

    GFF reads a hit's success and whether it is critical (a natural 6), a Defense roll's
    success and whether it shows a 6 (Bane), and only the success of every other check.
    With ``sixes=False`` (no rule in play reads a 6) only success is kept.
    """
    merged: dict[tuple[bool, ...], tuple[Outcome, Fraction]] = {}
    for face in range(1, 7):
        o = face_outcome(check, face)
        key: tuple[bool, ...] = (o.success,)
        if not sixes:
            pass
        elif check.test is Test.HIT:
            key += (o.critical,)
        elif check.test is Test.DEFENSE:
            key += (face == 6,)
        first, p = merged.get(key, (o, Fraction(0)))
        merged[key] = (first, p + Fraction(1, 6))
    return list(merged.values())


def enumerate_exchange(
    attacker: Unit, defender: Unit, sixes: bool = True, **options: Any
) -> Dist[ExchangeResult]:
    """Every roll sequence of :func:`resolve_exchange` with its probability (brute force)."""
    pairs: list[tuple[ExchangeResult, Fraction]] = []
    stack: list[tuple[tuple[Outcome, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        chosen, p = stack.pop()
        try:
            r = resolve_exchange(
                attacker, defender, Roller(Replay(), (chosen, 0), _UNUSED_RNG), **options
            )
        except _Need as need:
            stack.extend(((*chosen, o), p * q) for o, q in _classes(need.check, sixes))
            continue
        pairs.append((replace(r, strikes=()), p))
    return Dist.from_pairs(pairs)


def gff_strikes(r: ExchangeResult) -> list[Strike]:
    """The exchange's attacks as GFF records them (``ExchangeResult`` holds any system's)."""
    strikes = [s for s in r.strikes if isinstance(s, Strike)]
    assert len(strikes) == len(r.strikes)
    return strikes


def steps(r: ExchangeResult) -> list[tuple[Step, Side]]:
    return [(s.step, s.striker) for s in gff_strikes(r)]


# --- who still strikes -----------------------------------------------------------------------


def test_carried_scales_weapons_with_the_models_left() -> None:
    """seed 003 "Striking" with "Groups & Wounds": models that died do not strike; a weapon
    every model carries scales exactly, an upgrade rounds half up (docs/rules/gff.md)."""
    assert carried(5, 3, 5) == 3
    assert carried(10, 3, 5) == 6
    assert carried(1, 3, 5) == 1
    assert carried(1, 2, 5) == 0
    assert carried(4, 3, 5) == 2
    assert carried(3, 1, 1) == 3  # a single hero: weapons as listed
    assert carried(5, 0, 5) == 0


def test_dead_models_do_not_strike_back() -> None:
    """seed 003 "Striking" / "Groups & Wounds": each wound kills one model, and a unit of 5 with
    5x CCW (A1) that lost 2 models strikes back with 3 dice."""
    raiders = unit("Raiders", 2, q=4, weapons=[ccw(2)])
    wall = unit("Wall", 5, d=2, weapons=[ccw(5)])
    roller = scripted(4, 4, 1, 1, 1, 1, 1)  # 2 hits, 2 failed blocks, 3 missed strikes back
    r = resolve_exchange(raiders, wall, roller)
    assert r.defender.casualties == 2 and r.defender.models == 3
    assert steps(r) == [(Step.STRIKE, Side.ATTACKER), (Step.STRIKE_BACK, Side.DEFENDER)]
    assert gff_strikes(r)[-1].dice == 3
    assert left_and_asked(roller)[0] == ()


# --- Impact and Counter ----------------------------------------------------------------------


def test_impact_rolls_after_charging_each_2_plus_a_hit() -> None:
    """seed 003 Impact(X): "Roll X dice when attacking after charging ... For each 2+ the
    target takes one hit" (AP 0); Tough(3) only rolls wound effects from 3 wounds."""
    ram = unit("Ram", 1, weapons=[ccw()], rules=[Rule("Impact", 2)])
    post = unit("Post", 1, d=4, rules=[Rule("Tough", 3)])
    roller = scripted(2, 1, 3, 4, 3)  # Impact 2 and 1; block 3 fails; knife 4 hits; block 3
    r = resolve_exchange(ram, post, roller)
    assert steps(r) == [(Step.IMPACT, Side.ATTACKER), (Step.STRIKE, Side.ATTACKER)]
    impact = gff_strikes(r)[0]
    assert impact.dice == 2 and impact.result.hits == 1 and impact.result.wounds == 1
    _, asked = left_and_asked(roller)
    assert asked[2].test is Test.DEFENSE and asked[2].modifier == 0  # Impact hits have AP 0
    assert r.attacker.wounds_dealt == 2 and r.defender.markers == 2 and not r.defender.shaken


def test_impact_is_not_rolled_striking_back() -> None:
    """seed 003 Impact(X): only "after charging": a defender with Impact strikes back without."""
    guard = unit("Guard", 1, weapons=[ccw()])
    ram = unit("Ram", 1, weapons=[ccw()], rules=[Rule("Impact", 3)])
    r = resolve_exchange(guard, ram, scripted(1, 1))  # both knives miss
    assert steps(r) == [(Step.STRIKE, Side.ATTACKER), (Step.STRIKE_BACK, Side.DEFENDER)]
    assert gff_strikes(r)[1].dice == 1


def test_no_impact_when_fatigued() -> None:
    """seed 003 Impact(X) "unless fatigued", and Fatigue: a fatigued charger only hits on
    unmodified 6s in melee."""
    ram = unit("Ram", 1, q=2, weapons=[ccw()], rules=[Rule("Impact", 2)])
    post = unit("Post", 1, rules=[Rule("Tough", 3)])
    roller = scripted(5)  # Q2 would hit on a 5; fatigued, it misses
    r = resolve_exchange(ram, post, roller, attacker_state=UnitState(1, fatigued=True))
    assert steps(r) == [(Step.STRIKE, Side.ATTACKER)]
    assert gff_strikes(r)[0].result.hits == 0
    assert left_and_asked(roller)[1][0].unmodified_six_only


def test_counter_reduces_impact_per_model_with_counter() -> None:
    """seed 003 Counter: "the charging unit gets -1 total Impact rolls per model with Counter"."""
    riders = unit("Riders", 3, weapons=[ccw(3)], rules=[Rule("Impact", 2)])
    pikes = unit("Pikes", 4, weapons=[ccw(2, 1, Rule("Counter"), name="Pike"), ccw(2)])
    assert impact_dice_left(riders, 3) == 6
    assert counter_models_left(pikes, 4) == 2
    assert counter_models_left(pikes, 1) == 1
    rng = np.random.default_rng(1)
    r = resolve_exchange(riders, pikes, Roller(D6(), None, rng), strike_back=False)
    assert gff_strikes(r)[0].step is Step.IMPACT and gff_strikes(r)[0].dice == 4
    crowd = unit("Crowd", 9, weapons=[ccw(9, 1, Rule("Counter"))])
    r = resolve_exchange(riders, crowd, Roller(D6(), None, rng), strike_back=False)
    assert Step.IMPACT not in [s.step for s in gff_strikes(r)]  # 6 dice - 9 Counter models


def test_impact_of_some_models_only() -> None:
    """seed 003 Impact(X) is per model: ``2x Impact(1)`` in a unit of 4 rolls 2 dice."""
    mixed = unit("Mixed", 4, rules=[Rule("Impact", 1, count=2)])
    assert impact_dice_left(mixed, 4) == 2
    assert impact_dice_left(mixed, 2) == 1


def test_counter_strikes_first_and_kills_before_the_charger_strikes() -> None:
    """seed 003 Counter: "Strikes first with this weapon when charged": a charger model it kills
    does not strike; Counter weapons do not strike again in the strike back."""
    raiders = unit("Raiders", 2, d=4, weapons=[ccw(2)])
    sentry = unit("Sentry", 1, weapons=[ccw(1, 1, Rule("Counter"), name="Spear")])
    roller = scripted(4, 2, 1)  # spear hits, block 2 fails: a raider dies; last raider misses
    r = resolve_exchange(raiders, sentry, roller)
    assert steps(r) == [(Step.COUNTER, Side.DEFENDER), (Step.STRIKE, Side.ATTACKER)]
    assert gff_strikes(r)[1].dice == 1
    assert r.attacker.casualties == 1 and r.struck_back and r.defender.fatigued
    assert left_and_asked(roller)[0] == ()


def test_counter_can_destroy_the_charger() -> None:
    """seed 003 Counter and "After Combat": "If one unit is destroyed, the other may move by up
    to 3""; a destroyed charger never strikes."""
    lone = unit("Lone", 1, d=4, weapons=[ccw()])
    sentry = unit("Sentry", 1, weapons=[ccw(1, 1, Rule("Counter"), name="Spear")])
    r = resolve_exchange(lone, sentry, scripted(4, 2, 6))  # hit, failed block, wound roll 6+1
    assert steps(r) == [(Step.COUNTER, Side.DEFENDER)]
    assert r.attacker.destroyed and r.after_combat is AfterCombat.DEFENDER_MOVES
    assert r.after_combat.mover is Side.DEFENDER and r.after_combat.inches == 3
    assert r.winner is Side.DEFENDER


def test_impact_timing_with_strikes_rolls_after_counter() -> None:
    """docs/rules/gff.md "Melee exchange": with impact_timing="with_strikes" the Impact dice are
    part of the charger's attack, after Counter."""
    ram = unit("Ram", 1, weapons=[ccw()], rules=[Rule("Impact", 2)])
    sentry = unit("Sentry", 1, rules=[Rule("Tough", 6)], weapons=[ccw(1, 1, Rule("Counter"))])
    roller = scripted(1, 1, 1, 1)  # spear misses; impact die, then knife: all miss
    r = resolve_exchange(ram, sentry, roller, impact_timing="with_strikes")
    assert steps(r) == [(Step.COUNTER, Side.DEFENDER), (Step.STRIKE, Side.ATTACKER)]
    assert gff_strikes(r)[1].dice == 2  # knife A1 + (Impact 2 - 1 Counter model)
    with pytest.raises(OptionError, match="Impact timing"):
        resolve_exchange(ram, sentry, scripted(), impact_timing="later")


# --- strike back and fatigue -----------------------------------------------------------------


def test_strike_back_is_optional() -> None:
    """seed 003 "Striking": "Defenders may choose to strike back, but don't have to"; a defender
    that does not strike back uses no Counter weapon either and is not fatigued."""
    raiders = unit("Raiders", 1, weapons=[ccw()])
    sentry = unit("Sentry", 1, weapons=[ccw(1, 1, Rule("Counter")), ccw(1, 2, name="Axe")])
    r = resolve_exchange(raiders, sentry, scripted(1), strike_back=False)
    assert steps(r) == [(Step.STRIKE, Side.ATTACKER)]
    assert not r.struck_back and not r.defender.fatigued and r.attacker.fatigued
    assert r.winner is None and r.after_combat is AfterCombat.CHARGER_SEPARATES
    assert r.after_combat.mover is Side.ATTACKER and r.after_combat.inches == 1


def test_fatigue_after_charging_and_striking_back() -> None:
    """seed 003 "Fatigue": "After charging or striking back, units only hit on unmodified
    results of 6 in melee"."""
    raiders = unit("Raiders", 1, weapons=[ccw()])
    sentry = unit("Sentry", 1, weapons=[ccw()])
    r = resolve_exchange(raiders, sentry, scripted(1, 1))
    assert r.attacker.fatigued and r.defender.fatigued and r.struck_back
    # A defender that already struck back this round strikes back only on 6s.
    roller = scripted(1, 5)
    resolve_exchange(
        raiders, replace(sentry, quality=2), roller, defender_state=UnitState(1, fatigued=True)
    )
    strike_back = left_and_asked(roller)[1][1]
    assert strike_back.unmodified_six_only


def test_shaken_defender_strikes_back_only_on_sixes() -> None:
    """seed 003 Wound Effects, Shaken: "may strike back counting as fatigued" (hits on 6s)."""
    raiders = unit("Raiders", 1, weapons=[ccw()])
    sentry = unit("Sentry", 1, q=2, weapons=[ccw()])
    shaken = resolve_exchange(
        raiders, sentry, scripted(1, 5), defender_state=UnitState(1, shaken=True)
    )
    assert shaken.defender.wounds_dealt == 0 and gff_strikes(shaken)[-1].result.hits == 0
    steady = resolve_exchange(raiders, sentry, scripted(1, 5, 1, 1))  # 5 hits at Q2; block 1
    assert gff_strikes(steady)[-1].result.hits == 1 and steady.defender.wounds_dealt == 1


def test_shaken_by_the_charge_strikes_back_as_fatigued() -> None:
    """seed 003 Wound Effects: a roll of 1-5 (die + markers) is Shaken, and the Shaken unit
    strikes back counting as fatigued in the same exchange."""
    raiders = unit("Raiders", 1, weapons=[ccw()])
    sentry = unit("Sentry", 1, q=2, d=4, weapons=[ccw()])
    roller = scripted(4, 2, 1, 5)  # hit, failed block, wound roll 1+1 = Shaken, 5 misses
    r = resolve_exchange(raiders, sentry, roller)
    assert r.defender.shaken and r.defender.markers == 1
    assert gff_strikes(r)[-1].result.hits == 0
    assert left_and_asked(roller)[1][-1].unmodified_six_only
    assert r.winner is Side.ATTACKER


def test_a_shaken_unit_cannot_charge() -> None:
    """seed 003 Wound Effects, Shaken: "must stay idle"."""
    raiders = unit("Raiders", 1, weapons=[ccw()])
    with pytest.raises(OptionError, match="cannot charge"):
        resolve_exchange(raiders, raiders, scripted(), attacker_state=UnitState(1, shaken=True))


def test_bad_states_are_refused() -> None:
    """seed 003 "Groups & Wounds": markers only on the last model; a unit needs models."""
    raiders = unit("Raiders", 3, weapons=[ccw(3)])
    with pytest.raises(OptionError, match="models out of range") as e:
        resolve_exchange(raiders, raiders, scripted(), defender_state=UnitState(0))
    assert e.value.value == 0
    with pytest.raises(OptionError, match="models out of range"):
        resolve_exchange(raiders, raiders, scripted(), attacker_state=UnitState(4))
    with pytest.raises(OptionError, match="last model"):
        resolve_exchange(raiders, raiders, scripted(), defender_state=UnitState(2, markers=1))


# --- charging rules and wound effects in melee -------------------------------------------------


def test_furious_and_thrust_only_when_charging() -> None:
    """seed 003 Furious ("When charging, unmodified results of 6 to hit in melee deal 1 extra
    hit") and Thrust ("When charging, gets +1 to hit rolls and AP(+1) in melee")."""
    wild = unit("Wild", 1, q=5, weapons=[ccw(1, 1, Rule("Thrust"))], rules=[Rule("Furious")])
    post = unit(
        "Post",
        1,
        q=5,
        weapons=[ccw(1, 1, Rule("Thrust"))],
        rules=[Rule("Furious"), Rule("Tough", 9)],
    )
    tough_wild = replace(wild, rules=(Rule("Furious"), Rule("Tough", 9)))
    # Charging: a 6 makes 2 hits; both blocks at D4 with AP(1) fail on 4; strike back 4 misses.
    roller = scripted(6, 4, 4, 4)
    r = resolve_exchange(tough_wild, post, roller)
    assert gff_strikes(r)[0].result.hits == 2 and gff_strikes(r)[0].result.wounds == 2
    assert gff_strikes(r)[1].result.hits == 0  # 4 at Q5 without Thrust's +1
    _, asked = left_and_asked(roller)
    assert [c.modifier for c in asked[1:3]] == [-1, -1]
    # Striking back: a 6 is one hit only.
    r = resolve_exchange(unit("Dummy", 1, weapons=[ccw()]), post, scripted(1, 6, 1, 1))
    assert gff_strikes(r)[-1].result.hits == 1


def test_fear_counts_extra_wounds_for_wound_effects_in_melee() -> None:
    """seed 003 Fear(X): "counts as having dealt +X wounds when checking wound effects in melee
    (must deal at least one wound to check)"; Tough(3) is Knocked Out on 8+."""
    horror = unit("Horror", 1, weapons=[ccw()], rules=[Rule("Fear", 2)])
    brute = unit("Brute", 1, d=4, rules=[Rule("Tough", 3)])
    r = resolve_exchange(horror, brute, scripted(4, 3, 5))  # 1 wound; roll 5 + 1 + 2 = 8
    assert r.defender.destroyed and r.after_combat is AfterCombat.ATTACKER_MOVES
    assert r.after_combat.mover is Side.ATTACKER and r.after_combat.inches == 3
    assert r.winner is Side.ATTACKER
    plain = replace(horror, rules=())
    roller = scripted(4, 3)  # 1 wound < Tough(3): no roll
    r = resolve_exchange(plain, brute, roller)
    assert not r.defender.destroyed and r.defender.markers == 1
    assert left_and_asked(roller)[0] == ()
    roller = scripted(4, 6)  # Fear does nothing without a wound
    r = resolve_exchange(horror, brute, roller)
    assert r.defender.markers == 0 and len(left_and_asked(roller)[1]) == 2


def test_winner_definition() -> None:
    """docs/rules/gff.md "Melee exchange" (seed 003 names no winner): the other unit destroyed,
    else more wounds dealt; equal wounds draw."""

    def side(dealt: int, models: int) -> SideResult:
        return SideResult(dealt, 0, models, 0, False, True)

    def result(a: SideResult, d: SideResult) -> ExchangeResult:
        return ExchangeResult(a, d, True, AfterCombat.CHARGER_SEPARATES)

    assert result(side(3, 1), side(1, 1)).winner is Side.ATTACKER
    assert result(side(1, 1), side(3, 1)).winner is Side.DEFENDER
    assert result(side(2, 1), side(2, 1)).winner is None
    assert result(side(1, 1), side(5, 0)).winner is Side.ATTACKER  # destroyed loses anyway
    assert result(side(0, 1), side(0, 1)).winner is None


# --- the clock -----------------------------------------------------------------------------


def test_clock_exchange_is_certain_and_hand_derived() -> None:
    """seed 000 clock with seed 003 Melee: each army's clock starts at 1 and adds X - 1.

    Charger Q3 A2: its clock 1 -> 3 -> 5, two hits. Defender D5 adds 4: 1 -> 5 blocks, then
    5 -> 9 rolls over (fails): 1 wound. Wound check (1 + markers 1 = 2): 3 -> 5, stays: Shaken.
    Shaken strikes back as fatigued: Q4 adds 3, lands on 2 (not 6): miss; clock at 2.
    """
    raiders = unit("Raiders", 1, q=3, d=4, weapons=[ccw(1, 2)])
    sentry = unit("Sentry", 1, q=4, d=5, weapons=[ccw()])
    clock = Clock()
    results = []
    for _ in range(2):
        roller = Roller(clock, clock.initial_state(OWNERS), None)
        results.append(resolve_exchange(raiders, sentry, roller))
        state = roller.state
        assert isinstance(state, ClockState)
        assert state.clocks == {("attacker",): 5, ("defender",): 2}
    r = results[0]
    assert r == results[1] and r.strikes == results[1].strikes
    assert r.attacker.wounds_dealt == 1 and r.defender.wounds_dealt == 0
    assert r.defender.shaken and r.defender.markers == 1
    assert r.winner is Side.ATTACKER and r.after_combat is AfterCombat.CHARGER_SEPARATES


# --- exact against brute force ---------------------------------------------------------------

D6_MECH = D6()

#: name: (charger, defender, exchange options, whether any rule in play reads a natural 6).
SCENARIOS: dict[str, tuple[Unit, Unit, dict[str, Any], bool]] = {
    "impact and counter": (
        unit("Raiders", 2, d=5, weapons=[ccw(2)], rules=[Rule("Impact", 1)]),
        unit("Guards", 2, d=5, weapons=[ccw(1, 1, Rule("Counter"), name="Spear"), ccw(1)]),
        {},
        False,
    ),
    "impact with strikes": (
        unit("Raiders", 2, d=5, weapons=[ccw(2)], rules=[Rule("Impact", 1)]),
        unit("Guards", 2, d=5, weapons=[ccw(1, 1, Rule("Counter"), name="Spear"), ccw(1)]),
        {"impact_timing": "with_strikes"},
        False,
    ),
    "mixed weapons, 3 v 3, some models with Impact": (
        unit(
            "Raiders",
            3,
            d=5,
            weapons=[ccw(2), ccw(1, 2, Rule("AP", 1), name="Axe")],
            rules=[Rule("Impact", 1, count=2)],
        ),
        unit(
            "Guards",
            3,
            d=5,
            weapons=[ccw(2, 1, Rule("Counter"), name="Spear"), ccw(1, 1, Rule("Deadly", 2))],
            rules=[Rule("Fear", 1)],
        ),
        {},
        False,
    ),
    "heroes: Furious, Thrust, Deadly, Fear, Tough": (
        unit(
            "Champion",
            1,
            q=4,
            d=4,
            weapons=[ccw(1, 2, Rule("Thrust"), Rule("Deadly", 2))],
            rules=[Rule("Tough", 3), Rule("Furious"), Rule("Fear", 1)],
        ),
        unit("Ogre", 1, q=4, d=4, weapons=[ccw(1, 2, Rule("AP", 1))], rules=[Rule("Tough", 3)]),
        {},
        True,
    ),
    "wounded, shaken defender": (
        unit("Raiders", 2, q=3, weapons=[ccw(2)]),
        unit("Ogre", 1, q=3, d=3, weapons=[ccw(1, 2)], rules=[Rule("Tough", 3)]),
        {"defender_state": UnitState(1, markers=2, shaken=True)},
        False,
    ),
    "fatigued charger, no strike back": (
        unit("Raiders", 3, weapons=[ccw(3, 1, Rule("Rending"))], rules=[Rule("Impact", 1)]),
        unit("Guards", 2, d=3, weapons=[ccw(2)], rules=[Rule("Regeneration")]),
        {"attacker_state": UnitState(3, fatigued=True), "strike_back": False},
        True,
    ),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_exact_exchange_equals_brute_force(name: str) -> None:
    """seed 003 Melee (Charging, Striking, Fatigue), Wound Effects, Groups & Wounds and the
    special rules of each scenario: the exact composition over the joint state equals every
    roll sequence of resolve_exchange enumerated, in Fractions."""
    attacker, defender, options, sixes = SCENARIOS[name]
    exact = exchange_outcomes(attacker, defender, D6_MECH, **options)
    brute = enumerate_exchange(attacker, defender, sixes, **options)
    assert exact == brute
    assert sum((p for _, p in exact.items()), Fraction(0)) == 1
    wins = [probability_of(exact, s) for s in (Side.ATTACKER, None, Side.DEFENDER)]
    assert sum(wins) == 1


def test_exact_needs_a_random_mechanic_and_gives_up_when_too_large() -> None:
    """The clock is certain: exact composition refuses it; huge units raise ExactTooLarge."""
    raiders = unit("Raiders", 1, weapons=[ccw()])
    with pytest.raises(OptionError, match="random mechanic"):
        exchange_outcomes(raiders, raiders, get_mechanic("clock"))
    horde = unit("Horde", 30, weapons=[ccw(30)])
    with pytest.raises(ExactTooLarge):
        exchange_outcomes(horde, horde, D6_MECH)
    with pytest.raises(ExactTooLarge, match="joint states"):
        exchange_outcomes(horde, raiders, D6_MECH, max_states=5)
