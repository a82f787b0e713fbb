"""Caster(X) as both OPR procedures play it: tokens, spells, helpers in reach, the casting roll.

Seed 003 "Caster(X)" (Riverside, seed 002, names casters only in passing and borrows GFF's):
a Caster gets X spell tokens at the start of each round and holds at most 6; it tries each
spell once per activation, paying its value in tokens; models "within 18" in line of sight of
the caster's unit may spend any number of spell tokens at the same time before rolling, to give
the caster +1/-1 to the roll per token"; one die, a 4+ resolves the effect on a target in line
of sight. Seed 000 "Caster(X)" reads that roll on the clock (``Test.CASTING``). Army lists carry
no spells, so :data:`SPELLS` is oprlab's stand-in (docs/rules/gff.md "Caster").

What differs between the systems comes in as arguments: line of sight (GFF's "any model sees"
against Riverside's 10% visible), which targets a spell may reach (each procedure's sight), and
who may cast (a Shaken GFF unit stays idle); resisting and the spells' hits stay with each
procedure.

May import ``oprlab.game.state``, ``oprlab.game.actions``, ``oprlab.game.geometry``,
``oprlab.mechanics`` and ``oprlab.units``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, UnitState
from oprlab.mechanics import Check, Test
from oprlab.units.model import Unit
from oprlab.units.rule_scope import unit_rule

#: Caster(X): "can't hold more than 6 tokens at once"; "Roll one die, on 4+ resolve the effect".
SPELL_TOKENS_MAX = 6
CASTING_ROLL = 4
#: Caster(X): helpers "within 18" in line of sight of the caster's unit" may add tokens.
BOOST_RANGE = 18.0
#: Boosts listed by legal_actions (any number is legal): +3 already makes a 4+ certain on the
#: clock (increment 0) and is more than a d6 can use (a 1 always fails).
BOOST_LISTED = 3


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell a Caster may try (oprlab's stand-in: real spells are army-book data).

    Attributes:
        name: the spell's name (one try per spell per activation).
        values: the token costs it may be cast at; the effect scales with the cost.
        hits_per_token: hits the target takes per token spent when the spell works.
        ap: the AP of those hits.
        range: the farthest target, in inches (the target must also be in line of sight).
    """

    name: str
    values: tuple[int, ...]
    hits_per_token: int
    ap: int
    range: float


#: The spells every Caster knows. Replace this table to play other spells (docs/rules/gff.md).
SPELLS: tuple[Spell, ...] = (Spell("Bolt", (1, 2, 3), hits_per_token=2, ap=1, range=18.0),)

#: Which spells a unit may aim where: the enemy units a spell reaches and sees.
Targets = Callable[[Spell], list[str]]


def spell(name: str) -> Spell | None:
    """The spell of :data:`SPELLS` called ``name``, if any."""
    return next((s for s in SPELLS if s.name == name), None)


def caster_rating(unit: Unit) -> int:
    """X of Caster(X) (0: not a Caster)."""
    return (unit.rating("Caster") or 0) if unit_rule(unit, "Caster") else 0


def give_spell_tokens(state: GameState) -> None:
    """Caster(X): "Gets X spell tokens at the start of each round", holding at most 6."""
    for us in state.units.values():
        x = caster_rating(us.unit)
        if x and us.alive:
            before = us.spell_tokens
            us.spell_tokens = min(SPELL_TOKENS_MAX, before + x)
            state.log.add(
                "tokens", unit=us.uid, gained=us.spell_tokens - before, tokens=us.spell_tokens
            )


def casters_near(
    us: UnitState, candidates: Sequence[UnitState], sees: Callable[[UnitState], bool]
) -> list[UnitState]:
    """Casters among ``candidates`` with tokens, within 18" of ``us`` and seeing it (``sees``:
    the system's line of sight from a caster to ``us``), nearest first (ties: by uid)."""
    assert us.placement is not None
    found: list[tuple[float, str, UnitState]] = []
    for f in candidates:
        if f.uid == us.uid or f.spell_tokens <= 0 or f.placement is None:
            continue
        d = geo.gap(us.placement, f.placement)
        if d <= BOOST_RANGE and sees(f):
            found.append((d, f.uid, f))
    return [f for _, _, f in sorted(found, key=lambda t: (t[0], t[1]))]


