"""The rules commander's habits for Riverside's own decisions (seed 002_fdb385c07cc953af).

- The roll-off (``CHOOSE_ZONE``): the winner chooses the activation order and follows (``rules``:
  the second mover answers the first's moves; under the rules commander the first mover scored
  0.33, issue 14) or leads (``rules-v1``); a commander choosing a zone takes the edge nearer the
  markers (:func:`oprlab.game.riverside.preferred_edge`); a commander choosing the order
  follows or leads likewise.
- Casting (``CAST``): once the commander's best action is known, the unit taking it first tries
  the spell with the most expected points removed, if that is positive (as in GFF); after a
  Rush or before a shot the same.
- Resisting (``RESIST``): it meets the tokens spent on the spell (value and boost) with as many
  of its own as it may, when the spell's target is worth more than those tokens would be.
- Teleport (``TELEPORT``): looked ahead on a clone of the game: the unit teleports when the best
  action from where it lands (a charge now in reach, a shot now in range, a marker now held)
  scores better than the best action without it.
- Bennies (``clock-bennies``): the extra attack and ``SET_CLOCK`` are the commander's GFF habits
  (``RulesCommander._benny``, ``_set_clock``), and so is the clock at an activation's start
  (``gff_choices.start_clock``: an own clock at 4+ to 1, else an enemy clock at 1-2 to 5, else
  pass); ``DEFEND`` (also against a spell's hits) is GFF's habit (defend a Hero, the
  last model, or a quarter of the unit's points, with spare bennies) read with Riverside's
  Defense rolls.

:func:`choose` answers the decisions that include these kinds and leaves the rest (``None``) to
the commander. May import ``oprlab.game`` and ``oprlab.players``' Riverside modules.
"""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game import riverside as rv
from oprlab.game import riverside_combat as combat
from oprlab.game import riverside_defend
from oprlab.game.actions import Action, Kind
from oprlab.game.gff import CASTING_ROLL, SPELLS
from oprlab.game.state import GameState, Phase
from oprlab.mechanics import get_mechanic
from oprlab.players.gff_choices import MANY_POINTS, spare_bennies, start_clock
from oprlab.players.rules.scorer import Scorer
from oprlab.rules.riverside.attack import defense_check

#: A teleport must beat the best action without it by this much (points): it is spent once.
TELEPORT_MARGIN = 1.0
#: A token kept is worth this share of a token's expected spell damage (it can cast later).
TOKEN_KEEP = 1.1
ABILITIES = (Kind.CAST, Kind.TELEPORT)


def choose(cmd: Scorer, state: GameState, actions: Sequence[Action]) -> Action | None:
    """The choice for a Riverside decision with a roll-off, resist, cast or teleport in it."""
    kind = actions[0].kind
    if kind is Kind.CHOOSE_ZONE:
        return zone_choice(state, actions, lead=cmd.style.lead)
    if kind is Kind.RESIST:
        return resist_choice(state, actions)
    if kind is Kind.DEFEND:
        return defend_choice(state, actions)
    if kind is Kind.SET_CLOCK and state.phase == Phase.CLOCKS:  # an activation's start: GFF's habit
        return start_clock(state, actions, enemy_clock=cmd.style.enemy_clock)
    special = [a for a in actions if a.kind in ABILITIES]
    if not special:
        return None
    rest = [a for a in actions if a.kind not in ABILITIES]
    best = cmd.choose(state, rest)
    casts = [a for a in special if a.kind is Kind.CAST and a.unit == best.unit]
    if casts:
        cast = max(casts, key=lambda a: (cast_value(state, a), -a.boost, a.value))
        if cast_value(state, cast) > 0:
            return cast
    teleports = [a for a in special if a.kind is Kind.TELEPORT]
    if teleports:
        base = _value(cmd, state, best)
        scored = [(_after_teleport(cmd, state, a), a) for a in teleports]
        value, tp = max(scored, key=lambda pair: pair[0])
        if value > base + TELEPORT_MARGIN:
            return tp
    return best


def zone_choice(state: GameState, actions: Sequence[Action], *, lead: bool = True) -> Action:
    """Take the order if free to, and lead (``lead``) or follow; else the zone nearer the
    markers. The ``rules`` commander follows since issue 14: under it the first mover scores
    0.33 (activating second answers the first mover's moves and ends the round)."""
    picks = {a.choice: a for a in actions}
    for wanted in ("first", "lead" if lead else "follow"):
        if wanted in picks:
            return picks[wanted]
    if "low" in picks:
        return picks["low" if rv.preferred_edge(state) == 0 else "high"]
    return actions[0]  # a forced single pick ("zone")


