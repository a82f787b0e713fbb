"""GFF shooting (seed 003 "Shooting"): the chosen targets fired at in turn, cover, Blast's
shared hits, Limited weapons, and the pause for the defender's bennies (``DEFEND``).

May import ``oprlab.rules.gff``, ``oprlab.units``, ``oprlab.table``, ``oprlab.mechanics`` and
``oprlab.game``'s state, bennies, geometry, gff_blast, gff_defend, gff_limited, gff_losses,
gff_setup, gff_shooting and ``opr.hooks`` (to end the activation through the rules).
"""

from __future__ import annotations

from dataclasses import replace

from oprlab.game import bennies
from oprlab.game import geometry as geo
from oprlab.game import gff_blast as blast
from oprlab.game import gff_defend as defend
from oprlab.game import gff_limited as limited
from oprlab.game import gff_shooting as shooting
from oprlab.game.actions import Action
from oprlab.game.bennies import bennies_available
from oprlab.game.gff_losses import _apply_result
from oprlab.game.gff_setup import options_of
from oprlab.game.gff_shooting import others as _others
from oprlab.game.gff_shooting import (
    ranged_weapons,
)
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, UnitState
from oprlab.rules.gff.attack import (
    Situation,
)
from oprlab.rules.gff.profile import AttackProfile, defender_profile
from oprlab.rules.gff.resolve import AttackResult, Roller
from oprlab.table.model import Placement
from oprlab.units.model import Weapon


