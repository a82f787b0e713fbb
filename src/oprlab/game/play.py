"""Play a whole game between two commanders, and series of games.

A commander that returns an action outside the legal list is refused with a clear error that
names the commander and the action, so a bad player never corrupts a game silently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from oprlab.errors import OprlabError, OptionError
from oprlab.game.actions import ACTIVATIONS
from oprlab.game.system import GameResult, NotDeployed, RuleSystem, flat_readings
from oprlab.game.systems import VERSIONS, find_system
from oprlab.mechanics import Mechanic
from oprlab.memo import begin_game
from oprlab.rng import activation_dice
from oprlab.table.model import Table

__all__ = [
    "DICE_DESIGNS",
    "ENGINE_VERSIONS",
    "KEYED_SYSTEMS",
    "MAX_DECISIONS",
    "Commander",
    "GameResult",
    "IllegalActionError",
    "NotDeployed",
    "check_dice",
    "play_game",
    "result_of",
]

#: A generous bound on decisions per game; a game that needs more is a bug, not a long game.
MAX_DECISIONS = 10_000
#: How a game's dice are drawn. ``"stream"``: one stream of the seed, each die the next (every
#: stored game and golden). ``"keyed"``: each activation rolls from its own stream, keyed on
#: the seed, the round and the unit (:func:`oprlab.rng.activation_dice`), so two games of one
#: seed that part (another rule, commander or reading) still roll the same dice for the same
#: unit's activation: common random numbers past the first difference. An experimenter's
#: design, not a rule: each game is as random either way. OPR systems (GFF, Riverside).
DICE_DESIGNS = ("stream", "keyed")
#: The systems whose decisions are OPR activations, the ones keyed dice follow.
KEYED_SYSTEMS = ("gff", "riverside")


class Commander(Protocol):
    """A player: chooses one of ``actions`` (never empty) for the side to act.

    The protocol lives with the play loop that calls it, so the game layer needs nothing
    from the players above it; :mod:`oprlab.players` implements it.
    """

    name: str

    def choose(self, state: Any, actions: Sequence[Any]) -> Any: ...


class IllegalActionError(OprlabError):
    """A commander chose an action that is not legal."""


#: Each procedure's version, by system name (:data:`oprlab.game.systems.VERSIONS`).
ENGINE_VERSIONS = VERSIONS


def play_game(
    army_a: Any,
    army_b: Any,
    commanders: Sequence[Commander],
    *,
    seed: int,
    mechanic: str | Mechanic | None = None,
    table: Table | None = None,
    log: bool = True,
    system: str | RuleSystem = "gff",
    on_round: Callable[[Any, int], None] | None = None,
    options: Any = None,
    on_decision: Callable[[Any, Any], None] | None = None,
    dice: str = "stream",
) -> tuple[GameResult, Any]:
    """Play one game to its end; returns the result and the final state (with its log).

    ``on_round(state, n)`` is called once each round ``n`` has ended (morale and markers
    settled), before anything of the next round: how a caller draws the table round by round
    without the procedure knowing about drawings. ``on_decision(state, action)`` is called
    after each decision is applied (before ``on_round``): how a caller keeps a
    :class:`~oprlab.game.trail.Trail` of the moves. ``options`` are the system's readings
    (:mod:`oprlab.game.options`; ``None``: its defaults). A game of other armies or another
    table than the last empties the memos of the last game's units (:mod:`oprlab.memo`).
    ``dice``: one of :data:`DICE_DESIGNS`.
    """
    rules = find_system(system) if isinstance(system, str) else system
    keyed = check_dice(dice, rules.name)
    begin_game(army_a, army_b, table)
    state = rules.new_game(
        army_a, army_b, seed=seed, mechanic=mechanic, table=table, log=log, readings=options
    )
    decisions = 0
    while not state.done:
        actions = rules.legal_actions(state)
        if not actions:
            raise OprlabError(f"no legal action in phase {state.phase!r} (round {state.round})")
        commander = commanders[state.active]
        action = commander.choose(state, actions)
        if action not in actions and not rules.is_legal(state, action):
            raise IllegalActionError(
                f"commander {commander.name!r} (side {state.active + 1}) chose an illegal "
                f"action: {action}"
            )
        before = state.round
        if keyed and action.kind in ACTIVATIONS:
            state.rng = activation_dice(seed, state.round, action.unit)
        rules.apply(state, action)
        if on_decision is not None:
            on_decision(state, action)
        if on_round is not None and before >= 1 and (state.round != before or state.done):
            on_round(state, before)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise OprlabError(f"game {seed} did not end after {MAX_DECISIONS} decisions")
    return result_of(rules, state, commanders, decisions), state


def check_dice(dice: str, system: str) -> bool:
    """Whether ``dice`` is the keyed design; one line for an unknown design or keyed dice in a
    system whose decisions are not OPR activations (WWPD)."""
    if dice not in DICE_DESIGNS:
        raise OptionError("unknown dice design", value=dice, expected=" or ".join(DICE_DESIGNS))
    if dice == "keyed" and system.split("+")[0] not in KEYED_SYSTEMS:
        raise OptionError(
            "keyed dice follow OPR activations", value=system, expected=" or ".join(KEYED_SYSTEMS)
        )
    return dice == "keyed"


def result_of(
    rules: RuleSystem, state: Any, commanders: Sequence[Commander], decisions: int
) -> GameResult:
    """A finished (or stopped) game's result, asked of its system."""
    return GameResult(
        seed=state.seed,
        system=rules.name,
        mechanic=rules.mechanic_name(state),
        winner=state.winner,
        objectives=rules.score(state),
        units_left=(rules.units_left(state, 0), rules.units_left(state, 1)),
        models_lost=(rules.models_lost(state, 0), rules.models_lost(state, 1)),
        rounds=state.round,
        decisions=decisions,
        commanders=(commanders[0].name, commanders[1].name),
        rules_version=rules.version,
        rule_options=flat_readings(rules.readings_of(state)),
        not_deployed=rules.not_deployed(state),
        commander_revisions=(_revision(commanders[0]), _revision(commanders[1])),
    )


def _revision(commander: Commander) -> str:
    """A commander's revision, if the players' registry gave it one (scripted test
    commanders have none)."""
    return str(getattr(commander, "revision", ""))
