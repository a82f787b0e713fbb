"""The Diceless OPR clock and its variations (seed 000_e2a2d86473ae65c4): every worked example,
the derived Tough(X) wound check against the d6, and invariants under hypothesis."""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oprlab.errors import OptionError
from oprlab.mechanics.base import Check, Owner, Test
from oprlab.mechanics.clock import (
    BennyUse,
    Clock,
    ClockState,
    advance,
    base_increment,
    bennies_left,
    increment,
    initial_tokens,
    landing,
    spend_benny,
)
from oprlab.mechanics.d6 import D6
from oprlab.mechanics.dopr_rules import dopr_rule
from oprlab.mechanics.registry import describe, get_mechanic
from oprlab.prob import Dist

SEED = "seed 000_e2a2d86473ae65c4"
RED = Owner(army="red", unit="raiders")
BLUE = Owner(army="blue", unit="wardens")
CLOCK = Clock()


def at(value: int, owner: Owner = RED, clock: Clock = CLOCK) -> ClockState:
    """A state with ``owner``'s clock at ``value``."""
    return ClockState({clock.clock_key(owner): value})


def red_clock(state: object) -> int:
    assert isinstance(state, ClockState)
    return state.clocks[("red",)]


def built(name: str, **options: object) -> Clock:
    """The registered mechanic ``name``, which must be a Clock."""
    mechanic = get_mechanic(name, **options)
    assert isinstance(mechanic, Clock)
    return mechanic


def fraction_failing(check: Check, clock: Clock = CLOCK) -> Fraction:
    """The share of the six starting positions of the owner's clock from which ``check`` fails."""
    fails = sum(not clock.resolve(check, at(s, check.owner, clock)).success for s in range(1, 7))
    return Fraction(fails, 6)


# -- the worked examples ------------------------------------------------------------------------


def test_clocks_start_at_one() -> None:
    """seed 000 "The Clock": at the start of the game all clocks are set to 1; one per army."""
    state = CLOCK.initial_state([RED, BLUE, Owner("red", "other")])
    assert state.clocks == {("red",): 1, ("blue",): 1}


def test_quality_check_example_attacker() -> None:
    """seed 000 "Quality and Defense Checks": Q4+ attacker at clock 2 adds 3 -> 5, succeeds."""
    out = CLOCK.resolve(Check(Test.HIT, 4, owner=RED), at(2))
    assert out.success and red_clock(out.state) == 5 and out.natural == 5


def test_defense_check_example_defender() -> None:
    """seed 000 "Quality and Defense Checks": D3+ defender at clock 5 adds 2 -> 7, rolls over
    to 1, the defense fails."""
    out = CLOCK.resolve(Check(Test.DEFENSE, 3, owner=RED), at(5))
    assert not out.success and red_clock(out.state) == 1


def test_morale_check_is_a_quality_check() -> None:
    """seed 000 "Morale Checks": a morale check is a quality check."""
    for start in range(1, 7):
        morale = CLOCK.resolve(Check(Test.MORALE, 4, owner=RED), at(start))
        quality = CLOCK.resolve(Check(Test.QUALITY, 4, owner=RED), at(start))
        assert morale == quality


def test_wound_check_first_wound_example() -> None:
    """seed 000 "Wound Checks": first wound, clock 3, adds 2 (1 + one marker) -> 5, stunned."""
    out = CLOCK.resolve(Check(Test.WOUND_EFFECT, 1, owner=RED), at(3))
    assert out.success and red_clock(out.state) == 5


def test_wound_check_second_wound_example() -> None:
    """seed 000 "Wound Checks": second wound, clock 5, adds 3 -> 8, rolls over to 2, knocked
    out. The markers are part of the base increment: the landing 2 is the unmodified one."""
    check = Check(Test.WOUND_EFFECT, 2, owner=RED)
    assert base_increment(check) == 3
    out = CLOCK.resolve(check, at(5))
    assert not out.success and red_clock(out.state) == 2 and out.natural == 2


def test_cover_bonus_example() -> None:
    """seed 000 "Applying Bonuses and Penalties": D4+ in cover (+1) adds 2 instead of 3."""
    check = Check(Test.DEFENSE, 4, modifier=+1, owner=RED)
    assert increment(check) == 2
    assert red_clock(CLOCK.resolve(check, at(1)).state) == 3


