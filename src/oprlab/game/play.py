"""Play a whole game between two commanders, and series of games.

A commander that returns an action outside the legal list is refused with a clear error that
names the commander and the action, so a bad player never corrupts a game silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from oprlab import __version__
from oprlab.errors import OprlabError, OptionError
from oprlab.game import gff, riverside
from oprlab.game.state import GameState
from oprlab.mechanics import Mechanic
from oprlab.players.base import Commander
from oprlab.table.model import Table
from oprlab.units.model import Army

#: A generous bound on decisions per game; a game that needs more is a bug, not a long game.
MAX_DECISIONS = 10_000


class IllegalActionError(OprlabError):
    """A commander chose an action that is not legal."""


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game and how to reproduce it."""

    seed: int
    system: str
    mechanic: str
    winner: int | None
    objectives: tuple[int, int]
    units_left: tuple[int, int]
    models_lost: tuple[int, int]
    rounds: int
    decisions: int
    commanders: tuple[str, str]
    rules_version: str = ""
    rule_options: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "system": self.system,
            "mechanic": self.mechanic,
            "winner": self.winner,
            "objectives": list(self.objectives),
            "units_left": list(self.units_left),
            "models_lost": list(self.models_lost),
            "rounds": self.rounds,
            "decisions": self.decisions,
            "commanders": list(self.commanders),
            "rules_version": self.rules_version,
            "rule_options": dict(self.rule_options),
            "oprlab": __version__,
        }


#: The OPR rule systems' game procedures, by name (each a module with the same functions).
ENGINES: dict[str, ModuleType] = {"gff": gff, "riverside": riverside}

#: Each procedure's version: the seed text it implements and a revision, bumped whenever a
#: change of rules changes games (with the pinned log hashes), so stored results say which
#: rules played them.
#: Issue 10 (gff r6, riverside r5): the dice come from the seed's own stream (``oprlab.rng``);
#: GFF models shoot and strike by their own range and reach, melee casualties keep the fighters
#: and the strike back is the charged side's decision; a marker with no point over 9" away goes
#: at the farthest point; rules some models have act through those models' weapons.
ENGINE_VERSIONS: dict[str, str] = {
    "gff": "003_8abb008d4113ed75 r6",
    "riverside": "002_fdb385c07cc953af r5",
}


def engine(system: str) -> ModuleType:
    """The game procedure of ``system``; unknown names get a clear error."""
    try:
        return ENGINES[system]
    except KeyError:
        raise OptionError(
            "no full-game procedure for this system",
            value=system,
            expected=" or ".join(sorted(ENGINES)),
        ) from None


def play_game(
    army_a: Army,
    army_b: Army,
    commanders: Sequence[Commander],
    *,
    seed: int,
    mechanic: str | Mechanic = "d6",
    table: Table | None = None,
    log: bool = True,
    system: str = "gff",
    on_round: Callable[[GameState, int], None] | None = None,
    options: Any = None,
) -> tuple[GameResult, GameState]:
    """Play one game to its end; returns the result and the final state (with its log).

    ``on_round(state, n)`` is called once each round ``n`` has ended (morale and markers
    settled), before anything of the next round: how a caller draws the table round by round
    without the procedure knowing about drawings. ``options`` are the system's readings
    (:mod:`oprlab.game.options`; ``None``: its defaults).
    """
    rules = engine(system)
    state = rules.new_game(
        army_a, army_b, seed=seed, mechanic=mechanic, table=table, log=log, options=options
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
        rules.apply(state, action)
        if on_round is not None and before >= 1 and (state.round != before or state.done):
            on_round(state, before)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise OprlabError(f"game {seed} did not end after {MAX_DECISIONS} decisions")
    return result_of(state, commanders, decisions), state


def result_of(state: GameState, commanders: Sequence[Commander], decisions: int) -> GameResult:
    lost = tuple(
        sum(
            u.unit.size - max(0, u.models) if not u.routed else u.unit.size
            for u in state.side_units(s)
        )
        for s in (0, 1)
    )
    return GameResult(
        seed=state.seed,
        system=state.system,
        mechanic=str(state.extra.get("mechanic_name", state.mechanic.name)),
        winner=state.winner,
        objectives=engine(state.system).score(state),
        units_left=(
            engine(state.system).units_left(state, 0),
            engine(state.system).units_left(state, 1),
        ),
        models_lost=(lost[0], lost[1]),
        rounds=state.round,
        decisions=decisions,
        commanders=(commanders[0].name, commanders[1].name),
        rules_version=ENGINE_VERSIONS[state.system],
        rule_options=_flat(engine(state.system).options_of(state)),
    )


def _flat(options: Any) -> tuple[tuple[str, Any], ...]:
    """A game's options as (name, value) pairs of plain values (nested readings by repr)."""
    pairs = ((f.name, getattr(options, f.name)) for f in dataclasses.fields(options))
    return tuple((k, v if isinstance(v, str | int | float | bool) else repr(v)) for k, v in pairs)
