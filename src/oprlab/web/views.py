"""What each page shows, from the query or body it was asked with: forms in, plain data out.

Kept apart from the routes (``app.py``) so the same data feeds the HTML pages and the JSON API.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from oprlab.analysis.odds import Distribution, OddsResult
from oprlab.display import one_line
from oprlab.errors import OptionError, UserError
from oprlab.game.systems import find_system
from oprlab.web import engine
from oprlab.web.engine import GameSetup, Recorded
from oprlab.web.reach import reach_areas

__all__ = [
    "GameForm",
    "Move",
    "OddsForm",
    "act",
    "error_text",
    "form_context",
    "odds_context",
    "odds_json",
    "open_file",
    "play_view",
    "replay_context",
    "samples_units",
    "setup_of",
]

#: Rows of a distribution shown (k = 0 ...); the rest are summed into "at least" of the last.
MAX_ROWS = 40
#: Below this probability a row of a distribution is left out of the chart.
SHOWN_P = 5e-5


def error_text(exc: Exception) -> str:
    """An error as the command line prints it: one line starting ``error:``."""
    return "error: " + one_line(str(exc))


class OddsForm(BaseModel):
    """The odds page's query: two lists (a sample or pasted text), a unit of each, the rules
    and the situation."""

    a: str = "gff/shooty-300"
    a_text: str = ""
    attacker: str = ""
    d: str = "gff/melee-300"
    d_text: str = ""
    defender: str = ""
    system: str = "gff"
    mechanic: str = "d6"
    melee: bool = False
    range: str = ""
    cover: bool = False
    charging: bool = False
    moved: bool = False


class GameForm(BaseModel):
    """A game's setup as the forms send it (``side``: the person's side when playing)."""

    a: str = "gff/shooty-150"
    a_text: str = ""
    b: str = "gff/melee-150"
    b_text: str = ""
    system: str = "gff"
    mechanic: str = "d6"
    table: str = "random"
    seed: int = 1
    dice: str = "stream"
    ca: str = "rules"
    cb: str = "rules"
    side: str = "A"
    vs: str = "random"
    option: list[str] = Field(default_factory=list)


class Move(BaseModel):
    """A person's decision: the step it answers (a stale page is refused) and the action."""

    step: int
    action: dict[str, Any]


def _distance(text: str) -> float | None:
    if not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        raise OptionError("range is a number of inches", value=text, expected="e.g. 12") from None


def _names(army: Any) -> list[str]:
    return list(dict.fromkeys(u.name for u in army.units))


def _query(q: OddsForm, context: dict[str, Any]) -> engine.OddsQuery:
    army_a, _ = engine.army_from(q.a, q.a_text, "attacker list")
    context["units_a"] = _names(army_a)
    army_d, _ = engine.army_from(q.d, q.d_text, "defender list")
    context["units_d"] = _names(army_d)
    return engine.OddsQuery(
        engine.unit_named(army_a, q.attacker),
        engine.unit_named(army_d, q.defender),
        system=q.system,
        mechanic=q.mechanic,
        melee=q.melee,
        distance=_distance(q.range),
        cover=q.cover,
        charging=q.charging,
        moved=q.moved,
    )


def _rows(d: Distribution) -> list[dict[str, float]]:
    rows = [
        {"k": k, "p": p, "at_least": d.at_least(k)}
        for k, p in enumerate(d.pmf)
        if p >= SHOWN_P or k == 0
    ]
    return rows[:MAX_ROWS]


def _summary(r: OddsResult) -> dict[str, Any]:
    return {
        "hits": r.hits.mean,
        "wounds": r.wounds.mean,
        "casualties": r.casualties.mean,
        "p_destroyed": r.p_destroyed,
        "p_shaken": r.p_shaken,
    }


def _compare(query: engine.OddsQuery) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in engine.odds_mechanics():
        try:
            rows.append({"mechanic": name, **_summary(engine.odds_for(query, name))})
        except UserError as exc:
            rows.append({"mechanic": name, "error": error_text(exc)})
    return rows


def odds_context(q: OddsForm) -> dict[str, Any]:
    """The odds page: the form, the units to choose from, the charts and the comparison."""
    context: dict[str, Any] = {
        "q": q,
        "samples": engine.list_samples("army-forge"),
        "sample_formats": None,
        "systems": engine.odds_systems(),
        "mechanics": engine.odds_mechanics(),
        "units_a": [],
        "units_d": [],
        "error": None,
        "odds": None,
        "compare": [],
    }
    try:
        query = _query(q, context)
        result = engine.odds_for(query)
        context["odds"] = {
            "attacker": query.attacker.name,
            "defender": query.defender.name,
            "weapons": ", ".join(result.weapons),
            "method": "Monte Carlo" if result.samples else "exact",
            "charts": [
                ("hits", _rows(result.hits), result.hits.mean),
                ("wounds", _rows(result.wounds), result.wounds.mean),
                ("casualties", _rows(result.casualties), result.casualties.mean),
            ],
            "p_destroyed": result.p_destroyed,
            "p_shaken": result.p_shaken,
        }
        context["compare"] = _compare(query)
    except UserError as exc:
        context["error"] = error_text(exc)
    return context


def odds_json(q: OddsForm) -> dict[str, Any]:
    """The odds as JSON: ``oprlab odds --json``'s fields and the mechanics compared."""
    context: dict[str, Any] = {}
    query = _query(q, context)
    out = engine.odds_for(query).to_json()
    out["attacker"] = query.attacker.name
    out["defender"] = query.defender.name
    out["compare"] = _compare(query)
    return out


