"""The rules commander's habits for GFF's setup and interrupting decisions (docs/rules/gff.md).

``RulesCommander.choose`` sends these decisions here: the deployment roll-off winner's edge
(``CHOOSE_ZONE``, from the markers and, for ``rules``, the terrain its army's kind wants),
deployment along whichever edge the side has (``DEPLOY``), an enemy Caster's tokens against a
spell (``RESIST``), a benny spent to defend against hits (``DEFEND``) and one
spent on a clock at an activation's start (``SET_CLOCK``, phase ``clocks``) and the charged
unit's strike back (``STRIKE_BACK``, by expected value). Each habit is simple and documented;
estimates use d6 odds under every mechanic.

May import ``oprlab.game`` and below.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence, Set
from dataclasses import replace

import shapely

from oprlab.game import geometry as geo
from oprlab.game import gff, gff_casting, gff_defend, gff_melee
from oprlab.game import gff_setup as edges
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, UnitState
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players.memo import attack_odds
from oprlab.rules.gff.attack import Situation, impact_attack
from oprlab.rules.gff.melee import counter_models_left, impact_dice_left, strikes
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile, defender_profile
from oprlab.table.model import Table, TerrainType
from oprlab.units.model import Unit

#: DEFEND: an attack threatens "many points" when it is expected to remove this share of the
#: unit's cost.
MANY_POINTS = 0.25

#: The decisions this module answers for the rules commander in GFF games.
KINDS = frozenset(
    {Kind.CHOOSE_ZONE, Kind.DEPLOY, Kind.RESIST, Kind.DEFEND, Kind.SET_CLOCK, Kind.STRIKE_BACK}
)
#: A Shaken target is worth this share of its points more (as the commander's attack estimate).
SHAKEN_SHARE = 0.3


def choose(
    state: GameState,
    actions: Sequence[Action],
    shooting: Callable[[Unit], bool],
    *,
    enemy_clock: bool = True,
    melee: Callable[[Unit], bool] | None = None,
    reach: Callable[[Unit], float] | None = None,
) -> Action:
    """The habit for ``actions[0].kind``; ``shooting`` says which units deploy back;
    ``enemy_clock``: whether :func:`start_clock` runs enemy clocks up; ``melee`` (which units
    fight): the edge is chosen from the matchup (:func:`choose_edge`); ``reach`` (a unit's
    first-round reach to a marker): shooters deploy to take markers (:func:`claim_marker`)."""
    kind = actions[0].kind
    if kind is Kind.CHOOSE_ZONE:
        if melee is not None:
            return choose_edge(state, actions, army=army_kind(state, shooting, melee))
        return choose_edge(state, actions)
    if kind is Kind.DEPLOY:
        return deploy(state, actions, shooting, reach)
    if kind is Kind.DEFEND:
        return defend(state, actions)
    if kind is Kind.SET_CLOCK:  # (listed first only at an activation's start)
        return start_clock(state, actions, enemy_clock=enemy_clock)
    if kind is Kind.STRIKE_BACK:
        return strike_back(state, actions)
    return resist(state, actions)


def choose_edge(state: GameState, actions: Sequence[Action], *, army: str = "") -> Action:
    """The edge with the most markers nearer to it than to the opposite edge; ties go to the
    smaller total distance from the edge to the markers, then to the order of ``EDGES``.

    ``army`` (``"shooting"`` or ``"melee"``, :func:`army_kind`): the terrain the army's kind
    wants counts too, :data:`TERRAIN_WEIGHT` markers for the whole of a region
    (:func:`edge_terrain`).
    """
    table = state.table
    markers = [o.position for o in state.objectives]

    def key(a: Action) -> tuple[float, float, int]:
        mine = [edges.edge_distance(table, a.choice, m) for m in markers]
        theirs = [edges.edge_distance(table, edges.OPPOSITE[a.choice], m) for m in markers]
        nearer = float(sum(d < e for d, e in zip(mine, theirs, strict=True)))
        if army:
            nearer += TERRAIN_WEIGHT * edge_terrain(table, a.choice, army)
        return (-nearer, sum(mine), edges.EDGES.index(a.choice))

    return min(actions, key=key)


#: CHOOSE_ZONE from the matchup: a region wholly of the terrain an army's kind wants is worth
#: this many markers nearer its edge.
TERRAIN_WEIGHT = 2.0
_SEEING = frozenset({TerrainType.COVER, TerrainType.BLOCKING})
_ROUGH = frozenset({TerrainType.DIFFICULT, TerrainType.DANGEROUS})


def army_kind(
    state: GameState, shooting: Callable[[Unit], bool], melee: Callable[[Unit], bool]
) -> str:
    """``"shooting"`` or ``"melee"``: the kind of most of the side to act's points (``""``
    when neither has more)."""
    shots = fights = 0
    for u in state.units.values():
        if u.side == state.active:
            shots += u.unit.cost if shooting(u.unit) else 0
            fights += u.unit.cost if melee(u.unit) else 0
    return "shooting" if shots > fights else "melee" if fights > shots else ""


def edge_terrain(table: Table, edge: str, army: str) -> float:
    """How well the terrain seen from ``edge`` suits the army's kind, -1 to 1.

    Shooting: cover in its own deployment zone (it shoots from there: +1 Defense against the
    enemy's shots) less cover and sight blockers on the enemy's way across its own half
    (the enemy comes over open ground). Melee: cover and sight blockers on its own way across
    its half (it comes hidden) less difficult and dangerous terrain there (it comes slowly and
    takes wounds). Each term is the share of the region's area the terrain covers.
    """
    zone_depth = table.deployment_depth
    half = (table.depth if edges.along_y(edge) else table.width) / 2
    other = edges.OPPOSITE[edge]
    zone = shapely.box(*edges.zone_box(table, edge, zone_depth))
    ours = shapely.box(*edges.zone_box(table, edge, half)).difference(zone)
    theirs = shapely.box(*edges.zone_box(table, other, half)).difference(
        shapely.box(*edges.zone_box(table, other, zone_depth))
    )
    if army == "shooting":
        return _share(table, {TerrainType.COVER}, zone) - _share(table, _SEEING, theirs)
    if army == "melee":
        return _share(table, _SEEING, ours) - _share(table, _ROUGH, ours)
    return 0.0


def _share(table: Table, kinds: Set[TerrainType], region: shapely.Geometry) -> float:
    """The share of ``region``'s area under pieces with any of ``kinds``."""
    pieces = [shapely.Polygon(p.outline) for p in table.pieces if p.types & kinds]
    if not pieces or region.area <= 0:
        return 0.0
    return float(shapely.union_all(pieces).intersection(region).area / region.area)


def deploy(
    state: GameState,
    actions: Sequence[Action],
    shooting: Callable[[Unit], bool],
    reach: Callable[[Unit], float] | None = None,
) -> Action:
    """Shooters as far back as they may, fighters as far forward, near the markers' line.

    Depth is measured from the side's own edge (``gff.edge_of``), the lateral offset along
    it: the habit the commander always had, turned with the edge it deploys on.

    ``reach`` (how far a unit can be from a marker and still stand within 3" of it at the
    end of the first round: its Rush plus 3"): a shooter goes where it can take a marker no
    unit of its side deployed so far can reach, the farthest back of those places (the
    unit to place is the one the habit above picks); only when no such place is left does
    it stand as far back as it may (:func:`claim_marker`).
    """
    table = state.table
    edge = gff.edge_of(state, state.active)
    lateral = 0 if edges.along_y(edge) else 1
    centre = (table.width / 2, table.depth / 2)
    targets = [o.position for o in state.objectives] or [edges.home_point(table, edge, centre)]

    context = (table.width, table.depth, edge, lateral, tuple(targets))
    known = _DEPLOY_KEYS.get(context)
    if known is None:
        if len(_DEPLOY_KEYS) >= _DEPLOY_LIMIT:
            _DEPLOY_KEYS.clear()
        known = _DEPLOY_KEYS[context] = {}

    # min(actions, key=...) written out (the first action of the least key): a deployment
    # decision lists every unit's places, and a key call an action cost more than the key
    best, least, unit, shoots_ = actions[0], math.inf, "", False
    for a in actions:
        if a.unit != unit:  # the listing gives each unit's actions together
            unit, shoots_ = a.unit, shooting(state.units[a.unit].unit)
        to = a.to
        assert to is not None
        found = known.get((to, shoots_))
        if found is None:
            depth = abs(edges.edge_distance(table, edge, to))
            forward = depth if shoots_ else -depth
            near = min(abs(to[lateral] - t[lateral]) for t in targets)
            found = known[(to, shoots_)] = forward + 0.3 * near
        if found < least:
            best, least = a, found
    if reach is None or not shooting(state.units[best.unit].unit):
        return best
    return claim_marker(state, [a for a in actions if a.unit == best.unit], reach) or best


#: :func:`deploy`'s key of a place, by the table's size, the edge, the markers and whether the
#: unit shoots: the same places are listed again for every unit still to deploy, at every
#: deployment decision. Numbers only; emptied whole at its limit.
_DEPLOY_KEYS: dict[tuple[object, ...], dict[tuple[tuple[float, float], bool], float]] = {}
_DEPLOY_LIMIT = 64


def claim_marker(
    state: GameState, actions: Sequence[Action], reach: Callable[[Unit], float]
) -> Action | None:
    """The place farthest back (then nearest its marker) from which the unit of ``actions``
    can take a marker in the first round that no unit of its side placed so far can take
    (within ``reach`` of it, centre to marker); ``None`` when there is none.

    Seed 003 "Mission" 4 and 8: markers held at the end decide the game, and one is seized
    by standing within 3" of it with no enemy near. A shooting army deployed wholly at the
    back holds none after the first round (docs/commanders.md).
    """
    table = state.table
    side = state.active
    edge = gff.edge_of(state, side)
    placed = [
        (geo.centroid(u.placement), reach(u.unit))
        for u in state.units.values()
        if u.side == side and u.placement is not None
    ]
    free = [
        o.position for o in state.objectives if all(math.dist(c, o.position) > r for c, r in placed)
    ]
    if not free:
        return None
    far = reach(state.units[actions[0].unit].unit)
    best: tuple[float, float] | None = None
    pick = None
    for a in actions:
        assert a.to is not None
        gap = min(math.dist(a.to, m) for m in free)
        if gap > far:
            continue
        k = (abs(edges.edge_distance(table, edge, a.to)), gap)
        if best is None or k < best:
            best, pick = k, a
    return pick


def spare_bennies(state: GameState, side: int) -> int:
    """Bennies beyond one kept for each round to come (the commander's benny habit)."""
    return gff.bennies_available(state, side) - (state.rounds - state.round)


def defend(state: GameState, actions: Sequence[Action]) -> Action:
    """Defend (one benny per hit, as many hits as spare bennies allow) when the hits threaten
    a Hero, the unit's last model, or an expected quarter of its points; else spend none.

    The expected loss counts each hit's wound chance at d6 odds (its AP, the cover), Deadly
    multiplying, at the unit's cost per wound. The same habit for a shot, each attack of a
    melee exchange (the unit as it stands in the exchange) and a spell's hits.
    """
    shot = state.defending
    none = min(actions, key=lambda a: a.value)
    if not isinstance(shot, gff_defend.WAITING):
        return none
    us = state.units[none.unit]
    spare = spare_bennies(state, us.side)
    if spare <= 0:
        return none
    if isinstance(shot, gff_defend.MeleeDefending):
        d = shot.blow.target
    elif isinstance(shot, gff_defend.SpellDefending):
        d = shot.defender
    else:
        d = defender_profile(us.unit, models=us.models, markers=us.markers, shaken=us.shaken)
    cover = 1 if shot.situation.cover else 0
    wounds = 0.0
    for p, hits in shot.rolled:
        for hit in hits:
            need = d.defense - cover + hit.ap  # the Defense roll's target after modifiers
            fails = min(5, max(1, need - 1)) / 6
            wounds += fails * p.deadly
    per_wound = us.unit.cost / max(1, us.unit.size) / max(1, us.unit.tough)
    threatened = us.unit.hero or d.models == 1 or wounds * per_wound >= MANY_POINTS * us.unit.cost
    if not threatened:
        return none
    want = min(spare, gff_defend.hit_count(shot.rolled))
    return max((a for a in actions if a.value <= want), key=lambda a: a.value)


def _points(
    weapons: Sequence[AttackProfile], d: DefenderProfile, s: Situation, unit: Unit
) -> float:
    """Expected points of ``unit`` (as target ``d``) one attack removes (d6 odds): its
    casualties at its cost per model, and a share of its cost for being left Shaken."""
    if not weapons:
        return 0.0
    casualties, p_shaken, _ = attack_odds(tuple(weapons), d, s)
    return float(casualties) * unit.cost / max(1, unit.size) + SHAKEN_SHARE * p_shaken * unit.cost


def strike_back(state: GameState, actions: Sequence[Action]) -> Action:
    """Strike back when what it removes now is worth at least what Fatigue costs the unit.

    Gain: the expected points of the charger its first attack removes (the Counter strike or
    the strike back, as the exchange would make it). Cost: striking back leaves it Fatigued
    (only 6s hit in melee) until the round ends; if it has yet to activate this round (and is
    neither Fatigued nor Shaken already), its own charge at the charger later this round loses
    the difference between charging rested and Fatigued. Otherwise Fatigue costs nothing.
    Equal: strike back.
    """
    waiting = state.strike_back
    yes = max(actions, key=lambda a: a.value)
    no = min(actions, key=lambda a: a.value)
    if not isinstance(waiting, gff_melee.StrikeBackDeciding):
        return yes
    us, charger = state.units[waiting.charged], state.units[waiting.charger]
    blow = waiting.blow
    gain = _points(blow.weapons, blow.target, blow.situation, charger.unit)
    cost = 0.0
    if not (us.activated or us.fatigued or us.shaken):
        target = replace(blow.target, models=charger.models)
        counter = counter_models_left(charger.unit, charger.models)
        value = []
        for s in (
            Situation(melee=True, charging=True),
            Situation(melee=True, charging=True, fatigued=True),
        ):
            impact = impact_attack(
                us.unit.quality, impact_dice_left(us.unit, us.models), s, counter
            )
            weapons = strikes(us.unit, us.models) + ((impact,) if impact is not None else ())
            value.append(_points(weapons, target, s, charger.unit))
        cost = value[0] - value[1]
    return yes if gain >= cost else no


def resist(state: GameState, actions: Sequence[Action]) -> Action:
    """Resist with the number of tokens whose expected points saved, less what the tokens are
    worth to its own Casters, is largest (0 when nothing beats keeping them).

    d6 odds: the spell works on ``CASTING_ROLL``+ with +1 per boost and -1 per resisting token
    (a 1 fails, a 6 works); its expected damage is its hits times the target's chance to fail
    a Defense roll at the spell's AP, at the target's cost per wound. A token is worth what one
    token of the resisting side's own spell would remove from the casting unit (it stands in
    reach and sight: a likely next target), times its chance to work unboosted.
    """
    c = state.casting
    none = min(actions, key=lambda a: a.value)
    if not isinstance(c, gff_casting.Casting):
        return none
    spell = next(s for s in gff.SPELLS if s.name == c.action.spell)
    caster = state.units[c.caster]
    target = state.units[c.action.target]

    def works(modifier: int) -> float:
        return min(5, max(1, 7 - gff.CASTING_ROLL + modifier)) / 6

    def per_token(unit_state: UnitState) -> float:
        d = defender_profile(
            unit_state.unit,
            models=unit_state.models,
            markers=unit_state.markers,
            shaken=unit_state.shaken,
        )
        fails = min(5, max(1, d.defense + spell.ap - 1)) / 6
        unit = unit_state.unit
        return spell.hits_per_token * fails * unit.cost / max(1, unit.size) / max(1, unit.tough)

    damage = c.action.value * per_token(target)
    worth = works(0) * per_token(caster)
    boost = c.action.boost
    return max(
        actions,
        key=lambda a: (
            (works(boost) - works(boost - a.value)) * damage - a.value * worth,
            -a.value,
        ),
    )


#: SET_CLOCK at an activation's start: the own clock is worth resetting from this value up,
#: an enemy clock worth running up while it stands at this value or below.
OWN_CLOCK_HIGH = 4
ENEMY_CLOCK_LOW = 2


def start_clock(state: GameState, actions: Sequence[Action], *, enemy_clock: bool = True) -> Action:
    """With a spare benny (one kept for each round to come): set an own clock standing at 4 or
    more to 1 (the activation's own checks then succeed while they add up to 5 or less), else
    run an enemy clock standing at 1-2 up to 5 (its next checks, Defense rolls against this
    activation or its own attacks after it, roll over soon); else pass.

    Among own clocks the highest first, among enemy clocks the one of the costliest enemy
    unit (its strongest attacker); then by cost and uid. A shared (global) clock is own; own
    per-unit clocks are left alone (the unit to activate is not chosen yet).
    """
    passing = next((a for a in actions if not a.target), actions[0])
    mech, clocks = state.mechanic, state.mech_state
    if not isinstance(mech, Clock) or not isinstance(clocks, ClockState):
        return passing
    if spare_bennies(state, state.active) <= 0:
        return passing
    start = mech.start if isinstance(mech.start, int) else 1
    named = {a.target for a in actions if a.target}

    def value(uid: str) -> int:
        return clocks.clocks.get(mech.clock_key(state.units[uid].owner), start)

    def shared(uid: str) -> bool:
        return mech.clock_key(state.units[uid].owner) == ()

    own = [u for u in named if state.units[u].side == state.active or shared(u)]
    foes = [u for u in named if u not in own and value(u) <= ENEMY_CLOCK_LOW and enemy_clock]
    own = [u for u in own if len(mech.clock_key(state.units[u].owner)) < 2]
    high = [u for u in own if value(u) >= OWN_CLOCK_HIGH]
    if high:
        pick = max(high, key=lambda u: (value(u), state.units[u].unit.cost, u))
        return _setting(actions, pick, 1, passing)
    if foes:
        pick = max(foes, key=lambda u: (state.units[u].unit.cost, u))
        return _setting(actions, pick, 5, passing)
    return passing


def _setting(actions: Sequence[Action], uid: str, value: int, passing: Action) -> Action:
    return next((a for a in actions if a.target == uid and a.value == value), passing)
