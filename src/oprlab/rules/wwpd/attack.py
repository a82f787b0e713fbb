"""One WWPD attack, from dice to models removed (seed 004_b5c87f7769291d1c).

A unit's attack on a target unit in one phase runs the seed's steps in order: every attacking
model rolls its Rate of Fire (ranged) or Rate of Attacks (melee) against a to-hit target from
relative skill and the listed modifiers ("To Hit"); the defender spreads the hits evenly over the
models in range ("Allocation of Hits"); each hit gets a to-wound roll ("To Wound") and, if it
wounds, a Cover Save (Shooting, Firefight) or Defensive Save (Melee) ("Cover and Defensive
Saves"); a failed save removes the model.

An attack is described once as an :class:`Attack`: its *volleys* (dice that share a to-hit
target, weapon ratings and the models they may hit, allocated together) and the target's models.
:func:`resolve` rolls it check by check through any :class:`Roller` (the ``wwpd`` mechanic with a
seeded generator in games); :mod:`oprlab.rules.wwpd.exact` lists its exact outcomes from the same
target functions (:func:`wound_target`, :func:`save_target`, :func:`allocate`), so the two
cannot drift apart. Readings of unclear clauses: ``docs/rules/wwpd.md``.

May import ``oprlab.errors``, ``oprlab.mechanics``, ``oprlab.units`` and
``oprlab.rules.wwpd.targets``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

import numpy as np

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Mechanic, Outcome, State, Test, get_mechanic
from oprlab.rules.wwpd.targets import (
    Phase,
    allocate_hits,
    cover_save_target,
    defensive_save_target,
    to_hit_target,
    to_wound_target,
)
from oprlab.units.profiles import TargetType, WwpdModel, WwpdUnit, WwpdWeapon

__all__ = [
    "Attack",
    "AttackResult",
    "Conditions",
    "DiceRoller",
    "Kit",
    "Options",
    "Roller",
    "Volley",
    "allocate",
    "can_damage",
    "defender_order",
    "is_target_type",
    "kits",
    "melee_attack",
    "representative_skill",
    "resolve",
    "save_target",
    "shooting_attack",
    "single_out_pick",
    "wound_target",
]

Mask = tuple[bool, ...]


# --------------------------------------------------------------------------------------------
# Models and what they carry
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kit:
    """One model of a unit and the weapons it carries.

    Attributes:
        profile: the model's profile.
        ranged: the ranged weapons it fires (usually one).
        melee: the melee equipment whose ratings it fights with (``None``: bare hands).
    """

    profile: WwpdModel
    ranged: tuple[WwpdWeapon, ...] = ()
    melee: WwpdWeapon | None = None


def kits(unit: WwpdUnit) -> tuple[Kit, ...]:
    """The unit's models in list order, each with the weapons it carries.

    The profile format lists weapons per unit, not per model, so weapons are handed out in list
    order: the k-th ranged weapon goes to model ``k mod size`` (a Line Section's 7 carbines and
    1 launcher arm its 8 models one each; surplus weapons are carried, and fired, as well), and
    melee equipment the same way (a model with several keeps the first).
    """
    profiles = [p for n, p in unit.models for _ in range(n)]
    size = len(profiles)
    ranged: list[list[WwpdWeapon]] = [[] for _ in range(size)]
    melee: list[list[WwpdWeapon]] = [[] for _ in range(size)]
    ranged_all = [w for n, w in unit.weapons if not w.melee for _ in range(n)]
    melee_all = [w for n, w in unit.weapons if w.melee for _ in range(n)]
    for k, w in enumerate(ranged_all):
        ranged[k % size].append(w)
    for k, w in enumerate(melee_all):
        melee[k % size].append(w)
    return tuple(
        Kit(p, tuple(r), m[0] if m else None)
        for p, r, m in zip(profiles, ranged, melee, strict=True)
    )


def defender_order(unit_kits: Sequence[Kit]) -> tuple[int, ...]:
    """The defender's habit among otherwise equal models: the most common kit takes hits first.

    "Beyond these guidelines, the defending player may chose which model is Hit", and the Geek
    Note wants "certain limited ability to avoid losing a key model": plain riflemen take the
    spare hits before the sergeant or the launcher. Ties keep list order.
    """
    common = Counter((k.profile, k.ranged, k.melee) for k in unit_kits)
    return tuple(
        sorted(
            range(len(unit_kits)),
            key=lambda i: (
                -common[(unit_kits[i].profile, unit_kits[i].ranged, unit_kits[i].melee)],
                i,
            ),
        )
    )


def can_damage(weapon: WwpdWeapon, model: WwpdModel) -> bool:
    """Whether a hit of ``weapon`` can harm ``model``: only Anti-Tank weapons "may damage
    Vehicles" (``docs/rules/wwpd.md`` "To Wound")."""
    return not model.vehicle or weapon.anti_tank > 0