def test_ap_penalty_capped_at_five_example() -> None:
    """seed 000 "Applying Bonuses and Penalties": D4+ against AP(3) would add 6, adds 5."""
    check = Check(Test.DEFENSE, 4, modifier=-dopr_rule("AP").adjustment_for(3), owner=RED)
    assert increment(check) == 5
    assert red_clock(CLOCK.resolve(check, at(1)).state) == 6


def test_bonus_never_adds_less_than_one() -> None:
    """seed 000 "Applying Bonuses and Penalties" NOTE: a bonus never makes the add below 1."""
    assert increment(Check(Test.HIT, 2, modifier=+3)) == 1


def test_rending_example_unmodified_six() -> None:
    """seed 000 "Unmodified 1 and 6": Rending example, clock 4, Q3 -> lands 6 (critical)."""
    out = CLOCK.resolve(Check(Test.HIT, 3, owner=RED), at(4))
    assert out.natural == 6 and out.critical and out.success


def test_unmodified_six_succeeds_though_clock_rolls_over() -> None:
    """seed 000 "Unmodified 1 and 6": an unmodified 6 always succeeds; the penalty still moves
    the clock, which may roll over although the check succeeded."""
    out = CLOCK.resolve(Check(Test.HIT, 3, modifier=-1, owner=RED), at(4))
    assert out.success and out.natural == 6 and red_clock(out.state) == 1


def test_unmodified_one_fails_though_clock_holds() -> None:
    """seed 000 "Unmodified 1 and 6": an unmodified 1 always fails; the bonus still moves the
    clock, which may not roll over although the check failed."""
    out = CLOCK.resolve(Check(Test.DEFENSE, 4, modifier=+1, owner=RED), at(4))
    assert not out.success and out.natural == 1 and out.fumble and red_clock(out.state) == 6


def test_overrides_off_judges_by_roll_over_only() -> None:
    """Option overrides=False (our reading's alternative): only rolling over decides."""
    clock = Clock(overrides=False)
    assert clock.resolve(Check(Test.DEFENSE, 4, modifier=+1, owner=RED), at(4, clock=clock)).success
    assert not clock.resolve(Check(Test.HIT, 3, modifier=-1, owner=RED), at(4)).success


def test_fatigue_only_on_unmodified_six() -> None:
    """seed 003 "Fatigue" on the clock (seed 000 "Unmodified 1 and 6"): only a base landing of 6
    hits, whatever bonuses apply; still one position in six, like the d6."""
    check = Check(Test.HIT, 3, modifier=+2, unmodified_six_only=True, owner=RED)
    winners = [s for s in range(1, 7) if CLOCK.resolve(check, at(s)).success]
    assert winners == [4]


def test_critical_from_five_must_succeed() -> None:
    """seed 002 "Critical Hit" on the clock: critical_from=5 widens the critical landing to 5-6,
    and a landing of 5 must succeed (here a penalty rolls it over)."""
    assert CLOCK.resolve(Check(Test.HIT, 4, critical_from=5, owner=RED), at(2)).critical
    failed = CLOCK.resolve(Check(Test.HIT, 4, modifier=-3, critical_from=5, owner=RED), at(2))
    assert failed.natural == 5 and not failed.success and not failed.critical


# -- Tough(X): the derived wound check against the d6 ------------------------------------------


# Tough(X) models roll once markers >= X; keep combinations whose increment stays within 1..5.
TOUGH_CASES = [
    (tough, tough + extra, shaken)
    for tough in range(1, 7)
    for extra in range(4)
    for shaken in (False, True)
    if 2 + extra + shaken <= 5
]


@pytest.mark.parametrize(("tough", "markers", "shaken"), TOUGH_CASES)
def test_tough_wound_check_equals_d6_knock_out_odds(tough: int, markers: int, shaken: bool) -> None:
    """seed 000 "Wound Checks" with seed 003 "Tough(X)": adding 1 + markers - (X - 1) (+1 when
    Shaken) fails from exactly as many of the six clock positions as the d6 knocks the model out
    (roll + markers (+1) >= 5 + X), for every markers >= X whose increment stays within 1..5."""
    check = Check(Test.WOUND_EFFECT, markers, modifier=-1 if shaken else 0, tough=tough, owner=RED)
    assert increment(check) == 1 + markers - (tough - 1) + int(shaken)
    assert fraction_failing(check) == 1 - D6().p_success(check)


