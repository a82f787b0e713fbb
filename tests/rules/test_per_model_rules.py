"""Rules that some models of a unit have (issue 10, defect 1): the worked examples on every path.

Army Forge writes ``1x Furious`` when one model of five has it. Seed 003 "Furious" ("When
charging, unmodified results of 6 to hit in melee deal 1 extra hit"), seed 003 "Relentless"
("When this model shoots"), seed 002 "Furious" ("Whenever a model with Furious rolls a Critical
Hit"), seed 002 Example 1 (Good Shot replaces the model's Quality with 4+) and seed 002 "Shooty"
act for the models that have them. Expected values are worked from the texts by hand:

- GFF ``1x Furious`` with ``5x CCW (A1)`` at Q4+, charging: four plain dice hit 1/2 each, the
  Furious die 1/2 + 1/6 (a natural 6 is one extra hit): 4/2 + 2/3 = 8/3 (all five: 10/3).
- Riverside ``1x Good Shot`` at Q5+ with five rifles: the Good Shot die hits on 4+ (1/2), the
  other four on 5+ (1/3 each): 1/2 + 4/3 = 11/6 (all five: 5/2).

Each path reads the same split (``oprlab.rules.weapon_lines``): exact Fractions, the float fast
path, the vectorised Monte Carlo, the melee exchange, the odds command and a game's charge.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from oprlab.analysis.montecarlo import simulate_attacks
from oprlab.analysis.odds import Situation as OddsSituation
from oprlab.analysis.odds import attack_odds
from oprlab.mechanics.d6 import D6
from oprlab.prob import mean
from oprlab.rules.gff import melee as gff_melee
from oprlab.rules.gff.attack import Situation as GffSituation
from oprlab.rules.gff.exact import attack_odds as gff_exact
from oprlab.rules.gff.fast import attack_odds_fast as gff_fast
from oprlab.rules.gff.profile import attack_profiles as gff_profiles
from oprlab.rules.gff.profile import defender_profile as gff_defender
from oprlab.rules.riverside.attack import Situation as RivSituation
from oprlab.rules.riverside.exact import attack_odds as riv_exact
from oprlab.rules.riverside.fast import attack_odds_fast as riv_fast
from oprlab.rules.riverside.melee import melee_strikes
from oprlab.rules.riverside.profile import attack_profiles as riv_profiles
from oprlab.rules.riverside.profile import defender_profile as riv_defender
from oprlab.rules.weapon_lines import lines, share_out
from oprlab.units.load import parse_army
from oprlab.units.model import Unit

FURIOUS_ONE = "Att [5] Q4+ D4+ | 10pts | 1x Furious\n5x CCW (A1)"
FURIOUS_ALL = "Att [5] Q4+ D4+ | 10pts | Furious\n5x CCW (A1)"
GOOD_SHOT_ONE = 'Gunners [5] Q5+ D4+ | 10pts | 1x Good Shot\n5x Rifle (24", A1)'
TARGET = "Mob [8] Q4+ D4+ | 20pts\n8x Knife (A1)"


def unit(text: str) -> Unit:
    return parse_army(f"++ Test [GFF 150pts] ++\n\n{text}\n", "test").units[0]


CHARGE = GffSituation(melee=True, charging=True)


def test_lines_split_a_weapon_between_the_models_with_and_without_the_rule() -> None:
    """seed 003 "Furious": one model of five has it: one CCW carries it, four do not."""
    split = lines(unit(FURIOUS_ONE))
    assert [(w.count, w.has("Furious")) for w in split] == [(1, True), (4, False)]
    assert lines(unit(FURIOUS_ALL)) == unit(FURIOUS_ALL).weapons  # every model: unchanged
    # Three models left (the Furious one kept while half the unit is), two of them striking.
    assert [(w.count, w.has("Furious")) for w in lines(unit(FURIOUS_ONE), alive=3)] == [
        (1, True),
        (2, False),
    ]
    assert [(w.count, w.has("Furious")) for w in lines(unit(FURIOUS_ONE), alive=2)] == [(2, False)]


def test_lines_remembered_by_identity_answer_each_unit_and_count() -> None:
    """Lines are remembered by the unit's and weapons' identity (hashing a frozen Unit is
    slow): asked again, the same lines; another unit equal but for one rule, another number of
    models or attackers, or fewer weapon lines get their own (seed 003 "Furious": a unit rule
    of every model stays off the lines; one attacker of three rounds the one rule away)."""
    one, every = unit(FURIOUS_ONE), unit(FURIOUS_ALL)
    first = lines(one, alive=3)
    assert lines(one, alive=3) is first
    assert [(w.count, w.has("Furious")) for w in lines(every, alive=3)] == [(3, False)]
    assert [(w.count, w.has("Furious")) for w in lines(one, alive=3, attacking=1)] == [(1, False)]
    assert [(w.count, w.has("Furious")) for w in lines(one, alive=5)] == [(1, True), (4, False)]
    assert lines(one, (), alive=3) == ()


@pytest.mark.parametrize(
    ("text", "expected"), [(FURIOUS_ONE, Fraction(8, 3)), (FURIOUS_ALL, Fraction(10, 3))]
)
def test_gff_furious_one_model_exact_fast_and_sampled(text: str, expected: Fraction) -> None:
    """seed 003 "Furious": 8/3 hits with one Furious model, 10/3 with five (worked above)."""
    att, target = unit(text), gff_defender(unit(TARGET))
    profiles = gff_profiles(att, [w for w in att.weapons if w.melee])
    assert mean(gff_exact(profiles, target, CHARGE, D6()).hits) == expected
    fast = gff_fast(profiles, target, CHARGE, D6())
    assert float(np.dot(np.arange(fast.hits.size), fast.hits)) == pytest.approx(float(expected))
    sampled = simulate_attacks(profiles, target, CHARGE, 40_000, np.random.default_rng(3))
    assert float(sampled.hits.mean()) == pytest.approx(float(expected), abs=0.03)


def test_gff_furious_one_model_in_the_odds_command_and_the_exchange() -> None:
    """The odds layer and the melee exchange read the same split: 8/3 hits on the charge."""
    att, target = unit(FURIOUS_ONE), unit(TARGET)
    odds = attack_odds(att, target, situation=OddsSituation(melee=True, charging=True))
    assert odds.hits.mean == pytest.approx(8 / 3)
    strike = gff_melee.strikes(att, 5)
    assert [(p.dice, p.furious) for p in strike] == [(1, True), (4, False)]
    result = gff_melee.exchange_outcomes(att, target, D6(), strike_back=False)
    # 8/3 hits, each a wound on a failed D4+ block (1/2): 4/3 wounds dealt on average.
    assert mean(result.map(lambda r: r.attacker.wounds_dealt)) == Fraction(4, 3)


def test_gff_relentless_one_model() -> None:
    """seed 003 "Relentless" ("When this model shoots at enemies over 9" away"): one of five
    models: 4 x 1/2 + (1/2 + 1/6) = 8/3 hits at 12"; at 6" no extra hit: 5/2."""
    att = unit('Gunners [5] Q4+ D4+ | 10pts | 1x Relentless\n5x Rifle (24", A1)')
    target = gff_defender(unit(TARGET))
    profiles = gff_profiles(att)
    far, near = GffSituation(distance=12.0), GffSituation(distance=6.0)
    assert mean(gff_exact(profiles, target, far, D6()).hits) == Fraction(8, 3)
    assert mean(gff_exact(profiles, target, near, D6()).hits) == Fraction(5, 2)


def test_gff_counter_one_model_strikes_first_with_its_own_weapon() -> None:
    """seed 003 "Counter" ("Strikes first with this weapon when charged"): written ``1x
    Counter`` on a unit of five, only that model's spear strikes first; its Impact penalty
    counts that one model."""
    guard = unit("Guard [5] Q4+ D4+ | 10pts | 1x Counter\n5x Spear (A1)")
    assert [p.dice for p in gff_melee.strikes(guard, 5, counter=True)] == [1]
    assert [p.dice for p in gff_melee.strikes(guard, 5, counter=False)] == [4]
    assert gff_melee.counter_models_left(guard, 5) == 1


def test_riverside_good_shot_one_model() -> None:
    """seed 002 Example 1: Good Shot replaces the model's Quality 5 with 4+: 11/6 hits with
    one Good Shot model of five, 5/2 with all (worked above); exact, fast and the odds command."""
    att, target = unit(GOOD_SHOT_ONE), riv_defender(unit(TARGET))
    profiles = riv_profiles(att)
    s = RivSituation(distance=12.0)
    assert mean(riv_exact(profiles, target, s, D6()).hits) == Fraction(11, 6)
    fast = riv_fast(profiles, target, s, D6())
    assert float(np.dot(np.arange(fast.hits.size), fast.hits)) == pytest.approx(11 / 6)
    assert attack_odds(att, unit(TARGET), system="riverside").hits.mean == pytest.approx(11 / 6)
    every = unit(GOOD_SHOT_ONE.replace("1x Good Shot", "Good Shot"))
    assert mean(riv_exact(riv_profiles(every), target, s, D6()).hits) == Fraction(5, 2)


def test_riverside_furious_and_shooty_one_model() -> None:
    """seed 002 "Furious" and "Shooty": a Critical Hit (a 6) of the model with the rule brings
    one Bonus Hit: 4 x 1/2 + (1/2 + 1/6) = 8/3 at Q4+, in the charge and in shooting."""
    target = riv_defender(unit(TARGET))
    furious = unit(FURIOUS_ONE)
    charge = RivSituation(melee=True, charging=True)
    assert mean(riv_exact(melee_strikes(furious, 5), target, charge, D6()).hits) == Fraction(8, 3)
    shooty = unit('Gunners [5] Q4+ D4+ | 10pts | 1x Shooty\n5x Rifle (24", A1)')
    assert mean(riv_exact(riv_profiles(shooty), target, RivSituation(), D6()).hits) == Fraction(
        8, 3
    )


def test_riverside_extra_shooty_gives_the_whole_unit_shooty() -> None:
    """seed 002 "Extra Shooty": "This model and its unit have Shooty"; "If they already had
    Shooty, Shooty now Critically Hits on a 5 or 6": only the model that had Shooty widens."""
    extra = unit('Gunners [5] Q4+ D4+ | 10pts | 1x Extra Shooty\n5x Rifle (24", A1)')
    assert all(p.shooty and p.critical_from == 6 for p in riv_profiles(extra))
    both = unit('Gunners [5] Q4+ D4+ | 10pts | 1x Shooty, 1x Extra Shooty\n5x Rifle (24", A1)')
    assert [(p.dice, p.shooty, p.critical_from) for p in riv_profiles(both)] == [
        (1, True, 5),
        (4, True, 6),
    ]


def test_riverside_impact_in_the_charge_odds() -> None:
    """seed 002 "Morale Tests" (Impact applies its wounds "during that attack's resolution"),
    read as in GFF (``impact="with_attack"``): Impact(3) and a CCW (A1) at Q4+ charging D6+
    models: 3 Impact dice at 2+ (5/6 each) and one die at 4+: 5/2 + 1/2 = 3 hits."""
    brute = unit("Brute [1] Q4+ D4+ | 20pts | Impact(3)\nCCW (A1)")
    mob = unit("Mob [5] Q4+ D6+ | 20pts\n5x Knife (A1)")
    charge = attack_odds(
        brute, mob, system="riverside", situation=OddsSituation(melee=True, charging=True)
    )
    assert charge.hits.mean == pytest.approx(3.0)
    plain = attack_odds(brute, mob, system="riverside", situation=OddsSituation(melee=True))
    assert plain.hits.mean == pytest.approx(0.5)  # no charge, no Impact
    tired = OddsSituation(melee=True, charging=True, fatigued=True)
    assert attack_odds(brute, mob, system="riverside", situation=tired).hits.mean == (
        pytest.approx(1 / 6)  # Fatigued: no Impact, and only 6s hit
    )


def test_share_out_spreads_evenly_and_adds_up() -> None:
    """The dice a game gives to the shooters over 9" (or those the target has Cover from)
    are spread over a line's pieces: each its share, the rest by largest remainder."""
    assert share_out(2, [1, 4]) == [0, 2]
    assert share_out(3, [1, 4]) == [1, 2]
    assert share_out(5, [1, 4]) == [1, 4]
    for k in range(8):
        parts = share_out(k, [2, 3, 2])
        assert sum(parts) == k and all(0 <= p <= s for p, s in zip(parts, [2, 3, 2], strict=True))