def is_target_type(model: WwpdModel, target_type: TargetType) -> bool:
    """Whether ``model`` is of ``target_type``: a vehicle, or infantry (any other model)."""
    return model.vehicle == (target_type == "vehicle")


def single_out_pick(
    weapon: WwpdWeapon, unit_kits: Sequence[Kit], eligible: Sequence[bool]
) -> int | None:
    """The attacker's habit for a weapon that singles out a model: the key model it can reach.

    "If the weapon permits the attacker to single out a target model": the seed leaves the choice
    to the attacker. Our habit takes, among ``eligible`` models (in range and in play), one the
    weapon can damage, and of those the one the defender would keep longest by kit (the last
    in :func:`defender_order`: the rarest kit, i.e. the sergeant or a special weapon; ties go to
    the later model). ``None`` when no model is eligible.
    """
    if len(eligible) != len(unit_kits):
        raise OptionError(
            "eligible needs one entry per model", value=len(eligible), expected=str(len(unit_kits))
        )
    rank = {m: i for i, m in enumerate(defender_order(unit_kits))}
    candidates = [i for i, e in enumerate(eligible) if e]
    if not candidates:
        return None
    return max(candidates, key=lambda i: (can_damage(weapon, unit_kits[i].profile), rank[i]))


def representative_skill(
    models: Sequence[WwpdModel], kind: Literal["ranged", "melee"] = "ranged"
) -> int:
    """A unit's skill for the to-hit comparison: the one most of its models have (ties: higher).

    "Attacker and defender compare relative skill": the seed rates skill per unit ("A
    poorly-trained unit or force will have Skill ratings of 1"), so a unit with a sergeant of
    another skill is judged by its rank and file.
    """
    if not models:
        raise OptionError("a unit with no models has no skill", value=0, expected="a model")
    skills = Counter(m.ranged_skill if kind == "ranged" else m.melee_skill for m in models)
    return max(skills, key=lambda s: (skills[s], s))


# --------------------------------------------------------------------------------------------
# The attack as data
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Conditions:
    """The situation of one attack: its phase and the seed's listed modifiers.

    Attributes:
        phase: Shooting, Firefight or Melee.
        soft_cover: the target is in Soft Cover (+1 Cover Save).
        hard_cover: the target is in Hard Cover (+2 Cover Save).
        concealed: the target is Concealed (+1 to-hit difficulty).
        target_cowering: the target is Cowering (+1 to-hit difficulty, +1 Cover Save).
        attacker_cowering_or_suppressed: the attackers are Cowering or Suppressed (-2 to hit).
        moved: the attackers moved in the previous Movement phase (-1 to hit, small arms).

    The to-hit modifiers and Cover Saves apply in Shooting and Firefight only.
    """

    phase: Phase = Phase.SHOOTING
    soft_cover: bool = False
    hard_cover: bool = False
    concealed: bool = False
    target_cowering: bool = False
    attacker_cowering_or_suppressed: bool = False
    moved: bool = False

    def __post_init__(self) -> None:
        try:
            phase = Phase(self.phase)
        except ValueError:
            phase = None
        if phase is None or phase is Phase.MOVEMENT:
            raise OptionError(
                "an attack happens in Shooting, Firefight or Melee",
                value=str(self.phase),
                expected="shooting, firefight or melee",
                where="phase",
            )
        object.__setattr__(self, "phase", phase)