def test_wound_check_out_of_range_is_clamped() -> None:
    """seed 000 "Applying Bonuses and Penalties" NOTE: never more than 5. A plain model with 5
    markers (the d6 always knocks it out) adds 5, so one position in six survives."""
    check = Check(Test.WOUND_EFFECT, 5, owner=RED)
    assert increment(check) == 5
    assert D6().p_success(check) == 0 and fraction_failing(check) == Fraction(5, 6)


def test_wound_check_overrides_option() -> None:
    """Our reading: wound checks are table lookups, so a Shaken model whose base landing is 6
    still rolls over and is knocked out; wound_overrides=True applies the unmodified-6 rule."""
    check = Check(Test.WOUND_EFFECT, 1, modifier=-1, owner=RED)  # adds 2 base, 3 with Shaken
    assert not CLOCK.resolve(check, at(4)).success
    assert Clock(wound_overrides=True).resolve(check, at(4)).success


# -- the six-position average against the d6 -----------------------------------------------------


@pytest.mark.parametrize("difficulty", range(2, 7))
@pytest.mark.parametrize("modifier", range(-6, 7))
def test_clamp_is_the_d6_one_and_six_rule(difficulty: int, modifier: int) -> None:
    """seed 000 "Applying Bonuses and Penalties": averaged over the six positions, the clamped
    clock without the unmodified overrides has exactly the d6's success odds."""
    check = Check(Test.DEFENSE, difficulty, modifier=modifier, owner=RED)
    assert 1 - fraction_failing(check, Clock(overrides=False)) == D6().p_success(check)


@pytest.mark.parametrize("difficulty", range(2, 7))
@pytest.mark.parametrize("modifier", [-1, +1])
def test_literal_overrides_cancel_a_one_point_modifier(difficulty: int, modifier: int) -> None:
    """seed 000 "Unmodified 1 and 6", read literally: a +1 or -1 never changes whether this
    check succeeds (the one position it would flip is the unmodified 6 or 1), only where the
    clock ends up; so, averaged over the positions, it is worth nothing, unlike on the d6."""
    plain = Check(Test.HIT, difficulty, owner=RED)
    check = Check(Test.HIT, difficulty, modifier=modifier, owner=RED)
    for start in range(1, 7):
        assert CLOCK.resolve(check, at(start)).success == CLOCK.resolve(plain, at(start)).success
    if 3 <= difficulty <= 5:
        assert D6().p_success(check) != D6().p_success(plain)


# -- scopes and starts ---------------------------------------------------------------------------


def test_army_clocks_are_separate() -> None:
    """seed 000 "The Clock": each army has its own clock."""
    state = CLOCK.initial_state([RED, BLUE])
    out = CLOCK.resolve(Check(Test.HIT, 4, owner=RED), state)
    assert isinstance(out.state, ClockState)
    assert out.state.clocks == {("red",): 4, ("blue",): 1}


def test_global_clock_is_shared() -> None:
    """seed 000 variation 1 "Global Clock": all armies share one clock."""
    clock = Clock(scope="global")
    first = clock.resolve(Check(Test.HIT, 4, owner=RED), clock.initial_state([RED, BLUE]))
    out = clock.resolve(Check(Test.DEFENSE, 3, owner=BLUE), first.state)
    assert isinstance(out.state, ClockState)
    assert out.state.clocks == {(): 6} and out.success


def test_unit_clocks() -> None:
    """seed 000 variation 2 "Per Unit Clocks": each unit has its own clock."""
    clock = Clock(scope="unit")
    other = Owner("red", "scouts")
    state = clock.initial_state([RED, other])
    out = clock.resolve(Check(Test.HIT, 4, owner=RED), state)
    assert isinstance(out.state, ClockState)
    assert out.state.clocks == {("red", "raiders"): 4, ("red", "scouts"): 1}