def pay(casters: Sequence[UnitState], tokens: int) -> dict[str, int]:
    """Take ``tokens`` from ``casters`` in order (nearest first); what each paid, by uid."""
    paid: dict[str, int] = {}
    for f in casters:
        take = min(tokens, f.spell_tokens)
        if take:
            f.spell_tokens -= take
            paid[f.uid] = take
            tokens -= take
    return paid


def casting_check(us: UnitState, boost: int, resist: int) -> Check:
    """The casting roll: 4+, +1 per boosting token, -1 per resisting token (seed 003).

    On the d6 "modifiers lower the difficulty", a 1 always fails and a 6 always succeeds. On
    the clock (seed 000 "Caster(X)") the roll adds 3, each boosting token takes 1 off (down to
    0) and each resisting token adds 1 (up to 5).
    """
    return Check(Test.CASTING, CASTING_ROLL, modifier=boost - resist, owner=us.owner)


def cast_actions(
    us: UnitState, tried: tuple[str, ...], spare: int, targets: Targets
) -> list[Action]:
    """Each spell not yet tried this activation, at each value ``us``'s tokens allow, at each
    target, with boosts of 0 up to the helpers' ``spare`` tokens, at most :data:`BOOST_LISTED`
    (is_legal accepts more)."""
    acts = []
    for sp in SPELLS:
        if sp.name in tried:
            continue
        aims = targets(sp)
        for value in sp.values:
            if value > us.spell_tokens:
                continue
            for t in aims:
                for boost in range(min(spare, BOOST_LISTED) + 1):
                    acts.append(_cast(us.uid, t, sp.name, value, boost))
    return acts


#: Cast actions by their fields (a global memo of values, emptied whole at its limit): a Caster
#: lists the same spells at the same targets every decision, and a frozen Action costs some
#: 19,000 instructions to build (:func:`oprlab.game.actions.listed`).
_CASTS: dict[tuple[str, str, str, int, int], Action] = {}
_CASTS_LIMIT = 16384


def _cast(uid: str, target: str, spell: str, value: int, boost: int) -> Action:
    key = (uid, target, spell, value, boost)
    found = _CASTS.get(key)
    if found is None:
        if len(_CASTS) >= _CASTS_LIMIT:
            _CASTS.clear()
        found = _CASTS[key] = Action(
            Kind.CAST, uid, target=target, spell=spell, value=value, boost=boost
        )
    return found


def cast_problem(
    us: UnitState,
    a: Action,
    tried: tuple[str, ...],
    targets: Targets,
    helpers: Callable[[], Sequence[UnitState]],
) -> str | None:
    """Why ``a`` (a ``CAST`` by ``us``) may not be tried now, or ``None``; ``helpers``: the
    friendly Casters that may boost (asked last, only when the rest is fine)."""
    sp = spell(a.spell)
    if sp is None:
        return f"unknown spell: one of {', '.join(s.name for s in SPELLS)}"
    if a.to is not None or a.benny:
        return "casting takes no move and no benny"
    if sp.name in tried:
        return "only one try per spell"
    if a.value not in sp.values:
        return f"{sp.name} is cast at a value in {list(sp.values)}"
    if a.value > us.spell_tokens:
        return "not enough spell tokens"
    if a.target not in targets(sp):
        return f'the target must be an enemy in line of sight within {sp.range:g}"'
    if a.boost < 0 or a.boost > sum(f.spell_tokens for f in helpers()):
        return 'boost: 0 up to the tokens of friendly Casters within 18" in line of sight'
    return None


__all__: Sequence[str] = [
    "BOOST_LISTED",
    "BOOST_RANGE",
    "CASTING_ROLL",
    "SPELLS",
    "SPELL_TOKENS_MAX",
    "Spell",
    "Targets",
    "cast_actions",
    "cast_problem",
    "caster_rating",
    "casters_near",
    "casting_check",
    "give_spell_tokens",
    "pay",
    "spell",
]