@dataclass(frozen=True, slots=True)
class Options:
    """Readings with a choice (``docs/rules/wwpd.md``).

    Attributes:
        stack_cover: Soft and Hard Cover add up (default: the best counts).
        save_removed_above_six: a Cover Save pushed past 6+ is gone (default) rather than a 7+.
    """

    stack_cover: bool = False
    save_removed_above_six: bool = True


@dataclass(frozen=True, slots=True)
class Volley:
    """Dice that roll one to-hit target with one weapon's ratings and are allocated together.

    Attributes:
        name: the weapon (for the log).
        dice: the dice rolled to hit.
        to_hit: the to-hit X+.
        massive, ap, anti_tank, high_explosive: the weapon's ratings.
        melee_offense: worsens the Defensive Save (the model's own plus its equipment's).
        eligible: per target model, whether it may take these hits (in range; within 2" in
            melee); ``None``: every model.
        first: per target model, whether it takes hits before others on the same count (base
            contact in melee, the weapon's preferred target type in shooting); ``None``: none.
        singled_out: the target model the attacker singled out, which takes every hit of the
            volley (a weapon that permits it; shooting only); ``None``: the hits are spread.
    """

    name: str
    dice: int
    to_hit: int
    massive: int = 0
    ap: int = 0
    anti_tank: int = 0
    high_explosive: int = 0
    melee_offense: int = 0
    eligible: Mask | None = None
    first: Mask | None = None
    singled_out: int | None = None

    def __post_init__(self) -> None:
        if self.dice < 0:
            raise OptionError("dice out of range", value=self.dice, expected="0 or more")

    def same_roll(self, other: Volley) -> bool:
        """Whether ``other`` rolls and allocates exactly like this volley (so they can merge)."""
        return (
            self.to_hit,
            self.massive,
            self.ap,
            self.anti_tank,
            self.high_explosive,
            self.melee_offense,
            self.eligible,
            self.first,
            self.singled_out,
        ) == (
            other.to_hit,
            other.massive,
            other.ap,
            other.anti_tank,
            other.high_explosive,
            other.melee_offense,
            other.eligible,
            other.first,
            other.singled_out,
        )


@dataclass(frozen=True, slots=True)
class Attack:
    """One unit's attack on one target unit in one phase.

    Attributes:
        volleys: the attackers' dice, in the order their hits are allocated.
        targets: every model of the target unit, by index (removed ones too).
        alive: per target model, whether it is still in play.
        melee_defense: per target model, its Melee Defense (its own plus its equipment's).
        conditions: phase, cover, cowering and the other modifiers.
        order: the defender's preference among otherwise equal models (model indices).
        options: readings with a choice.
    """

    volleys: tuple[Volley, ...]
    targets: tuple[WwpdModel, ...]
    alive: Mask
    melee_defense: tuple[int, ...]
    conditions: Conditions = Conditions()
    order: tuple[int, ...] | None = None
    options: Options = Options()

    def __post_init__(self) -> None:
        n = len(self.targets)
        if len(self.alive) != n or len(self.melee_defense) != n:
            raise OptionError(
                "alive and melee_defense need one entry per target model",
                value=(len(self.alive), len(self.melee_defense)),
                expected=f"{n} entries each",
            )
        for v in self.volleys:
            for name, mask in (("eligible", v.eligible), ("first", v.first)):
                if mask is not None and len(mask) != n:
                    raise OptionError(
                        f"volley {v.name!r}: {name} needs one entry per target model",
                        value=len(mask),
                        expected=str(n),
                    )
            s = v.singled_out
            if s is not None and not (
                0 <= s < n and self.alive[s] and (v.eligible is None or v.eligible[s])
            ):
                raise OptionError(
                    f"volley {v.name!r}: the singled-out model must be a target model in play "
                    "and in range",
                    value=s,
                    expected="the index of an eligible model still in play",
                )

    @property
    def phase(self) -> Phase:
        return self.conditions.phase

    @property
    def dice(self) -> int:
        return sum(v.dice for v in self.volleys)