@pytest.mark.parametrize(
    ("clock", "owner"),
    [(Clock(), Owner()), (Clock(scope="unit"), Owner("red")), (Clock(scope="unit"), Owner())],
)
def test_missing_owner_data_is_a_clear_error(clock: Clock, owner: Owner) -> None:
    """A scope needs the owner fields it keys on."""
    with pytest.raises(OptionError, match="needs the check's owner"):
        clock.resolve(Check(Test.HIT, 4, owner=owner))


def test_random_start_draws_one_d6_per_clock() -> None:
    """seed 000 variation 3 "Random Clocks": each clock starts on a d6, drawn in one call."""
    clock = Clock(start="random")
    owners = [RED, BLUE, Owner("green", "x")]
    state = clock.initial_state(owners, np.random.default_rng(5))
    expected = np.random.default_rng(5).integers(1, 7, size=3)
    assert list(state.clocks.values()) == [int(v) for v in expected]
    assert list(state.clocks) == [("red",), ("blue",), ("green",)]


def test_random_start_needs_rng_and_known_clocks() -> None:
    """seed 000 variation 3: a random start cannot be invented later without a generator."""
    clock = Clock(start="random")
    with pytest.raises(OptionError, match="generator"):
        clock.initial_state([RED])
    with pytest.raises(OptionError, match="initial_state"):
        clock.resolve(Check(Test.HIT, 4, owner=RED), ClockState())


def test_unseen_clock_starts_at_start_value() -> None:
    """A clock not in the state yet starts at the start value (1 by default, or as set)."""
    assert Clock(start=3).resolve(Check(Test.HIT, 4, owner=RED)).natural == 6


# -- tokens -------------------------------------------------------------------------------------


def test_token_counts_worked_example() -> None:
    """seed 000 variation 4 "Tokens": D5+ gets 6 - 5 + 1 = 2; a Q2+ attack gets 5 per attack."""
    assert initial_tokens(5) == 2
    assert initial_tokens(2, pool_size=3) == 15


def test_defense_tokens_run_out_for_the_rest_of_the_game() -> None:
    """seed 000 variation 4: D5+ defends twice automatically, then never again."""
    clock = Clock(tokens=True)
    defender = Owner("blue", "wardens", model=0, pool="defense")
    check = Check(Test.DEFENSE, 5, modifier=-4, owner=defender)  # modifiers do not apply
    state: object = clock.initial_state([defender])
    results = []
    for _ in range(4):
        out = clock.resolve(check, state)
        results.append(out.success)
        state = out.state
    assert results == [True, True, False, False]
    assert isinstance(state, ClockState) and state.clocks == {("blue",): 1}


def test_attack_tokens_per_weapon_pool() -> None:
    """seed 000 variation 4: a Q2+ weapon with 3 attacks has 15 tokens; pools are per weapon."""
    clock = Clock(tokens=True)
    gun = Check(Test.HIT, 2, pool_size=3, owner=Owner("red", "raiders", pool="gun"))
    blade = Check(Test.HIT, 4, owner=Owner("red", "raiders", pool="blade"))
    state: object = ClockState()
    for _ in range(15):
        out = clock.resolve(gun, state)
        assert out.success and out.natural == 0 and not out.critical
        state = out.state
    assert not clock.resolve(gun, state).success
    assert clock.resolve(blade, state).success


def test_tokens_leave_other_checks_on_the_clock() -> None:
    """seed 000 variation 4 replaces Defense and attacks only: morale still uses the clock."""
    clock = Clock(tokens=True)
    out = clock.resolve(Check(Test.MORALE, 4, owner=RED), at(2))
    assert out.natural == 5 and red_clock(out.state) == 5


def test_token_pool_needs_owner() -> None:
    """A token pool is keyed by army, unit, model and weapon: missing data is a clear error."""
    with pytest.raises(OptionError, match="token pool"):
        Clock(tokens=True).resolve(Check(Test.HIT, 4, owner=Owner("red", "raiders")))


# -- bennies ------------------------------------------------------------------------------------


