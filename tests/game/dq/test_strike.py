"""One attack in a DragonQuest duel, from the dice to its last consequence (seed
001_7377b7b33dc9f88d: Steps, Table 1, Table 2, Armour Definition, Evading, 57.3), with every die
chosen by the test and every expected number worked out by hand."""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game.dq.state import Fight, Harm, Out, Status, StrikeRecord
from oprlab.rules.dq.combat import AttackKind
from oprlab.rules.dq.duel_rules import DuelRules
from oprlab.units.dq_fighter import DqFighter
from tests.game.dq import choose, engaged, fighter, fresh, roll, rolls, waiting

# A acts first (PC 16): SC 50 + 15 = 65 (Table 1: Average 65, Better 26, Crucial 13, Decisive 7).
A = fighter("A", pc=16, modifier=2)
# B: Defence 15 (Average 15, Better 6, Crucial 3, Decisive 2), armour FT 2, EN 1; FT 5, EN 10.
B = fighter("B", ft=5, en=10, armour=(2, 1, 0))


def _attack(
    kind: AttackKind = AttackKind.STRIKE,
    a: DqFighter = A,
    b: DqFighter = B,
    rules: DuelRules | None = None,
    status: tuple[Status, Status] | None = None,
) -> Fight:
    fight = engaged(a, b, rules, status=status)
    return choose(fight, "attack", kind)


def _strike(events: Sequence[object]) -> StrikeRecord:
    return next(e for e in events if isinstance(e, StrikeRecord))


def test_opposed_strike_to_endurance_stun_and_grievous() -> None:
    """Steps 1-4: attack D100 5 at SC 65 is Decisive (<= 7), defence D100 60 at 15 is Poor:
    result 4, "Endurance & Possible Spec Grievous", EN armour: D10 7 + 2 - 1 = 8 EN. B is
    stunned (stand-in: Endurance lost stuns) and a grievous injury is possible (stand-in D10 6+:
    a D10 of 4 more EN, no armour)."""
    fight, events = rolls(_attack(), 5, 60, 7)
    strike = _strike(events)
    assert (strike.attack_quality, strike.defence_quality, strike.level) == (4, 0, 4)
    assert (strike.strike_chance, strike.defence) == (65, 15)
    assert fight.status[1].en == 2 and fight.status[1].stunned
    assert waiting(fight) == "GrievousCheck"
    none, _ = roll(fight, 5)
    assert none.status[1].en == 2
    hurt, events = rolls(fight, 6, 4)
    harm = [e for e in events if isinstance(e, Harm)]
    assert harm[-1].endurance == 4 and harm[-1].source == "grievous injury"
    assert hurt.status[1].out == Out.DEAD and hurt.winner == 0


def test_fatigue_spills_into_endurance() -> None:
    """Table 2 level 1 "Fatigue" with FT armour: D10 6 + 2 - 2 = 6 fatigue; B has 5 FT left,
    so 1 goes to EN (and stuns, by the stand-in)."""
    fight, events = rolls(_attack(), 40, 60, 6)
    assert _strike(events).level == 1
    harm = next(e for e in events if isinstance(e, Harm))
    assert (harm.fatigue, harm.endurance) == (5, 1)
    assert fight.status[1].ft == 0 and fight.status[1].en == 9 and fight.status[1].stunned


def test_maximum_fatigue_and_maximum_endurance() -> None:
    """Level 2 "Maximum Fatigue": 12 - FT 2 = 10, no die. Level 5 (SC 150: Excellent within
    10% of 50 = 5) "Maximum Endurance", no armour: 12 EN."""
    fatigue, events = rolls(_attack(status=(fresh(A), Status(ft=20, en=10))), 20, 60)
    assert _strike(events).level == 2 and fatigue.status[1].ft == 10
    strong = fighter("A", pc=16, modifier=2, magic_strike=85)  # SC 150
    fight = _attack(a=strong, status=(fresh(strong), Status(ft=20, en=30)))
    fight, events = rolls(fight, 5, 60)
    assert _strike(events).level == 5
    assert fight.status[1].en == 30 - 12