def merged(volleys: Sequence[Volley]) -> tuple[Volley, ...]:
    """Join neighbouring volleys that roll and allocate alike (one hit count, same odds).

    Only neighbours merge: hits are spread one at a time to the least-hit eligible model, so
    joining two adjacent volleys with equal masks and ratings changes nothing, while reordering
    volleys with different masks could.
    """
    out: list[Volley] = []
    for v in volleys:
        if v.dice == 0:
            continue
        if out and out[-1].same_roll(v):
            last = out[-1]
            name = last.name if v.name in last.name.split(" + ") else f"{last.name} + {v.name}"
            out[-1] = replace(last, name=name, dice=last.dice + v.dice)
        else:
            out.append(v)
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Target numbers of one hit's chain
# --------------------------------------------------------------------------------------------


def wound_target(volley: Volley, model: WwpdModel) -> int | None:
    """The to-wound X+ of a hit from ``volley`` on ``model``; ``None`` if it cannot damage it.

    Infantry: 2+, +1 per level of Toughness and Armor, Massive reducing Toughness and AP Armor.
    Vehicles: only Anti-Tank weapons "may damage Vehicles", so any other hit does nothing; an
    Anti-Tank weapon reduces the vehicle's Armor by its Anti-Tank rating (AP negates "Armor worn
    by infantry" only) and its Toughness by Massive. A 7+ against the vehicle then cannot
    succeed (the dice convention's one exception; the check carries ``armoured_vehicle``).
    """
    if model.vehicle:
        if volley.anti_tank <= 0:
            return None
        return to_wound_target(
            model.toughness, model.armor, massive=volley.massive, ap=volley.anti_tank
        )
    return to_wound_target(model.toughness, model.armor, massive=volley.massive, ap=volley.ap)


def save_target(attack: Attack, volley: Volley, index: int) -> int | None:
    """The save X+ of target model ``index`` against a wound from ``volley``; ``None``: no save.

    Shooting and Firefight: the Cover Save (3+/5+, cover, Cowering, High Explosive). Melee: the
    Defensive Save, 5+ better by the model's Melee Defense and worse by the Melee Offense.
    """
    c = attack.conditions
    if c.phase is Phase.MELEE:
        return defensive_save_target(
            melee_defense=attack.melee_defense[index], melee_offense=volley.melee_offense
        )
    return cover_save_target(
        c.phase,
        soft_cover=c.soft_cover,
        hard_cover=c.hard_cover,
        cowering=c.target_cowering,
        high_explosive=volley.high_explosive,
        stack_cover=attack.options.stack_cover,
        save_removed_above_six=attack.options.save_removed_above_six,
    )