def test_bennies_per_army() -> None:
    """seed 000 variation 5 "Bennies": each army starts with some number of bennies."""
    assert Clock(bennies=3).initial_state([RED, BLUE]).bennies == {"red": 3, "blue": 3}
    counts = {"red": 2, "blue": 5}
    assert Clock(bennies=counts).initial_state([RED, BLUE]).bennies == counts
    with pytest.raises(OptionError, match="no benny count"):
        Clock(bennies={"red": 2}).initial_state([RED, BLUE])


def test_spend_benny_uses() -> None:
    """seed 000 variation 5: extra attack, defend, and set any clock (friend or foe)."""
    clock = Clock(bennies=2)
    state = clock.initial_state([RED, BLUE])
    state = spend_benny(state, "red", BennyUse.EXTRA_ATTACK)
    assert bennies_left(state, "red") == 1 and bennies_left(state, "blue") == 2
    state = clock.spend_benny(state, "red", BennyUse.SET_CLOCK, owner=BLUE, value=6)
    assert state.clocks[("blue",)] == 6 and bennies_left(state, "red") == 0
    with pytest.raises(OptionError, match="no bennies left"):
        spend_benny(state, "red", BennyUse.DEFEND)
    state = spend_benny(state, "blue", BennyUse.DEFEND)
    assert bennies_left(state, "blue") == 1


@pytest.mark.parametrize(
    ("use", "clock", "value", "message"),
    [
        (BennyUse.SET_CLOCK, None, 3, "needs the clock"),
        (BennyUse.SET_CLOCK, ("blue",), None, "needs the clock"),
        (BennyUse.SET_CLOCK, ("blue",), 7, "out of range"),
        (BennyUse.DEFEND, ("blue",), 3, "takes no clock"),
    ],
)
def test_spend_benny_bad_arguments(
    use: BennyUse, clock: tuple[str, ...] | None, value: int | None, message: str
) -> None:
    """Bad benny arguments are refused with the value and what would be right."""
    state = Clock(bennies=1).initial_state([RED, BLUE])
    with pytest.raises(OptionError, match=message):
        spend_benny(state, "red", use, clock=clock, value=value)


# -- options, variants, registry -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"scope": "planet"}, "scope"),
        ({"start": 0}, "start"),
        ({"start": 7}, "start"),
        ({"start": True}, "start"),
        ({"start": "late"}, "start"),
        ({"bennies": -1}, "bennies"),
        ({"bennies": {"red": -2}}, "bennies"),
        ({"overrides": False, "wound_overrides": True}, "wound_overrides"),
    ],
)
def test_bad_options(options: dict[str, object], message: str) -> None:
    """Out-of-range and contradictory options raise OptionError naming the option."""
    with pytest.raises(OptionError, match=message):
        Clock(**options)  # type: ignore[arg-type]


def test_variants_are_registered() -> None:
    """Each seed 000 variation is a registered name, combinable with options."""
    names = dict(describe())
    for name in ("clock", "clock-global", "clock-unit", "clock-random", "clock-tokens"):
        assert names[name]
    assert built("clock-global").scope == "global"
    assert built("clock-unit", tokens=True).options["tokens"] is True
    assert built("clock-random").start == "random"
    assert built("clock-bennies").bennies == 4
    assert built("clock-bennies", bennies=2).bennies == 2
    assert repr(Clock()) == (
        "Clock(scope='army', start=1, tokens=False, bennies=None, overrides=True, "
        "wound_overrides=False)"
    )


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("clock-global", {"scope": "unit"}, "fixes scope"),
        ("clock-random", {"start": 1}, "fixes start"),
        ("clock-tokens", {"tokens": False}, "fixes tokens"),
        ("clock-bennies", {"bennies": None}, "needs bennies"),
        ("clock", {"colour": "red"}, "unknown option"),
    ],
)
def test_variant_contradictions(name: str, options: dict[str, object], message: str) -> None:
    """A variant refuses options that contradict what it fixes, and unknown options."""
    with pytest.raises(OptionError, match=message):
        get_mechanic(name, **options)


