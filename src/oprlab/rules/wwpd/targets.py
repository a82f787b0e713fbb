"""WWPD target numbers and hit allocation (seed 004_b5c87f7769291d1c).

Pure functions that turn the seed's modifier lists into the X+ a die must roll: to-hit
("To Hit"), to-wound ("To Wound"), cover and defensive saves ("Cover and Defensive Saves"), and
the even spreading of hits over a unit ("Allocation of Hits"). Targets may fall below 2 or above
6; the WWPD dice convention (:mod:`oprlab.mechanics.wwpd`) says how such rolls go. Readings of
unclear clauses are listed in ``docs/rules/wwpd.md``.

May import ``oprlab.errors`` and ``oprlab.mechanics`` (layers below ``rules``).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from enum import StrEnum

from oprlab.errors import OptionError, check_range

#: Ranged and Melee Skill run from 0 ("does not bear contemplating") to 4 ("elite of the elite").
MIN_SKILL = 0
MAX_SKILL = 4
#: Ratings of special characteristics (Toughness, Armor, Massive, AP, HE, Melee Defense/Offense)
#: have no stated maximum ("Etc."); 9 keeps every target inside the dice convention's range.
MAX_RATING = 9
#: Shooting is "over 12 inches", Firefight "within 12 inches" ("Turns and Phases").
FIREFIGHT_RANGE = 12
#: The worst to-hit penalty a moving weapon may have; beyond that, say it cannot fire (``None``).
MAX_MOVED_PENALTY = 6


class Phase(StrEnum):
    """The four phases of a WWPD turn, in order ("Turns and Phases")."""

    MOVEMENT = "movement"
    SHOOTING = "shooting"  # all shooting over 12"; only the active player shoots
    FIREFIGHT = "firefight"  # all shooting within 12"; both players shoot
    MELEE = "melee"  # unpinned units in range charge and fight; both players fight

    @property
    def both_players_act(self) -> bool:
        """Firefight and Melee are fought by both players; Shooting only by the active one."""
        return self in (Phase.FIREFIGHT, Phase.MELEE)

    @property
    def ranged(self) -> bool:
        """Shooting or Firefight: the phases where cover saves and to-hit modifiers apply."""
        return self in (Phase.SHOOTING, Phase.FIREFIGHT)


def ranged_phase(distance: float) -> Phase:
    """The phase in which a shot over ``distance`` inches is taken: over 12" Shooting, else
    Firefight (exactly 12" is "within 12")."""
    if distance < 0:
        raise OptionError("distance out of range", value=distance, expected="0 inches or more")
    return Phase.SHOOTING if distance > FIREFIGHT_RANGE else Phase.FIREFIGHT


def _phase(phase: Phase | str, where: str = "phase") -> Phase:
    try:
        return Phase(phase)
    except ValueError:
        raise OptionError(
            "unknown phase", value=phase, expected=", ".join(p.value for p in Phase), where=where
        ) from None


def _rating(name: str, value: int) -> int:
    return check_range(name, value, 0, MAX_RATING)


def can_fire_after_moving(moved: bool, heavy_moved_penalty: int | None = 1) -> bool:
    """Whether a weapon may shoot: only weapons "unable to fire at all" after moving cannot."""
    return not (moved and heavy_moved_penalty is None)


def to_hit_target(
    attacker_skill: int,
    defender_skill: int,
    *,
    phase: Phase | str = Phase.SHOOTING,
    concealed: bool = False,
    target_cowering: bool = False,
    attacker_cowering_or_suppressed: bool = False,
    moved: bool = False,
    heavy_moved_penalty: int | None = 1,
) -> int:
    """The to-hit X+ ("To Hit"): 4+, adjusted by relative skill and, when shooting, modifiers.

    Args:
        attacker_skill: the attacker's Ranged Skill (Shooting, Firefight) or Melee Skill (Melee).
        defender_skill: the target's skill of the same kind.
        phase: Shooting, Firefight or Melee. In Melee only relative skill counts, so the other
            flags describe the models but change nothing there.
        concealed: the target is Concealed (+1 difficulty).
        target_cowering: the target is Cowering (+1 difficulty).
        attacker_cowering_or_suppressed: the shooter is Cowering or Suppressed (a -2 to-hit
            penalty, +2 difficulty).
        moved: the shooter moved in the previous Movement phase.
        heavy_moved_penalty: the to-hit penalty for having moved: 1 for small arms, 2 for heavy
            weapons that suffer -2, ``None`` for weapons unable to fire at all after moving.

    Raises:
        OptionError: skills outside 0..4, a phase without to-hit rolls (Movement), a negative
            penalty, or a weapon asked to fire after moving that cannot (check
            :func:`can_fire_after_moving` first).
    """
    check_range("attacker skill", attacker_skill, MIN_SKILL, MAX_SKILL)
    check_range("defender skill", defender_skill, MIN_SKILL, MAX_SKILL)
    which = _phase(phase)
    if which is Phase.MOVEMENT:
        raise OptionError(
            "no to-hit rolls in the Movement phase",
            value=str(which),
            expected="shooting, firefight or melee",
            where="phase",
        )
    if heavy_moved_penalty is not None:
        check_range("heavy moved penalty", heavy_moved_penalty, 0, MAX_MOVED_PENALTY)
    target = 4 - (attacker_skill - defender_skill)
    if not which.ranged:
        return target
    if not can_fire_after_moving(moved, heavy_moved_penalty):
        raise OptionError(
            "this weapon is unable to fire after moving",
            value=heavy_moved_penalty,
            expected="moved=False, or a moved penalty of 1 (small arms) or 2 (heavy weapons)",
            where="heavy_moved_penalty",
        )
    target += int(concealed) + int(target_cowering) + 2 * int(attacker_cowering_or_suppressed)
    if moved and heavy_moved_penalty is not None:
        target += heavy_moved_penalty
    return target


def to_wound_target(toughness: int, armor: int, *, massive: int = 0, ap: int = 0) -> int:
    """The to-wound X+ ("To Wound"): 2+, +1 per level of Toughness and Armor left standing.

    Massive reduces Toughness and AP reduces Armor, each stopping at 0 ("Once Toughness or Armor
    is reduced to 0, neither Massive nor AP have any additional effect"), so nothing wounds a
    plain model better than 2+.
    """
    toughness = _rating("toughness", toughness)
    armor = _rating("armor", armor)
    massive = _rating("massive", massive)
    ap = _rating("AP", ap)
    return 2 + max(0, toughness - massive) + max(0, armor - ap)


#: The basic Cover Save by phase ("Cover and Defensive Saves").
BASIC_COVER_SAVE = {Phase.SHOOTING: 3, Phase.FIREFIGHT: 5}


def cover_save_target(
    phase: Phase | str,
    *,
    soft_cover: bool = False,
    hard_cover: bool = False,
    cowering: bool = False,
    high_explosive: int = 0,
    stack_cover: bool = False,
    save_removed_above_six: bool = True,
) -> int | None:
    """The Cover Save X+ in Shooting (basic 3+) or Firefight (basic 5+), or ``None`` for none.

    Soft Cover gives +1, Hard Cover +2 and Cowering +1 to the save (the target drops); each level
    of High Explosive takes 1 off it, the basic save included (the target rises). A target of 1
    or below stands: the dice convention rerolls 1s ("a 1+ cover save will fail on double 1s").

    Args:
        phase: Shooting or Firefight; Melee has the Defensive Save instead.
        soft_cover: the target is in Soft Cover.
        hard_cover: the target is in Hard Cover.
        cowering: the target is Cowering.
        high_explosive: the weapon's High Explosive rating.
        stack_cover: add Soft and Hard Cover together when both are claimed; by default a model
            counts only its best cover (Hard).
        save_removed_above_six: a save pushed past 6+ is gone ("a Good HE weapon can remove Cover
            Saves altogether") and ``None`` is returned; ``False`` keeps it as a 7+ save rolled
            by the dice convention (a 6 then a 6).
    """
    which = _phase(phase)
    if which not in BASIC_COVER_SAVE:
        raise OptionError(
            "cover saves are only taken in Shooting and Firefight",
            value=str(which),
            expected="shooting or firefight (use defensive_save_target in melee)",
            where="phase",
        )
    high_explosive = _rating("high explosive", high_explosive)
    if stack_cover:
        cover = int(soft_cover) + 2 * int(hard_cover)
    else:
        cover = 2 if hard_cover else int(soft_cover)
    target = BASIC_COVER_SAVE[which] - cover - int(cowering) + high_explosive
    if save_removed_above_six and target > 6:
        return None
    return target


def defensive_save_target(*, melee_defense: int = 0, melee_offense: int = 0) -> int:
    """The Defensive Save X+ in Melee: 5+, better by the defender's Melee Defense, worse by the
    attacker's Melee Offense. Targets off the die are rolled by the dice convention."""
    return 5 - _rating("melee defense", melee_defense) + _rating("melee offense", melee_offense)


def _mask(name: str, values: Sequence[bool] | None, models: int) -> tuple[bool, ...]:
    if values is None:
        return (False,) * models
    if len(values) != models:
        raise OptionError(
            f"{name} has the wrong length", value=len(values), expected=f"{models} (one per model)"
        )
    return tuple(bool(v) for v in values)


def allocate_hits(
    hits: int,
    eligible: Sequence[bool],
    *,
    first: Sequence[bool] | None = None,
    singled_out: int | None = None,
    taken: Sequence[int] | None = None,
    order: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """Spread ``hits`` over a unit's models evenly ("Allocation of Hits").

    Each hit goes to an eligible model that has taken the fewest hits so far, so every eligible
    model takes k before any takes k+1. Among models tied on fewest, ``first`` models take it
    before the others (base contact in melee, the preferred target type when shooting), then
    the defender's ``order`` decides. A weapon that singles out a model puts all hits on it.

    Args:
        hits: the hits to allocate.
        eligible: per model of the target unit, whether it may be hit (in range of the weapon;
            within 2" or in base contact of the attacker in melee).
        first: per model, whether it must take hits before other models on the same count.
        singled_out: the index of a model the weapon singles out, which takes every hit.
        taken: hits each model already took from this attack (earlier weapons), counted toward
            evenness; defaults to none.
        order: the defender's choice among otherwise equal models, as model indices, most
            preferred first; defaults to index order.

    Returns:
        The new hits per model, one entry per model of the unit.
    """
    models = len(eligible)
    if hits < 0:
        raise OptionError("hits out of range", value=hits, expected="0 or more")
    allowed = _mask("eligible", eligible, models)
    before = _mask("first", first, models)
    prior = tuple(taken) if taken is not None else (0,) * models
    if len(prior) != models or any(t < 0 for t in prior):
        raise OptionError(
            "taken must give a non-negative count per model",
            value=taken,
            expected=f"{models} counts of 0 or more",
        )
    rank = list(order) if order is not None else list(range(models))
    if sorted(rank) != list(range(models)):
        raise OptionError(
            "order must list every model index once", value=order, expected=f"0..{models - 1}"
        )
    result = [0] * models
    if hits == 0:
        return tuple(result)
    if singled_out is not None:
        if not 0 <= singled_out < models or not allowed[singled_out]:
            raise OptionError(
                "the singled-out model must be an eligible model of the unit",
                value=singled_out,
                expected="the index of a model in range",
            )
        result[singled_out] = hits
        return tuple(result)
    if not any(allowed):
        raise OptionError("no model can take the hits", value=hits, expected="an eligible model")
    position = {model: i for i, model in enumerate(rank)}
    heap = [(prior[m], not before[m], position[m], m) for m in range(models) if allowed[m]]
    heapq.heapify(heap)
    for _ in range(hits):
        count, later, pos, m = heapq.heappop(heap)
        result[m] += 1
        heapq.heappush(heap, (count + 1, later, pos, m))
    return tuple(result)


def allocate_shooting_hits(
    hits: int,
    in_range: Sequence[bool],
    *,
    singled_out: int | None = None,
    preferred: Sequence[bool] | None = None,
    taken: Sequence[int] | None = None,
    order: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """Shooting and Firefight: in range, singled out, evenly, preferred target type first."""
    return allocate_hits(
        hits, in_range, first=preferred, singled_out=singled_out, taken=taken, order=order
    )


def allocate_melee_hits(
    hits: int,
    within_2: Sequence[bool],
    base_contact: Sequence[bool],
    *,
    taken: Sequence[int] | None = None,
    order: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """Melee: models within 2" of the attacker, evenly, those in base contact first.

    A model in base contact is within 2", so either flag makes a model eligible.
    """
    contact = _mask("base_contact", base_contact, len(within_2))
    eligible = [bool(w) or c for w, c in zip(within_2, contact, strict=True)]
    return allocate_hits(hits, eligible, first=contact, taken=taken, order=order)