def _shoot_step(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 003 "Shooting": up to two targets with different weapon types."""
    pending = state.pending
    assert pending is not None and us.placement is not None
    if not a.target:
        state.log.add("hold_fire", unit=us.uid)
        opr_rules(state).end_activation(state, pending.side)
        return
    if a.benny:
        _spend_benny(state, us)
    plan: list[tuple[str, tuple[Weapon, ...], float]] = []
    ranged = ranged_weapons(us.unit)
    for target, second in ((a.target, False), (a.second, True)):
        if not target:
            continue
        d = geo.gap(us.placement, _placement(state, target))
        weapons = tuple(w for w in ranged if (w.name in a.split) == second)
        plan.append((target, weapons, d))  # each model fires what reaches (``_fire``)
    _fire_plan(state, us, tuple(plan), moved=pending.moved, extra=a.benny, side=pending.side)


def _fire_plan(
    state: GameState,
    us: UnitState,
    plan: tuple[tuple[str, tuple[Weapon, ...], float], ...],
    *,
    moved: bool,
    extra: bool,
    side: int,
) -> None:
    """Fire at each target of the plan in turn; a defender's ``DEFEND`` decision pauses it.

    The plan names the weapon lines themselves: a Limited line fired at the first target
    leaves the unit's profile (:mod:`~oprlab.game.gff_limited`) before the second is shot at.
    """
    roller = state.dice
    for i, (uid, weapons, d) in enumerate(plan):
        t = state.units[uid]
        if not t.on_table:
            continue
        rest = plan[i + 1 :]
        shot = list(weapons)
        if _fire(state, us, t, shot, d, roller, moved=moved, extra=extra and i == 0, rest=rest):
            return  # waiting for the defender
    opr_rules(state).end_activation(state, side)


_spend_benny = bennies.spend_extra_attack


def _placement(state: GameState, uid: str) -> Placement:
    p = state.units[uid].placement
    assert p is not None
    return p


def _fire(
    state: GameState,
    us: UnitState,
    target: UnitState,
    weapons: list[Weapon],
    distance: float,
    roller: Roller,
    *,
    moved: bool,
    extra: bool = False,
    rest: tuple[tuple[str, tuple[Weapon, ...], float], ...] = (),
) -> bool:
    """One attack at one target: the weapons the models left carry, fired by those in range
    and line of sight (Indirect: in range), each at its own distance (``gff_shooting``).

    The target has cover when most shooting models see it in cover (``geometry.in_cover``).
    """
    profiles = shooting.fire_profiles(state, us, target, weapons)
    if extra and profiles:  # a benny: "a single extra attack"
        profiles[0] = replace(profiles[0], dice=profiles[0].dice + 1)
    if not profiles:
        return False
    if options_of(state).limited:  # "May only be used once per game"
        limited.spend_limited(us, (p.name for p in profiles), state.log)
    assert us.placement is not None and target.placement is not None
    cover = target_in_cover(state, us, target, indirect=all(p.indirect for p in profiles))
    situation = Situation(
        distance=distance,
        moved=moved,
        cover=cover,
        attacker=us.owner,
        defender=target.owner,
    )
    d = defender_profile(
        target.unit, models=target.models, markers=target.markers, shaken=target.shaken
    )
    nearby = _blast_nearby(state, us, target, profiles)
    if nearby:  # Blast: X is "up to as many hits as enemy models in the target and within 3""
        d = replace(d, near=blast.blast_models(target, nearby))
    rolled = defend.roll_hits(profiles, d, situation, roller, hooks=opr_rules(state).attack_hooks)
    shares: tuple[defend.Share, ...] = ()
    if nearby:  # "Hits must be split evenly between all enemy units within 3""
        parts = blast.split(rolled, [blast.wound_worth(u) for u in (target, *nearby)])
        rolled = parts[0]
        shares = tuple(
            defend.Share(u.uid, part, replace(situation, cover=False, defender=u.owner))
            for u, part in zip(nearby, parts[1:], strict=True)
            if defend.hit_count(part)
        )
    waiting = defend.Defending(
        shooter=us.uid,
        side=state.pending.side if state.pending is not None else us.side,
        target=target.uid,
        rolled=rolled,
        situation=situation,
        weapons=tuple(p.name for p in profiles),
        dice=sum(p.dice for p in profiles),
        distance=distance,
        cover=cover,
        rest=rest,
        moved=moved,
        shares=shares,
    )
    return _land(state, waiting, roller)


def _blast_nearby(
    state: GameState, us: UnitState, target: UnitState, profiles: list[AttackProfile]
) -> list[UnitState]:
    """Blast: the other enemy units within 3" of the target (none for an attack without it)."""
    if not options_of(state).blast_split or not any(p.blast > 1 for p in profiles):
        return []
    return blast.nearby_units(target, state.enemies(us.side))


def _land(state: GameState, shot: defend.Defending, roller: Roller) -> bool:
    """The Defense rolls of a shot on its target, then on each unit Blast shares its hits with.

    Before each unit's rolls its side may spend bennies (seed 000 variation 5): then the game
    waits for its ``DEFEND`` (returns ``True``; :func:`_defend` goes on from there).
    """
    while True:
        target = state.units[shot.target]
        if defend.hit_count(shot.rolled) and bennies_available(state, target.side) > 0:
            opr_rules(state).ask_defender(state, shot, target.uid, shot.side, moved=shot.moved)
            return True
        d = defender_profile(
            target.unit, models=target.models, markers=target.markers, shaken=target.shaken
        )
        _shot_result(
            state,
            shot,
            defend.resolve_hits(
                shot.rolled, d, shot.situation, roller, hooks=opr_rules(state).attack_hooks
            ),
            roller,
        )
        after = _next_share(state, shot)
        if after is None:
            return False
        shot = after


def target_in_cover(
    state: GameState, us: UnitState, target: UnitState, *, indirect: bool = False
) -> bool:
    """Whether ``target`` has cover from a shot of ``us`` (seed 003 "Cover Terrain": most
    shooting models see it in cover, ``geometry.in_cover``), or a house rule fortifies it; the
    one check the shot and the rules commander's score of it both make.

    On a table without terrain only a house rule's fortifying gives cover: GFF's cover is
    terrain's alone (models never block, ``table.cover.gff_cover_all``), so no sight line is
    traced there (``geometry.in_cover`` would answer no: test_gff_cover_shortcut.py)."""
    if us.placement is None or target.placement is None:
        return False
    if opr_rules(state).fortified(state, target):
        return True
    return bool(state.table.pieces) and geo.in_cover(
        state.table,
        us.placement,
        target.placement,
        _others(state, us, target),
        system="gff",
        indirect=indirect,
        cache=state.sight,
    )


def _next_share(state: GameState, shot: defend.Defending) -> defend.Defending | None:
    """The next unit's share of a Blast attack (one still on the table), if any."""
    shares = shot.shares
    while shares and not state.units[shares[0].unit].on_table:
        shares = shares[1:]
    if not shares:
        return None
    s = shares[0]
    return replace(
        shot,
        target=s.unit,
        rolled=s.rolled,
        situation=s.situation,
        cover=False,
        shares=shares[1:],
        blast_of=shot.blast_of or shot.target,
    )


def _shot_result(
    state: GameState,
    shot: defend.Defending,
    result: AttackResult,
    roller: Roller,
    defended: int | None = None,
) -> None:
    """Log one attack and apply it to its target."""
    event: dict[str, object] = {} if defended is None else {"defended": defended}
    if shot.blast_of:  # a unit near the target takes its share of the Blast hits
        state.log.add(
            "blast",
            unit=shot.shooter,
            target=shot.target,
            of=shot.blast_of,
            hits=result.hits,
            wounds=result.wounds,
            casualties=result.casualties,
            **event,
        )
        _apply_result(state, state.units[shot.target], result, state.units[shot.shooter], roller)
        return
    if shot.shares:
        event["shared"] = [[s.unit, defend.hit_count(s.rolled)] for s in shot.shares]
    state.log.add(
        "shoot",
        unit=shot.shooter,
        target=shot.target,
        distance=round(shot.distance, 3),
        weapons=list(shot.weapons),
        dice=shot.dice,
        cover=shot.cover,
        hits=result.hits,
        wounds=result.wounds,
        casualties=result.casualties,
        **event,
    )
    _apply_result(state, state.units[shot.target], result, state.units[shot.shooter], roller)