def test_bad_checks() -> None:
    """Clock checks are validated like the d6's, plus the pool size."""
    with pytest.raises(OptionError, match="difficulty"):
        CLOCK.resolve(Check(Test.HIT, 8, owner=RED))
    with pytest.raises(OptionError, match="pool_size"):
        CLOCK.resolve(Check(Test.HIT, 4, pool_size=0, owner=RED))
    with pytest.raises(TypeError):
        CLOCK.resolve(Check(Test.HIT, 4, owner=RED), state=(1, 2))


# -- the state ----------------------------------------------------------------------------------


def test_state_is_a_hashable_picklable_value() -> None:
    """States compare by value, hash alike, pickle, and paste back from their repr."""
    a = ClockState({("red",): 3}, {("red", "u", 0, "gun", "hit"): 2}, {"red": 1})
    b = ClockState({("red",): 3}, {("red", "u", 0, "gun", "hit"): 2}, {"red": 1})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert pickle.loads(pickle.dumps(a)) == a
    assert eval(repr(a), {"ClockState": ClockState}) == a
    assert a.with_clock(("red",), 4) != a and a.clocks[("red",)] == 3


@pytest.mark.parametrize(
    "kwargs",
    [{"clocks": {("red",): 0}}, {"clocks": {("red",): 7}}, {"tokens": {("a",): -1}}],
)
def test_state_rejects_bad_values(kwargs: dict[str, object]) -> None:
    """A state built from user data is validated."""
    with pytest.raises(OptionError):
        ClockState(**kwargs)  # type: ignore[arg-type]


# -- invariants -------------------------------------------------------------------------------

check_strategy = st.builds(
    Check,
    test=st.sampled_from(
        [Test.HIT, Test.DEFENSE, Test.MORALE, Test.REGENERATION, Test.CASTING, Test.GENERIC]
    ),
    target=st.integers(2, 6),
    replacements=st.lists(st.integers(2, 6), max_size=2).map(tuple),
    modifier=st.integers(-8, 8),
    owner=st.sampled_from([RED, BLUE]),
    critical_from=st.integers(5, 6),
    unmodified_six_only=st.booleans(),
) | st.builds(
    Check,
    test=st.just(Test.WOUND_EFFECT),
    target=st.integers(0, 10),
    modifier=st.integers(-2, 0),
    owner=st.sampled_from([RED, BLUE]),
    tough=st.integers(1, 6),
)


@given(
    checks=st.lists(check_strategy, max_size=25),
    scope=st.sampled_from(["army", "global", "unit"]),
    start=st.integers(1, 6),
    overrides=st.booleans(),
)
def test_clock_invariants(checks: list[Check], scope: str, start: int, overrides: bool) -> None:
    """seed 000: clocks stay 1..6, increments 1..5 (0..5 for spells), the clock moves by the
    increment modulo 6, and sample() returns exactly the one outcome outcomes() lists."""
    clock = Clock(scope=scope, start=start, overrides=overrides)
    state: object = clock.initial_state([RED, BLUE])
    rng = np.random.default_rng(0)
    for check in checks:
        step = increment(check)
        assert (0 if check.test is Test.CASTING else 1) <= step <= 5
        key = clock.clock_key(check.owner)
        assert isinstance(state, ClockState)
        before = state.clocks[key]
        dist = clock.outcomes(check, state)
        out = clock.sample(check, state, rng)
        assert dist == Dist.point(out) and clock.p_success(check, state) == int(out.success)
        assert isinstance(out.state, ClockState)
        after = out.state.clocks[key]
        assert 1 <= after <= 6 and 1 <= out.natural <= 6
        assert (after, before + step > 6) == advance(before, step)
        assert after == landing(before, step)
        if out.critical:
            assert out.success and out.natural >= check.critical_from
        state = out.state


def test_caster_spent_tokens_may_reach_zero() -> None:
    """seed 000 "Caster(X)": adds 3, spent spell tokens subtract to a minimum of 0, so with 3
    tokens spent the clock does not move and the spell works."""
    out = CLOCK.resolve(Check(Test.CASTING, 4, modifier=+3, owner=RED), at(6))
    assert increment(Check(Test.CASTING, 4, modifier=+5)) == 0
    assert out.success and red_clock(out.state) == 6
    assert not CLOCK.resolve(Check(Test.CASTING, 4, owner=RED), at(4)).success