def samples_units() -> dict[str, list[str]]:
    """Each bundled sample and the names of its units."""
    return {s: _names(engine.army_from(s, None, s)[0]) for s in engine.list_samples()}


# --- games -------------------------------------------------------------------------------------


def setup_of(q: GameForm, *, person: str | None) -> GameSetup:
    """The setup of a game from the form; ``person``: the side (A or B) a person plays, or
    ``both`` (two people at one screen, taking turns)."""
    fmt = find_system(q.system).army_format
    _, text_a = engine.army_from(q.a, q.a_text, "army A", fmt)
    _, text_b = engine.army_from(q.b, q.b_text, "army B", fmt)
    ca, cb = q.ca, q.cb
    if person is not None:
        if person not in ("A", "B", "both"):
            raise OptionError("a person plays side", value=person, expected="A, B or both")
        ca = "person" if person in ("A", "both") else q.vs
        cb = "person" if person in ("B", "both") else q.vs
    for who, name in (("commander A", ca), ("commander B", cb)):
        if (name == "person" and person is None) or name not in (*engine.COMMANDERS, "person"):
            raise OptionError(f"unknown {who}", value=name, expected=" or ".join(engine.COMMANDERS))
    return GameSetup(
        text_a,
        text_b,
        name_a=q.a if not q.a_text.strip() else "army A",
        name_b=q.b if not q.b_text.strip() else "army B",
        system=q.system,
        mechanic=q.mechanic,
        table=q.table,
        seed=q.seed,
        dice=q.dice,
        commander_a=ca,
        commander_b=cb,
        rule_options=tuple(o for o in q.option if o.strip()),
    )


def form_context(q: GameForm, *, play: bool) -> dict[str, Any]:
    """A game's setup form (for watching or for playing): every system find_system knows,
    each with its mechanics (the page offers a system's own)."""
    systems = engine.game_systems()
    mechanics: dict[str, list[str]] = {}
    for system in systems:
        for m in engine.game_mechanics(system):
            mechanics.setdefault(m, []).append(system)
    return {
        "q": q,
        "play": play,
        "samples": engine.list_samples(),
        "sample_formats": {s: engine.sample_format(s) for s in engine.list_samples()},
        "systems": systems,
        "formats": {s: find_system(s).army_format for s in systems},
        "mechanics": mechanics,
        "tables": engine.TABLES,
        "dice": {d: engine.dice_systems(d) for d in engine.DICE_DESIGNS},
        "commanders": engine.COMMANDERS,
        "options": {s: engine.rule_option_keys(s) for s in systems},
        "error": None,
    }


def _log(game: Recorded) -> list[dict[str, Any]]:
    return [{"title": f.title, "lines": f.lines} for f in game.frames]


def replay_context(game: Recorded, key: str) -> dict[str, Any]:
    """The viewer: every step's table and account lines, the setup and the result."""
    result = engine.result_line(game.result()) if game.done else "unfinished"
    return {
        "key": key,
        "setup": game.setup,
        "frames": game.frames,
        "result": result,
        "armies": [a.name for a in getattr(game.state, "armies", None) or game.state.forces],
    }


def _people(game: Recorded) -> list[int]:
    """The sides people play."""
    names = (game.setup.commander_a, game.setup.commander_b)
    return [side for side, name in enumerate(names) if name == "person"]


def play_view(game: Recorded) -> dict[str, Any]:
    """A game being played, for the page: the table, the log, the person's actions and how
    far each of their units could move with each (drawn when the unit is clicked)."""
    people = _people(game)
    yours = not game.done and game.state.active in people
    names = game.names
    actions = game.rules.legal_actions(game.state) if yours else []
    return {
        "step": len(game.frames) - 1,
        "done": game.done,
        "svg": game.frames[-1].svg,
        "log": _log(game),
        "person": " and ".join("AB"[side] for side in people),
        "active": "AB"[game.state.active],
        "your_turn": yours,
        "round": game.state.round,
        "phase": game.state.phase,
        "names": names,
        "actions": [
            {
                "unit": a.unit,
                "label": engine.describe(a, names),
                "action": engine.action_to_json(a),
            }
            for a in actions
        ],
        "reach": reach_areas(game.state, actions),
        "result": engine.result_line(game.result()) if game.done else None,
        "table": [game.state.table.width, game.state.table.depth],
    }


def act(game: Recorded, move: Move) -> None:
    """Apply a person's decision, checked by the engine, then let the computer answer."""
    if game.done:
        raise OptionError("the game is over", expected="a new game")
    if game.state.active not in _people(game):
        raise OptionError("it is not your turn", expected="the computer's answer first")
    current = len(game.frames) - 1
    if move.step != current:
        raise OptionError("the page is behind the game", value=move.step, expected=f"{current}")
    action = engine.action_from_json(move.action, "action", game.action_class)
    if not engine.legal(game, action):
        raise OptionError("not a legal decision now", value=str(action), expected="a listed one")
    game.step(action)
    engine.advance(game, until_person=True)


def open_file(data: Any, where: str) -> Recorded:
    """A game file (saved from the page or written by ``oprlab battle --log``) played again
    from its setup and decisions."""
    return engine.replay_stored(data, where)