def allocate(attack: Attack, hits: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Hits per target model for each volley, spread evenly in volley order ("Allocation").

    Each volley's hits go to its eligible models still in play, counting the hits earlier
    volleys already put there; hits with no eligible model are lost. A volley that singles out a
    model puts every hit on it; those hits count toward the even spread of later volleys.
    """
    if len(hits) != len(attack.volleys):
        raise OptionError(
            "one hit count per volley", value=len(hits), expected=str(len(attack.volleys))
        )
    n = len(attack.targets)
    taken = [0] * n
    out: list[tuple[int, ...]] = []
    for v, h in zip(attack.volleys, hits, strict=True):
        eligible = [a and (v.eligible is None or v.eligible[i]) for i, a in enumerate(attack.alive)]
        if h == 0 or not any(eligible):
            out.append((0,) * n)
            continue
        got = allocate_hits(
            h,
            eligible,
            first=v.first,
            singled_out=v.singled_out,
            taken=taken,
            order=attack.order,
        )
        taken = [t + g for t, g in zip(taken, got, strict=True)]
        out.append(got)
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Building attacks from units
# --------------------------------------------------------------------------------------------


def _mask(name: str, values: Sequence[bool] | None, n: int, default: bool = True) -> Mask:
    if values is None:
        return (default,) * n
    if len(values) != n:
        raise OptionError(f"{name} needs one entry per model", value=len(values), expected=str(n))
    return tuple(bool(v) for v in values)


def _target_side(
    target: WwpdUnit, target_alive: Sequence[bool] | None
) -> tuple[tuple[Kit, ...], tuple[WwpdModel, ...], Mask, tuple[int, ...]]:
    tk = kits(target)
    alive = _mask("target_alive", target_alive, len(tk))
    models = tuple(k.profile for k in tk)
    defense = tuple(k.profile.melee_defense + (k.melee.melee_defense if k.melee else 0) for k in tk)
    return tk, models, alive, defense


def shooting_attack(
    attacker: WwpdUnit,
    target: WwpdUnit,
    conditions: Conditions = Conditions(),
    *,
    attacker_alive: Sequence[bool] | None = None,
    target_alive: Sequence[bool] | None = None,
    firing: Sequence[bool] | None = None,
    distance: float | None = None,
    in_range: Mapping[str, Sequence[bool]] | None = None,
    order: Sequence[int] | None = None,
    options: Options = Options(),
    singled_out: Mapping[str, int | None] | None = None,
) -> Attack:
    """The attack of ``attacker``'s ranged weapons on ``target`` in Shooting or Firefight.

    A weapon with ``single_out`` puts all its hits on one target model in its range (the
    attacker's choice: ``singled_out``, else :func:`single_out_pick`); a weapon that
    ``prefers`` a target type puts the hits left after an even spread on models of that type
    first ("Allocation of Hits").

    Args:
        attacker: the shooting unit.
        target: the target unit.
        conditions: phase (Shooting or Firefight), cover, cowering and other modifiers.
        attacker_alive: per attacking model, still in play (default: all).
        target_alive: per target model, still in play (default: all).
        firing: per attacking model, whether it fires (sees the target); default: all alive.
        distance: inches to the target; weapons with a shorter range do not fire.
        in_range: per weapon name, the target models in its range (default: all).
        order: the defender's preference among equal models (default :func:`defender_order`).
        options: readings with a choice.
        singled_out: per weapon name (weapons with ``single_out`` only), the target model index
            the attacker singles out, or ``None`` to spread its hits as usual; weapons left out
            follow :func:`single_out_pick`.
    """
    if conditions.phase is Phase.MELEE:
        raise OptionError(
            "shooting happens in Shooting or Firefight",
            value=str(conditions.phase),
            expected="shooting or firefight (melee_attack for Melee)",
            where="conditions.phase",
        )
    ak = kits(attacker)
    a_alive = _mask("attacker_alive", attacker_alive, len(ak))
    fires = _mask("firing", firing, len(ak))
    tk, models, alive, defense = _target_side(target, target_alive)
    living = [m for m, a in zip(models, alive, strict=True) if a]
    defender_skill = representative_skill(living or models, "ranged")
    groups: dict[tuple[int, int], int] = {}  # (weapon slot, skill) -> dice, in first-seen order
    slots: list[WwpdWeapon] = [w for _, w in attacker.weapons if not w.melee]
    choices = dict(singled_out or {})
    for name in choices:
        if not any(w.name == name and w.single_out for w in slots):
            raise OptionError(
                f"{attacker.name}: weapon {name!r} does not permit singling out a model",
                value=name,
                expected="the name of a ranged weapon with single_out: "
                + (", ".join(sorted({w.name for w in slots if w.single_out})) or "(none)"),
                where="singled_out",
            )
    for k, a, f in zip(ak, a_alive, fires, strict=True):
        if not (a and f):
            continue
        for w in k.ranged:
            if distance is not None and (w.range or 0) < distance:
                continue
            key = (slots.index(w), k.profile.ranged_skill)
            groups[key] = groups.get(key, 0) + (w.rate_of_fire or 0)
    volleys: list[Volley] = []
    for (slot, skill), dice in sorted(groups.items()):
        w = slots[slot]
        hit = to_hit_target(
            skill,
            defender_skill,
            phase=conditions.phase,
            concealed=conditions.concealed,
            target_cowering=conditions.target_cowering,
            attacker_cowering_or_suppressed=conditions.attacker_cowering_or_suppressed,
            moved=conditions.moved,
        )
        eligible = None
        if in_range is not None and w.name in in_range:
            eligible = _mask(f"in_range[{w.name!r}]", in_range[w.name], len(tk))
        first = None
        if w.prefers is not None:
            first = tuple(is_target_type(m, w.prefers) for m in models)
            if all(first) or not any(first):
                first = None  # nobody (or everybody) preferred: the plain even spread
        chosen = None
        if w.single_out:
            if w.name in choices:
                chosen = choices[w.name]
            else:
                reachable = [a and (eligible is None or eligible[j]) for j, a in enumerate(alive)]
                chosen = single_out_pick(w, tk, reachable)
        volleys.append(
            Volley(
                w.name,
                dice,
                hit,
                massive=w.massive,
                ap=w.ap,
                anti_tank=w.anti_tank,
                high_explosive=w.high_explosive,
                eligible=eligible,
                first=first,
                singled_out=chosen,
            )
        )
    return Attack(
        merged(volleys),
        models,
        alive,
        defense,
        conditions,
        tuple(order) if order is not None else defender_order(tk),
        options,
    )


#: One attacking model's reach in melee: (target models within 2", target models in contact).
Reach = tuple[Sequence[bool], Sequence[bool]]


def melee_attack(
    attacker: WwpdUnit,
    target: WwpdUnit,
    *,
    attacker_alive: Sequence[bool] | None = None,
    target_alive: Sequence[bool] | None = None,
    reach: Sequence[Reach | None] | None = None,
    order: Sequence[int] | None = None,
    options: Options = Options(),
) -> Attack:
    """The melee attack of ``attacker``'s models on ``target`` (one side of a fight).

    Each model rolls its Rate of Attacks against relative Melee Skill, with its melee
    equipment's ratings. ``reach[i]`` gives attacking model ``i``'s target models within 2" and
    in base contact (``None``: it cannot strike); by default every model strikes and every
    target model is within 2" and none in contact.
    """
    ak = kits(attacker)
    a_alive = _mask("attacker_alive", attacker_alive, len(ak))
    tk, models, alive, defense = _target_side(target, target_alive)
    if reach is not None and len(reach) != len(ak):
        raise OptionError(
            "reach needs one entry per model", value=len(reach), expected=str(len(ak))
        )
    living = [m for m, a in zip(models, alive, strict=True) if a]
    defender_skill = representative_skill(living or models, "melee")
    volleys: list[Volley] = []
    for i, (k, a) in enumerate(zip(ak, a_alive, strict=True)):
        if not a or k.profile.melee_attacks <= 0:
            continue
        eligible: Mask | None = None
        first: Mask | None = None
        if reach is not None:
            r = reach[i]
            if r is None:
                continue
            within = _mask(f"reach[{i}] within 2", r[0], len(tk))
            contact = _mask(f"reach[{i}] base contact", r[1], len(tk), default=False)
            eligible = tuple(w or c for w, c in zip(within, contact, strict=True))
            first = contact
            if not any(e and al for e, al in zip(eligible, alive, strict=True)):
                continue
        w = k.melee
        volleys.append(
            Volley(
                w.name if w is not None else "bare hands",
                k.profile.melee_attacks,
                to_hit_target(k.profile.melee_skill, defender_skill, phase=Phase.MELEE),
                massive=w.massive if w else 0,
                ap=w.ap if w else 0,
                anti_tank=w.anti_tank if w else 0,
                melee_offense=k.profile.melee_offense + (w.melee_offense if w else 0),
                eligible=eligible,
                first=first,
            )
        )
    return Attack(
        merged(volleys),
        models,
        alive,
        defense,
        Conditions(Phase.MELEE),
        tuple(order) if order is not None else defender_order(tk),
        options,
    )


# --------------------------------------------------------------------------------------------
# Rolling it
# --------------------------------------------------------------------------------------------


class Roller(Protocol):
    """Anything that rolls a check (the GFF game's ``Roller`` fits too)."""

    def roll(self, check: Check) -> Outcome: ...


class DiceRoller:
    """Rolls checks with one mechanic and a seeded generator, threading the mechanic's state."""

    def __init__(
        self, rng: np.random.Generator | None, mechanic: Mechanic | None = None, state: State = None
    ) -> None:
        self.mechanic = mechanic if mechanic is not None else get_mechanic("wwpd")
        self.rng = rng
        self.state = state

    def roll(self, check: Check) -> Outcome:
        if self.mechanic.deterministic:
            ((outcome, _),) = self.mechanic.outcomes(check, self.state).items()
        else:
            if self.rng is None:
                raise OptionError(
                    f"the {self.mechanic.name} mechanic needs a random generator",
                    value=None,
                    expected="a numpy Generator",
                )
            outcome = self.mechanic.sample(check, self.state, self.rng)
        if outcome.state is not None:
            self.state = outcome.state
        return outcome


@dataclass(frozen=True, slots=True)
class AttackResult:
    """What one attack did.

    Attributes:
        hits: hits scored by each volley.
        allocation: per volley, the hits each target model took.
        wounds: hits that wounded (to-wound rolls passed).
        saves: wounds saved.
        removed: target model indices removed, in the order they fell.
        unharmed: hits that could not damage their model (a Vehicle hit without Anti-Tank).
    """

    hits: tuple[int, ...]
    allocation: tuple[tuple[int, ...], ...]
    wounds: int
    saves: int
    removed: tuple[int, ...] = field(default=())
    unharmed: int = 0

    @property
    def casualties(self) -> int:
        return len(self.removed)

    @property
    def total_hits(self) -> int:
        return sum(self.hits)


def resolve(attack: Attack, roller: Roller) -> AttackResult:
    """Roll ``attack`` in the seed's order: all to-hit dice, allocation, then hit by hit.

    Every die is rolled to hit first (volley by volley), because the defender allocates "once
    the attacking unit has rolled to-Hit". Then each hit, volley by volley and model by model,
    rolls to wound and, if wounded, saves; a failed save removes the model, and hits left on a
    removed model are not rolled (the model is already gone; a wounded model has no further
    wounds to lose).
    """
    hits: list[int] = []
    for v in attack.volleys:
        check = Check(Test.HIT, v.to_hit)
        hits.append(sum(roller.roll(check).success for _ in range(v.dice)))
    allocation = allocate(attack, hits)
    removed: list[int] = []
    gone: set[int] = set()
    wounds = saves = unharmed = 0
    for v, per_model in zip(attack.volleys, allocation, strict=True):
        for index, count in enumerate(per_model):
            model = attack.targets[index]
            wound_x = wound_target(v, model)
            save_x = save_target(attack, v, index)
            for _ in range(count):
                if index in gone:
                    break
                if wound_x is None:
                    unharmed += 1
                    continue
                wound = Check(Test.TO_WOUND, wound_x, armoured_vehicle=model.vehicle)
                if not roller.roll(wound).success:
                    continue
                wounds += 1
                if save_x is not None and roller.roll(Check(Test.SAVE, save_x)).success:
                    saves += 1
                    continue
                gone.add(index)
                removed.append(index)
    return AttackResult(tuple(hits), allocation, wounds, saves, tuple(removed), unharmed)