def expected_wounds(state: GameState) -> float:
    """Wounds the waiting volley's hits are expected to cause (d6 odds of each hit's Defense
    roll, Cover and AP as rolled, Deadly multiplying; Regeneration not counted)."""
    shot = rv.defending(state)
    d = combat.defender(state.units[shot.target])
    d6 = get_mechanic("d6")
    wounds = 0.0
    for p, s, hits in shot.rolled:
        for hit in hits:
            check = defense_check(p, s, d, hit)
            fails = float(d6.outcomes(check).probability(lambda o: not o.success))
            wounds += fails * p.deadly
    return wounds


def defend_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """GFF's habit (``gff_choices.defend``): defend one benny per hit, as many hits as spare
    bennies allow, when the hits threaten a Hero, the unit's last model, or an expected quarter
    of its points; else spend none."""
    none = min(actions, key=lambda a: a.value)
    us = state.units[none.unit]
    spare = spare_bennies(state, us.side)
    if spare <= 0:
        return none
    unit = us.unit
    per_wound = unit.cost / max(1, unit.size) / max(1, unit.tough)
    threatened = (
        unit.hero or us.models == 1 or expected_wounds(state) * per_wound >= MANY_POINTS * unit.cost
    )
    if not threatened:
        return none
    want = min(spare, riverside_defend.hit_count(rv.defending(state).rolled))
    return max((a for a in actions if a.value <= want), key=lambda a: a.value)


def resist_choice(state: GameState, actions: Sequence[Action]) -> Action:
    """Meet the spell's tokens with ours when the target is worth more than they are."""
    _, spell_action, _ = rv.casting(state)
    target = state.units[spell_action.target]
    per_token = _bolt_per_token(state, spell_action.target)
    worth = target.unit.cost / max(1, target.unit.size) * min(target.models, 3)
    if worth <= TOKEN_KEEP * per_token:
        return actions[0]
    want = spell_action.value + spell_action.boost
    return max((a for a in actions if a.value <= want), key=lambda a: a.value)


def cast_value(state: GameState, a: Action) -> float:
    """Expected points a spell removes (d6: the 4+ roll, +1 per boost, a 1 fails, a 6 works;
    each hit wounds when the Defense roll, worsened by AP, fails), less what the boosting
    tokens could do on their own."""
    spell = next(s for s in SPELLS if s.name == a.spell)
    target = state.units[a.target]

    def works(boost: int) -> float:
        return min(5, max(1, 7 - CASTING_ROLL + boost)) / 6

    saves = min(5, max(1, 7 - (target.unit.defense + spell.ap))) / 6
    per_wound = target.unit.cost / max(1, target.unit.size) / max(1, target.unit.tough)
    damage = a.value * spell.hits_per_token * (1 - saves) * per_wound
    return works(a.boost) * damage - TOKEN_KEEP * a.boost * works(0) * damage / a.value


def _bolt_per_token(state: GameState, target: str) -> float:
    """What one token of the first spell is expected to do to ``target`` (unboosted)."""
    spell = SPELLS[0]
    probe = Action(Kind.CAST, "", target=target, spell=spell.name, value=1)
    return max(0.0, cast_value(state, probe))


def _value(cmd: Scorer, state: GameState, a: Action) -> float:
    """The commander's worth of an action: a shot's damage, or an activation's score."""
    if a.kind is Kind.SET_CLOCK:  # before the shot: what the best shot is worth
        shots = [s for s in rv.shoot_actions(state, state.units[a.unit]) if not s.benny]
        return max(cmd._shoot_value(state, s) for s in shots)
    if a.kind is Kind.SHOOT:
        if state.phase == Phase.SHOOT:
            return cmd._shoot_value(state, a)
        return _stay_value(cmd, state, a.unit)
    return cmd.score(state, a)


def _stay_value(cmd: Scorer, state: GameState, uid: str) -> float:
    """What standing where the unit is is worth (markers, danger): after a Rush."""
    us = state.units[uid]
    here = cmd._read(state).centroid(us)
    return cmd._position_value(state, us, here) + cmd._projected(state, us, here)


def _after_teleport(cmd: Scorer, state: GameState, tp: Action) -> float:
    """The best the unit can do right after teleporting (on a clone of the game)."""
    twin = state.clone()
    twin.log.enabled = False
    rv.apply(twin, tp)
    going_on = twin.pending is not None and twin.pending.unit == tp.unit
    options = [a for a in rv.legal_actions(twin) if a.kind not in ABILITIES] if going_on else []
    if options:
        value = max(_value(cmd, twin, a) for a in options)
    else:  # after a Rush, nothing else to do: the place it stands
        value = _stay_value(cmd, twin, tp.unit)
    cmd._view = None  # the next reading is of the real game again
    return value
