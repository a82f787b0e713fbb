"""The playtest's stated intents checked on whole fights (seed 001_7377b7b33dc9f88d, "Why?").

:mod:`oprlab.analysis.dq_playtest` checks each "Why?" one strike at a time over a grid of numbers;
here each becomes a claim about played duels between the shipped archetypes, measured on the
strikes and fights those duels contain, with 95% intervals. A change of the playtest is measured
against the playtest without that change (rule option ``ladder``), and claims stated against the
current rules against the current rules, as in the per-strike checks. The pairings, the measures
and the verdict rules are in each claim's text; ``docs/rules/dq.md`` shows the numbers.

Strikes of one fight are counted as separate trials: each strike's dice are fresh, so its outcome
is independent of the others given its strike chance and Defence.

May import every layer below ``analysis`` and ``oprlab.analysis``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from oprlab.analysis.dq_duel import FightSummary, difference, play_series, summarize
from oprlab.analysis.dq_playtest import Claim
from oprlab.analysis.stats import Interval, mean_interval, wilson
from oprlab.errors import OptionError
from oprlab.game.dq.state import Duel, StrikeRecord
from oprlab.mechanics.dq import CRUCIAL, DECISIVE, NATURAL_00, NATURAL_01, success_quality
from oprlab.mechanics.dq import percent_of as _percent_of
from oprlab.players.dq_habits import DuelHabits
from oprlab.prob import Dist
from oprlab.rules.dq.combat import defence, strike_chance
from oprlab.rules.dq.duel_rules import DuelRules
from oprlab.rules.dq.resolution import Ladder, Resolution, p_lands, strike_outcome_dist
from oprlab.units.dq_fighter import DqFighter

__all__ = ["ARCHETYPES", "EVADER_ROUNDS", "Played", "fight_claims", "shortcut_quality"]

#: The shipped archetypes the claims pit against each other (``oprlab.samples`` ``dq/NAME``).
ARCHETYPES = ("novice", "knight", "master", "champion", "brute", "cutthroat")
#: An evader fights defensively every round; its duels are cut at this many rounds (a draw).
EVADER_ROUNDS = 20


@dataclass(frozen=True)
class FightClaim(Claim):
    """A claim checked on played fights. ``passed``: ``True`` the effect is shown (its 95%
    interval lies on the claimed side), ``False`` the opposite is shown, ``None`` the duels
    played cannot tell (the interval holds 0): "NOT SHOWN", with the exact per-strike effect
    among the numbers where one applies."""

    @property
    def verdict(self) -> str:
        return {True: "PASS", False: "FAIL", None: "NOT SHOWN"}[self.passed]


@dataclass(frozen=True)
class Played:
    """The duels of one pairing under one set of rules: each fight and its strikes."""

    fights: tuple[FightSummary, ...]
    strikes: tuple[tuple[StrikeRecord, ...], ...]

    def by(self, side: int) -> list[StrikeRecord]:
        """Every strike ``side`` made."""
        return [s for fight in self.strikes for s in fight if s.side == side]


def _iv(i: Interval) -> list[float]:
    return [round(i.estimate, 4), round(i.low, 4), round(i.high, 4)]


def _rate(items: Sequence[StrikeRecord], hit: Callable[[StrikeRecord], bool]) -> Interval:
    return wilson(sum(hit(s) for s in items), max(1, len(items)))


def _mean(values: Sequence[float]) -> Interval:
    n = max(1, len(values))
    return mean_interval(sum(values), sum(v * v for v in values), n, floor=0.0)


def shortcut_quality(roll: int, chance: int, roll_modifier: int = 0) -> int:
    """Table 1 by the playtest's own shortcut ("Quality 4 is percentage chance/10, 3 is twice
    that and 2 is twice that again"): Decisive within SC/10 rounded up, Crucial within twice
    that, Better within twice that again; the other levels as Table 1."""
    if roll == NATURAL_00:
        return 0
    r = roll - roll_modifier
    t4 = _percent_of(chance, 10)
    levels = [chance, 4 * t4, 2 * t4, t4]
    if chance > 100:
        levels.append(_percent_of(chance - 100, 10))
    if chance > 200:
        levels.append(_percent_of(chance - 200, 10))
    quality = 0
    for level, threshold in enumerate(levels, start=1):
        if r <= threshold:
            quality = level
    return max(4, quality) if roll == NATURAL_01 else quality


class _Lab:
    """Plays and remembers the series the claims need (each pairing and rules once)."""

    def __init__(self, fighters: Mapping[str, DqFighter], games: int, seed: int) -> None:
        self.fighters = fighters
        self.games = games
        self.seed = seed
        self._played: dict[tuple[Any, ...], Played] = {}

    def play(
        self,
        a: str | DqFighter,
        b: str | DqFighter,
        resolution: Resolution = "opposed",
        ladder: Ladder = "full",
        *,
        b_evades: bool = False,
    ) -> Played:
        fa = self.fighters[a] if isinstance(a, str) else a
        fb = self.fighters[b] if isinstance(b, str) else b
        key = (fa, fb, resolution, ladder, b_evades)
        if key not in self._played:
            rules = DuelRules(resolution=resolution, ladder=ladder)
            if b_evades:
                rules = replace(rules, max_rounds=EVADER_ROUNDS)
            commanders = (DuelHabits(), DuelHabits("evader" if b_evades else "habits"))
            fights, strikes = [], []
            for seed, fight, events in play_series(
                Duel((fa, fb), rules), commanders, self.games, self.seed
            ):
                fights.append(summarize(seed, fight, events))
                strikes.append(tuple(e for e in events if isinstance(e, StrikeRecord)))
            self._played[key] = Played(tuple(fights), tuple(strikes))
        return self._played[key]

    def all_strikes(self) -> Iterable[StrikeRecord]:
        for played in self._played.values():
            for fight in played.strikes:
                yield from fight


def _no_subtraction(lab: _Lab) -> Claim:
    opp, cur = lab.play("knight", "novice"), lab.play("knight", "novice", "current")
    per_fight = _mean([len(f) for f in cur.strikes])
    operands = [
        q for f in opp.strikes for s in f for q in (s.attack_quality, s.defence_quality) if q
    ]
    return FightClaim(
        "no_subtraction",
        "Defence is rolled rather than subtracted (why 1)",
        "a fight needs no Strike Chance - Defence subtraction; what is left to subtract is two "
        "qualities of 0 to 6",
        "knight against novice: SC - Defence subtractions per fight under the current rules "
        "(one per strike) and under the playtest (none); the largest quality subtracted",
        {
            "current_subtractions_per_fight": _iv(per_fight),
            "opposed_subtractions_per_fight": 0,
            "opposed_largest_quality": max(operands, default=0),
            "opposed_strikes_per_fight": _iv(_mean([len(f) for f in opp.strikes])),
        },
        max(operands, default=0) <= 6,
    )


def _defence_unknown(lab: _Lab) -> Claim:
    cur = lab.play("knight", "novice", "current")
    told = [len({(s.side, s.defence) for s in f}) for f in cur.strikes]
    changed = [len({s.defence for s in f if s.side == 0}) > 1 for f in cur.strikes]
    return FightClaim(
        "defence_unknown",
        "Defence is rolled rather than subtracted (why 2)",
        "the attacker need not know the defender's Defence, which changes during a fight",
        "knight against novice under the current rules: distinct Defence values the attackers "
        "had to be told per fight, and the share of fights in which the novice's Defence changed "
        "(stunned, out of Fatigue, withdrawing); under the playtest each side rolls against its "
        "own numbers (0 told)",
        {
            "current_defences_told_per_fight": _iv(_mean(told)),
            "current_share_defence_changed": _iv(wilson(sum(changed), len(changed))),
            "opposed_defences_told_per_fight": 0,
        },
        True,
    )


def _predetermined(lab: _Lab) -> Claim:
    sc = strike_chance(lab.fighters["knight"])
    exact = sum(success_quality(r, sc) >= CRUCIAL for r in range(1, 101)) / 100
    numbers: dict[str, Any] = {"strike_chance": sc, "exact_p_attack_crucial": exact}
    inside = True
    for foe in ("novice", "master", "brute"):
        plain = [s for s in lab.play("knight", foe).by(0) if s.strike_chance == sc]
        rate = _rate(plain, lambda s: (s.attack_quality or 0) >= CRUCIAL)
        inside &= abs(rate.estimate - exact) <= 3 * math.sqrt(exact * (1 - exact) / rate.n)
        current = [s for s in lab.play("knight", foe, "current").by(0) if s.strike_chance == sc]
        numbers[f"vs_{foe}"] = {
            "opposed_p_attack_crucial": _iv(rate),
            "current_p_endurance_hit": _iv(_rate(current, lambda s: s.level >= CRUCIAL)),
        }
    return FightClaim(
        "predetermined",
        "Defence is rolled rather than subtracted (why 3)",
        "the chance of a special attack quality is set by the Strike Chance alone",
        "the knight's strikes at its plain SC against three opponents: P(attack quality >= "
        "Crucial) observed against each, which must each be within 3 standard errors of the "
        "exact Table 1 figure; beside it, the current rules' P(endurance hit), which depends "
        "on the opponent",
        numbers,
        inside,
    )


def _natural(
    played: Played,
    side: int,
    cells: Callable[[StrikeRecord], bool],
    event: Callable[[StrikeRecord], bool],
    natural: int,
) -> tuple[Interval, int, int]:
    strikes = [s for s in played.by(side) if cells(s)]
    rate = _rate(strikes, event)
    beyond = sum(event(s) and s.attack_roll != natural for s in strikes)
    return rate, beyond, len(strikes)


def _miss_at_plus_100(lab: _Lab) -> Claim:
    def far(s: StrikeRecord) -> bool:
        return s.strike_chance - s.defence >= 100

    def miss(s: StrikeRecord) -> bool:
        return s.level == 0

    opp = _natural(lab.play("master", "novice"), 0, far, miss, NATURAL_00)
    cur = _natural(lab.play("master", "novice", "current"), 0, far, miss, NATURAL_00)
    return FightClaim(
        "miss_at_plus_100",
        "Defence is rolled rather than subtracted (why 4)",
        "an attacker can miss with SC 100 or more above the Defence, not only on a natural 00",
        "master against novice: the master's strikes at SC - Defence >= 100; misses, and misses "
        "on any roll but 00: some under the playtest, none under the current rules",
        {
            "opposed": {"strikes": opp[2], "p_miss": _iv(opp[0]), "misses_not_on_00": opp[1]},
            "current": {"strikes": cur[2], "p_miss": _iv(cur[0]), "misses_not_on_00": cur[1]},
        },
        opp[1] > 0 and cur[1] == 0 if opp[2] and cur[2] else None,
    )


def _hits_above(played: Played) -> tuple[Interval, int, int]:
    return _natural(
        played, 0, lambda s: s.defence > s.strike_chance, lambda s: s.level >= 1, NATURAL_01
    )


def _hit_above_sc(lab: _Lab) -> Claim:
    opp = _hits_above(lab.play("novice", "master", b_evades=True))
    cur = _hits_above(lab.play("novice", "master", "current", b_evades=True))
    return FightClaim(
        "hit_above_sc",
        "Defence is rolled rather than subtracted (why 5)",
        "an attacker can hit a Defence above its SC, not only on a natural 01",
        "novice against an evading master (Defence above the novice's SC): the novice's hits, "
        "and hits on any roll but 01: some under the playtest, none under the current rules",
        {
            "opposed": {"strikes": opp[2], "p_hit": _iv(opp[0]), "hits_not_on_01": opp[1]},
            "current": {"strikes": cur[2], "p_hit": _iv(cur[0]), "hits_not_on_01": cur[1]},
        },
        opp[1] > 0 and cur[1] == 0 if opp[2] and cur[2] else None,
    )


def _shown(
    numbers: dict[str, Any], key: str, a: Interval, b: Interval, *, higher: bool
) -> bool | None:
    """Whether ``a - b`` (two independent estimates) is shown to be above 0 (``higher``) or
    below it: ``True`` shown, ``False`` the opposite shown, ``None`` the interval holds 0. The
    difference and its 95% interval go into ``numbers[key]``."""
    d = difference(key, a, b)
    numbers[key] = [round(d.diff, 4), round(d.low, 4), round(d.high, 4)]
    sign = 1 if higher else -1
    low, high = sorted((sign * d.low, sign * d.high))
    if low > 0:
        return True
    if high < 0:
        return False
    return None


def _per_round(played: Played, side: int) -> Interval:
    return _mean([f.damage[side] / f.rounds for f in played.fights])


def _deaths(played: Played) -> Interval:
    return wilson(sum(f.ending == "dead" for f in played.fights), len(played.fights))


def _exact(lab: _Lab, a: str, b: str, ladder: Ladder) -> Dist[tuple[int, bool]]:
    """The exact outcome law of ``a``'s plain strike at ``b``'s plain front Defence."""
    return strike_outcome_dist(
        strike_chance(lab.fighters[a]),
        defence(lab.fighters[b]),
        resolution="opposed",
        ladder=ladder,
    )


def _low_sc_hits(lab: _Lab) -> Claim:
    full = lab.play("novice", "master", b_evades=True)
    alone = lab.play("novice", "master", ladder="no_better", b_evades=True)
    with_, without = _hits_above(full)[0], _hits_above(alone)[0]
    numbers: dict[str, Any] = {"p_hit_with": _iv(with_), "p_hit_without": _iv(without)}
    passed = _shown(numbers, "p_hit_difference", with_, without, higher=True)
    numbers["novice_damage_per_round_with"] = _iv(_per_round(full, 0))
    numbers["novice_damage_per_round_without"] = _iv(_per_round(alone, 0))
    return FightClaim(
        "low_sc_hits",
        "An additional quality of result is added (why 1)",
        "low strike chance attackers have a chance of hitting higher Defences",
        "novice against an evading master: the novice's P(hit) where the Defence is above its "
        "SC (with Better minus without it, ladder=no_better) and its damage per round",
        numbers,
        passed,
    )


def _blocked(played: Played) -> Interval:
    strikes = [s for f in played.strikes for s in f]
    return _rate(strikes, lambda s: (s.attack_quality or 0) >= 1 and s.level == 0)


def _fewer_blocked(lab: _Lab) -> Claim:
    with_ = _blocked(lab.play("knight", "knight"))
    without = _blocked(lab.play("knight", "knight", ladder="no_better"))
    numbers: dict[str, Any] = {"p_blocked_with": _iv(with_), "p_blocked_without": _iv(without)}
    passed = _shown(numbers, "p_blocked_difference", with_, without, higher=False)
    return FightClaim(
        "fewer_blocked",
        "An additional quality of result is added (why 2)",
        "fewer blocked (1-1=0) results",
        "knight against knight: the share of strikes that succeeded on their own (attack quality "
        ">= 1) but were blocked, with Better minus without it",
        numbers,
        passed,
    )


def _high(lab: _Lab) -> tuple[Played, Played]:
    return lab.play("champion", "knight"), lab.play("champion", "knight", ladder="no_high")


def _fewer_misses(lab: _Lab) -> Claim:
    full, capped = _high(lab)
    with_ = _rate(full.by(0), lambda s: s.level == 0)
    without = _rate(capped.by(0), lambda s: s.level == 0)
    numbers: dict[str, Any] = {"p_miss_with": _iv(with_), "p_miss_without": _iv(without)}
    passed = _shown(numbers, "p_miss_difference", with_, without, higher=False)
    exact = [
        float(1 - p_lands(_exact(lab, "champion", "knight", ladder)))
        for ladder in ("full", "no_high")
    ]
    numbers["exact_plain_p_miss_with"], numbers["exact_plain_p_miss_without"] = (
        round(exact[0], 4),
        round(exact[1], 4),
    )
    numbers["rounds_with"] = _iv(_mean([f.rounds for f in full.fights]))
    numbers["rounds_without"] = _iv(_mean([f.rounds for f in capped.fights]))
    return FightClaim(
        "fewer_misses_high_sc",
        "Qualities for strike chances above 100 and 200 (why 1)",
        "high strike chance attackers are blocked less often by lower Defences",
        "champion (SC above 200) against knight: the champion's P(miss) per strike with "
        "Excellent/Fantastic minus without them (ladder=no_high), the exact figure for its plain "
        "strike at the knight's plain Defence, and the rounds a fight lasts",
        numbers,
        passed,
    )


def _all_shown(verdicts: Sequence[bool | None]) -> bool | None:
    """Several measures of one claim: shown if all are, contradicted if any is."""
    if False in verdicts:
        return False
    return True if all(v is True for v in verdicts) else None


def _at_least(level: int) -> Callable[[StrikeRecord], bool]:
    return lambda s: s.level >= level


def _more_en_psg(lab: _Lab) -> Claim:
    full, capped = _high(lab)
    numbers: dict[str, Any] = {}
    verdicts = []
    for name, level in (("endurance", CRUCIAL), ("grievous", DECISIVE)):
        a = _rate(full.by(0), _at_least(level))
        b = _rate(capped.by(0), _at_least(level))
        numbers[f"p_{name}_with"], numbers[f"p_{name}_without"] = _iv(a), _iv(b)
        verdicts.append(_shown(numbers, f"p_{name}_difference", a, b, higher=True))
        exact = [
            float(p_lands(_exact(lab, "champion", "knight", ladder), level))
            for ladder in ("full", "no_high")
        ]
        numbers[f"exact_plain_p_{name}_with"] = round(exact[0], 4)
        numbers[f"exact_plain_p_{name}_without"] = round(exact[1], 4)
    numbers["p_knight_dies_with"] = _iv(_deaths(full))
    numbers["p_knight_dies_without"] = _iv(_deaths(capped))
    passed = _all_shown(verdicts)
    return FightClaim(
        "more_en_psg",
        "Qualities for strike chances above 100 and 200 (why 2)",
        "more Endurance and Possible Spec Grievous results",
        "champion against knight: the champion's P(result >= Crucial) and P(result >= Decisive) "
        "per strike with Excellent/Fantastic minus without them (both must be shown), the exact "
        "figures for its plain strike, and P(the knight dies)",
        numbers,
        passed,
    )


def _easy_thresholds(lab: _Lab) -> Claim:
    rolls = []
    for s in lab.all_strikes():
        if s.attack_quality is None or s.defence_roll is None:
            continue
        rolls.append(
            shortcut_quality(s.attack_roll, s.strike_chance, s.roll_modifier)
            == success_quality(s.attack_roll, s.strike_chance, s.roll_modifier)
        )
        rolls.append(
            shortcut_quality(s.defence_roll, s.defence)
            == success_quality(s.defence_roll, s.defence)
        )
    rate = wilson(sum(rolls), max(1, len(rolls)))
    return FightClaim(
        "easy_thresholds",
        "Percentages changed to 10, 20 and 40% (why 1)",
        "qualities can be found on the fly: Decisive is SC/10, Crucial twice that, Better twice "
        "that again",
        "every attack and defence roll of the playtest's duels above, graded by that shortcut "
        "and by Table 1: the share graded alike (at least 98%)",
        {"rolls": len(rolls), "share_graded_alike": _iv(rate)},
        rate.estimate >= 0.98 if rolls else None,
    )


def _evading(lab: _Lab) -> Claim:
    numbers: dict[str, Any] = {}
    for res in ("opposed", "current"):
        at_evader = [s for s in lab.play("novice", "master", res, b_evades=True).by(0) if s.evading]
        numbers[f"{res}_p_parry"] = _iv(_rate(at_evader, lambda s: s.parry_allowed))
        numbers[f"{res}_strikes"] = len(at_evader)
    return FightClaim(
        "evading_parry",
        "Evading is addressed (the current miss by 30% is no longer meaningful)",
        "an evader still earns parries: a defence quality two better replaces a miss by 30",
        "novice against an evading master: P(the master may parry) per strike at it, under the "
        "playtest and under the current rules",
        numbers,
        numbers["opposed_p_parry"][0] > 0 if numbers["opposed_strikes"] else None,
    )


def _assassin(lab: _Lab) -> Claim:
    cut = lab.fighters["cutthroat"]
    plain = replace(cut, skills=replace(cut.skills, assassin=0))
    numbers: dict[str, Any] = {"assassin_rank": cut.skills.assassin}
    verdicts = []
    for res in ("opposed", "current"):
        with_ = _rate(lab.play(cut, "knight", res).by(0), lambda s: s.level >= DECISIVE)
        without = _rate(lab.play(plain, "knight", res).by(0), lambda s: s.level >= DECISIVE)
        numbers[f"{res}_p_grievous_with"], numbers[f"{res}_p_grievous_without"] = (
            _iv(with_),
            _iv(without),
        )
        verdicts.append(_shown(numbers, f"{res}_difference", with_, without, higher=True))
    passed = _all_shown(verdicts)
    return FightClaim(
        "assassin",
        "Assassin is addressed (the grievous bonus becomes a dice modifier)",
        "an assassin's rank still raises its chance of a possible grievous injury",
        "cutthroat (Assassin 9: 3 off the roll from the front) against knight: P(result >= "
        "Decisive) per strike with her rank minus without it, under both rules (both shown)",
        numbers,
        passed,
    )


_CLAIMS = (
    _no_subtraction,
    _defence_unknown,
    _predetermined,
    _miss_at_plus_100,
    _hit_above_sc,
    _low_sc_hits,
    _fewer_blocked,
    _fewer_misses,
    _more_en_psg,
    _evading,
    _assassin,
    _easy_thresholds,  # last: it grades every roll the others played
)


def fight_claims(
    fighters: Mapping[str, DqFighter], *, games: int = 1000, seed: int = 0
) -> list[Claim]:
    """Each "Why?" of seed 001 (and the Evading and Assassin notes) checked on played duels.

    Args:
        fighters: the archetypes by name; needs every name in :data:`ARCHETYPES`.
        games: duels per pairing and rules.
        seed: every series spawns its duels' seeds from this one.
    """
    missing = [n for n in ARCHETYPES if n not in fighters]
    if missing:
        raise OptionError(
            "the fight claims need the shipped archetypes", value=missing, expected="dq/NAME"
        )
    lab = _Lab(fighters, games, seed)
    return [claim(lab) for claim in _CLAIMS]
