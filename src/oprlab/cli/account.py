"""Battle accounts: what happened in one game, event by event, read from its log.

``oprlab battle`` prints one for a single game of any system through :func:`account`, which
picks the telling by the kind of game state (GFF and Riverside share :func:`opr_account`, WWPD
has :func:`wwpd_account`: turns and phases instead of activations), never by the system's name.
Each ends with the result, and names any unit that found no room to deploy and why (its models
are not counted as lost). An edge module: it may import every layer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import singledispatch
from typing import Any

from rich.console import Console
from rich.markup import escape

from oprlab.game.play import GameResult
from oprlab.game.state import GameState
from oprlab.game.wwpd import WwpdState

SIDES = "AB"


@singledispatch
def account(state: Any, console: Console, result: GameResult) -> None:
    """A finished game, event by event, told the way its procedure runs (by the state's type).

    Raises:
        TypeError: a state no account is registered for (a new procedure: register one).
    """
    raise TypeError(f"no battle account for {type(state).__name__}")


def _no_room_line(e: dict[str, Any], names: dict[str, str]) -> str:
    """A unit with no room: an Ambush unit that waits, or one left out (and why)."""
    name = names.get(e["unit"], e["unit"])
    if e.get("waits"):
        return f"  {name} finds no room to arrive from Ambush and waits"
    why = f": {e['reason']}" if e.get("reason") else ""
    return f"  [red]{name} cannot deploy{escape(why)}; it takes no part in the game[/]"


def not_deployed(console: Console, units: Sequence[tuple[str, str, int, str]]) -> None:
    """After the result: the units (uid, name, models, reason) that never deployed."""
    if not units:
        return
    console.print(
        f"[red]{len(units)} unit(s) found no room to deploy (not counted as lost models):[/]"
    )
    for uid, name, models, reason in units:
        console.print(f"  {uid} {name} ({models} models): {escape(reason)}")


@account.register
def _(state: GameState, console: Console, result: GameResult) -> None:
    opr_account(console, state, result)


@account.register
def _(state: WwpdState, console: Console, result: GameResult) -> None:
    wwpd_account(console, state, result)


def opr_account(console: Console, state: GameState, result: GameResult) -> None:
    """A GFF or Riverside game, event by event, then the result and any unit left out."""
    names = {uid: f"{uid} {u.unit.name}" for uid, u in state.units.items()}
    armies = state.armies
    console.print(
        f"[bold]{armies[0].name}[/] (A) vs [bold]{armies[1].name}[/] (B), "
        f"seed {state.seed}, mechanic {result.mechanic}, "
        + (f"{len(state.table.pieces)} terrain pieces" if state.table.pieces else "open table")
    )
    for e in state.log.events:
        k = e["kind"]
        if k == "round":
            console.rule(f"Round {e['round']}: {'AB'[e['first']]} goes first")
        elif k == "activate":
            target = f" -> {names[e['target']]}" if e.get("target") else ""
            console.print(f"  {names[e['unit']]}: {e['action']}{target}")
        elif k == "deploy" and e.get("phase") == "ambush":
            console.print(f"  {names[e['unit']]} arrives from Ambush")
        elif k == "no_room":
            console.print(_no_room_line(e, names))
        elif k == "zone" and "edge" in e:
            console.print(f"  {'AB'[e['side']]} picks the {e['edge']} edge")
        elif k == "roll_off" and "took" in e:  # Riverside: the winner's pick, the loser's
            edges = e.get("edges", [0, 1])
            console.print(
                f"  {'AB'[e['winner']]} wins the roll-off and takes "
                f"{'who goes first' if e['took'] == 'first' else 'its zone'}; "
                f"{'AB'[e['first']]} goes first, A deploys on the "
                f"{'south' if edges[0] == 0 else 'north'} edge"
            )
        elif k == "shoot":
            console.print(
                f'    shoots {names[e["target"]]} at {e["distance"]:.1f}": '
                f"{e['hits']} hits, {e['wounds']} wounds, {e['casualties']} down"
                + (" (in cover)" if e.get("cover") else "")
                + (f" ({e['defended']} defended by bennies)" if e.get("defended") else "")
            )
        elif k == "blast":
            console.print(
                f"    Blast shares {e['hits']} hits with {names[e['target']]}: "
                f"{e['wounds']} wounds, {e['casualties']} down"
                + (f" ({e['defended']} defended by bennies)" if e.get("defended") else "")
            )
        elif k == "limited":
            console.print(f"    uses up {', '.join(e['weapons'])} (Limited)")
        elif k == "cast":
            works = "works" if e["success"] else "fails"
            boost = f", boosted {e['boost']}" if e.get("boost") else ""
            console.print(
                f"  {names[e['unit']]} casts {e['spell']} ({e['value']}{boost}) "
                f"at {names[e['target']]}: {works}"
            )
        elif k == "spell":
            console.print(
                f"    {e['hits']} hits, {e['wounds']} wounds, {e['casualties']} down"
                + (f" ({e['defended']} defended by bennies)" if e.get("defended") else "")
            )
        elif k == "teleport":
            console.print(f'    {names[e["unit"]]} teleports {e["distance"]:.1f}"')
        elif k == "dangerous":
            when = {"activation": " as it activates", "charge": " on the charge"}.get(
                e.get("cause", ""), ""
            )
            console.print(f"    dangerous terrain{when}: {e['dice']} dice, {e['wounds']} wounds")
        elif k == "resist":
            console.print(f"    enemy Casters resist with {e['tokens']} tokens")
        elif k == "benny":
            console.print(_benny_line(e, names))
        elif k == "melee":
            console.print(
                f"    melee with {names[e['target']]}: dealt {e['wounds_dealt']} "
                f"wounds, took {e['wounds_taken']}"
                + (f" ({e['defended']} hits defended by bennies)" if e.get("defended") else "")
            )
        elif k == "consolidate":
            console.print(f'    {names[e["unit"]]} consolidates {e["distance"]:.1f}"')
        elif k == "charge_failed":
            console.print("    the charge falls short")
        elif k in ("destroyed", "routed"):
            console.print(f"    [red]{names[e['unit']]} {k}[/]")
        elif k == "shaken":
            console.print(f"    {names[e['unit']]} is Shaken ({e['cause']})")
        elif k == "rally":
            console.print("    stops being Shaken")
        elif k == "control":
            who = "neutral" if e["controller"] is None else "AB"[e["controller"]]
            console.print(f"  objective {e['objective'] + 1} -> {who}")
    win = "draw" if result.winner is None else f"army {'AB'[result.winner]} wins"
    console.rule(
        f"{win}: objectives {result.objectives[0]}-{result.objectives[1]}, "
        f"units left {result.units_left[0]}-{result.units_left[1]}"
    )
    not_deployed(console, [(n.unit, n.name, n.models, n.reason) for n in result.not_deployed])


def _benny_line(e: dict[str, Any], names: dict[str, str]) -> str:
    """One benny spent (seed 000 "Variants" 5), naming the side and what it bought."""
    side = "AB"[e["side"]]
    indent = "  " if e.get("when") == "activation" else "    "
    if e["use"] == "set_clock":
        key = [str(k) for k in e.get("clock", ())]
        if not key:
            clock = "the global clock"
        elif len(key) == 1 and key[0] in ("side0", "side1"):
            clock = f"{'AB'[int(key[0][-1])]}'s clock"  # one clock per army
        else:
            clock = f"{names.get(key[-1], key[-1])}'s clock"  # per-unit clocks
        return f"{indent}{side} spends a benny to set {clock} to {e.get('value')}"
    if e["use"] == "defend":
        hits = int(e.get("hits", 1))
        unit = names.get(str(e.get("unit", "")), "its unit")
        plural = "bennies" if hits > 1 else "a benny"
        return f"{indent}{side} spends {plural} to defend {unit} against {hits} hit(s)"
    return f"{indent}{side} spends a benny on an extra attack"


#: WWPD's phases as the account names them.
WWPD_PHASES = {"shooting": "shoots", "firefight": "fires in the Firefight at"}


def wwpd_account(console: Console, state: WwpdState, result: GameResult) -> None:
    """A WWPD game (seed 004), turn by turn: moves, shots and their saves, Leadership tests and
    pinning, charges and melee, markers seized; then the result and any unit left out."""
    names = {uid: f"{uid} {u.unit.name}" for uid, u in state.units.items()}
    forces = state.forces
    console.print(
        f"[bold]{escape(forces[0].name)}[/] (A) vs [bold]{escape(forces[1].name)}[/] (B), "
        f"WWPD, seed {state.seed}, "
        + (f"{len(state.table.pieces)} terrain pieces" if state.table.pieces else "open table")
    )
    moving: str | None = None
    for e in state.log.events:
        k = e["kind"]
        if k == "setup":
            console.print(
                f"  {len(e['markers'])} objective markers; {SIDES[e['first']]} goes first"
            )
        elif k == "no_room":
            console.print(_no_room_line(e, names))
        elif k == "round":
            console.rule(f"Round {e['round']}: {SIDES[e['first']]} plays first")
        elif k == "turn":
            console.print(f"[bold]Turn {e['turn']}: {SIDES[e['player']]}[/]")
        elif k == "decide":
            moving = _wwpd_decision(console, e, names)
        elif k == "move" and moving == e["unit"]:
            console.print(f'  {names[e["unit"]]} moves {e["distance"]:.1f}"')
        elif k in WWPD_PHASES:
            console.print(_wwpd_shot(e, names))
        elif k == "melee":
            console.print(f"    {names[e['unit']]} strikes {names[e['target']]}")
            console.print(_wwpd_dice(e))
        elif k == "charge_failed":
            console.print("    the charge falls short")
        elif k == "separate":
            console.print(f"    {names[e['unit']]} steps back")
        elif k == "leadership":
            verdict = "passes" if e["passed"] else "fails"
            console.print(f"    {names[e['unit']]} {verdict} Leadership ({e['target']}+)")
        elif k == "pinned":
            console.print(f"    {names[e['unit']]} is pinned")
        elif k == "destroyed":
            console.print(f"    [red]{names[e['unit']]} destroyed[/]")
        elif k == "control":
            who = "neutral" if e["controller"] is None else SIDES[e["controller"]]
            console.print(f"  marker {e['marker'] + 1} -> {who}")
    win = "draw" if result.winner is None else f"force {SIDES[result.winner]} wins"
    console.rule(
        f"{win}: markers {result.objectives[0]}-{result.objectives[1]}, units left "
        f"{result.units_left[0]}-{result.units_left[1]}, models lost "
        f"{result.models_lost[0]}-{result.models_lost[1]}"
    )
    not_deployed(console, [(n.unit, n.name, n.models, n.reason) for n in result.not_deployed])


def _wwpd_decision(console: Console, e: dict[str, Any], names: dict[str, str]) -> str | None:
    """A unit's decision in a phase; returns the unit when its move comes next."""
    unit, action = names[e["unit"]], e["action"]
    if action == "move":
        return str(e["unit"])
    if action == "cower":
        console.print(f"  {unit} cowers")
    elif action == "charge":
        console.print(f"  {unit} charges {names[e['target']]}")
    return None


def _wwpd_shot(e: dict[str, Any], names: dict[str, str]) -> str:
    cover = "" if e.get("cover", "none") == "none" else f" ({e['cover']} cover)"
    return (
        f"  {names[e['unit']]} {WWPD_PHASES[e['kind']]} {names[e['target']]}{cover}\n"
        + _wwpd_dice(e)
    )


def _wwpd_dice(e: dict[str, Any]) -> str:
    """An attack's dice and what came of them (seed 004: to hit, to wound, saves)."""
    return (
        f"    {e['dice']} dice: {e['hits']} hits, {e['wounds']} wounds, {e['saves']} saved, "
        f"{e['casualties']} down"
    )