def test_current_rules_one_roll() -> None:
    """Current rules: SC 65 - Defence 15 = 50; D100 3 is within 5% (3): an endurance hit with a
    possible grievous (level 4); no defence roll."""
    fight, events = rolls(_attack(rules=DuelRules(resolution="current")), 3)
    strike = _strike(events)
    assert strike.level == 4 and strike.attack_quality is None and strike.defence_roll is None
    assert waiting(fight) == "Hit"


def test_knockout() -> None:
    """57.3 "Knockout: Must get a Result Quality of 3 or better": Crucial (D100 10) against a
    Poor defence knocks B out; a Fatigue result (D100 40) only hurts."""
    out, _ = rolls(_attack(AttackKind.KNOCKOUT), 10, 60)
    assert out.status[1].out == Out.KNOCKED_OUT and out.over and out.winner == 0
    hurt, _ = rolls(_attack(AttackKind.KNOCKOUT), 40, 60, 6)
    assert hurt.status[1].out is None and hurt.status[1].ft == 0


def test_disarm() -> None:
    """57.3 "Disarm: -20 to strike chance. MD + Rank to avoid": SC 45; B avoids on D100 15 or
    less (MD 15, Rank 0). Disarmed, B spends its next action readying its weapon."""
    fight, events = rolls(_attack(AttackKind.DISARM), 40, 60)
    assert _strike(events).strike_chance == 45
    assert waiting(fight) == "Avoid"
    kept, _ = roll(fight, 15)
    assert not kept.status[1].disarmed
    lost, events = roll(fight, 16)
    assert not lost.status[1].disarmed  # B's action came: it readied the weapon
    assert any("readies its weapon" in e.text for e in events)
    assert any("is disarmed" in e.text for e in events)


def test_shield_rush_and_the_prone_defender() -> None:
    """57.3 "Shield Rush: Normal SC and damage. 3 x AG to avoid": hit for D10 + 2 - FT 2, then B
    is knocked down unless D100 <= 45. The next strike at a prone B is at +20 (57.1)."""
    rusher = fighter("A", pc=16, modifier=2, shield=10)
    status = (fresh(rusher), Status(ft=20, en=10))
    fight, _ = rolls(_attack(AttackKind.SHIELD_RUSH, a=rusher, status=status), 40, 60, 6)
    assert fight.status[1].ft == 20 - 6 and waiting(fight) == "Avoid"
    fight, events = roll(fight, 46)
    assert any("knocked down" in e.text for e in events)
    assert any("stands up" in e.text for e in events)  # B's action
    fight = fight.with_status(1, prone=True)
    fight, events = rolls(choose(fight, "attack", AttackKind.STRIKE), 90, 90)
    assert _strike(events).strike_chance == 65 + 20


def test_trip() -> None:
    """57.3 "Trip: Weapon BC reduced to 40%, and Damage to D10. 3 x AG to avoid": SC 40 + 15 =
    55; D10 6 - FT 2 = 4 fatigue (no weapon modifier); falls unless D100 <= 45."""
    status = (fresh(A), Status(ft=20, en=10))
    fight, events = rolls(_attack(AttackKind.TRIP, status=status), 40, 60, 6)
    assert _strike(events).strike_chance == 55 and fight.status[1].ft == 16
    _, events = roll(fight, 46)
    assert any("knocked down" in e.text for e in events)
    assert any("stands up" in e.text for e in events)  # B's action: it stands
    _, events = roll(fight, 45)
    assert not any("knocked down" in e.text for e in events)


def test_entangle() -> None:
    """57.3 "Entangle: Normal SC. 3 x AG to avoid": no damage; entangled, B spends its next
    action freeing itself."""
    whip = fighter("A", pc=16, entangling=True)
    fight, _ = rolls(_attack(AttackKind.ENTANGLE, a=whip), 40, 60)
    assert fight.status[1].ft == 5 and waiting(fight) == "Avoid"
    _, events = roll(fight, 46)
    assert any("entangled" in e.text for e in events)
    assert any("frees itself" in e.text for e in events)


def test_restrain() -> None:
    """57.3 "Restrain: 3 x ((PS+AG of attacker) - (PS+AG of defender))": (25 + 15) - (15 + 15)
    = 10, so D100 30 or less; no strike roll."""
    strong = fighter("A", pc=16, ps=25)
    fight = _attack(AttackKind.RESTRAIN, a=strong)
    assert waiting(fight) == "RestrainRoll"
    held, _ = roll(fight, 30)
    assert held.status[1].out == Out.RESTRAINED and held.winner == 0
    free, _ = roll(fight, 31)
    assert free.status[1].out is None


def test_trample() -> None:
    """57.3 "Trample (by multihex figure): Automatic knockdown. BC 40. Damage [D+(size in
    hexes)]": a 2-hex A strikes at 40 + 15 = 55; B is down at once and takes D10 + 2."""
    troll = fighter("A", pc=16, hexes=2, modifier=6)
    status = (fresh(troll), Status(ft=20, en=10))
    fight = _attack(AttackKind.TRAMPLE, a=troll, status=status)
    fight, events = rolls(fight, 40, 60)
    assert _strike(events).strike_chance == 55
    assert fight.status[1].prone and waiting(fight) == "Hit"
    fight, _ = roll(fight, 6)
    assert fight.status[1].ft == 20 - (6 + 2 - 2)


def _evading(rules: DuelRules | None = None) -> Fight:
    """B (Rank 2, PC 17: acts first) evades; A then strikes at Defence 15 + 10 + 4 x 2 = 33."""
    evader = fighter("B", pc=17, rank=2)
    fight = engaged(A, evader, rules)
    fight = choose(fight, "evade")
    return choose(fight, "attack", AttackKind.STRIKE)


def test_evading_parry_results() -> None:
    """seed 001 "Evading": A's Average (D100 60) against B's Decisive (D100 3 at 33: Decisive
    within 4) is two better: B may parry. 57.3 "Parry result: D10 + evader's Rank - attacker's
    Rank": 1 + 2 = 3, a parry (B must pass next); 2 + 2 = 4, A disarmed and 1 EN; 6 + 2 = 8,
    disarmed, 1 EN, and B ripostes."""
    fight, events = rolls(_evading(), 60, 3)
    strike = _strike(events)
    assert strike.defence == 33 and strike.parry_allowed and strike.evading
    assert waiting(fight) == "ParryChoice"
    fight = choose(fight, "parry")
    parried, events = roll(fight, 1)
    assert not parried.status[0].disarmed
    assert any("passes (it must)" in e.text for e in events)  # B's next action, round 3
    disarmed, _ = roll(fight, 2)
    assert disarmed.status[0].disarmed and disarmed.status[0].en == 15 - 1
    riposte, _ = roll(fight, 6)
    assert riposte.status[0].disarmed and waiting(riposte) == "AttackRoll"
    _, events = rolls(riposte, 90, 90)
    assert "(riposte)" in _strike(events).text
    declined = choose(rolls(_evading(), 60, 3)[0], "decline")
    assert waiting(declined) == "Choose"


def test_current_parry_needs_a_miss_by_30() -> None:
    """Current rules: SC 65 - Defence 33 = 32; D100 61 misses by 29 (no parry), 62 by 30."""
    rules = DuelRules(resolution="current")
    _, events = rolls(_evading(rules), 61)
    assert not _strike(events).parry_allowed
    fight, events = rolls(_evading(rules), 62)
    assert _strike(events).parry_allowed and waiting(fight) == "ParryChoice"


def test_fumble() -> None:
    """57.3 "Fumble" on a natural 00 (our stand-in trigger): A's next initiative is 10 lower,
    and A escapes the (stand-in) Fumble Table on D100 <= 31 - 10 = 21; else D10 6-8 drops the
    weapon."""
    fight, events = rolls(_attack(), 100, 50)
    assert _strike(events).fumble and _strike(events).level == 0
    assert waiting(fight) == "FumbleCheck"
    safe, _ = roll(fight, 21)
    assert safe.status[0].initiative_penalty == 10 and not safe.status[0].disarmed
    dropped, _ = rolls(fight, 22, 7)
    assert dropped.status[0].disarmed


def test_assassin_takes_its_bonus_off_the_roll() -> None:
    """seed 001 "Assassin": the bonus is a dice modifier. Rank 9 from the front: 3 off the roll,
    so D100 10 at SC 65 counts as 7: Decisive instead of Crucial."""
    killer = fighter("A", pc=16, assassin=9)
    _, events = rolls(_attack(a=killer), 10, 60)
    assert _strike(events).attack_quality == 4 and _strike(events).roll_modifier == 3
    _, events = rolls(_attack(), 10, 60)
    assert _strike(events).attack_quality == 3
