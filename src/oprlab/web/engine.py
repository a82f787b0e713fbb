"""Everything the web app asks of the library, in one module (so a moved import is one fix).

The page never names a file: a list is a bundled sample's name (checked against the list of
samples) or text pasted into the page (bounded by :data:`MAX_LIST_CHARS`). Errors are the
library's own :class:`~oprlab.errors.UserError` lines, the same the command line prints.
"""

from __future__ import annotations

import dataclasses
import io
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast
from xml.sax.saxutils import escape

from rich.console import Console

from oprlab.analysis.odds import OddsResult, Situation
from oprlab.analysis.pictures import battle_svg
from oprlab.cli.account import opr_account
from oprlab.cli.inputs import check_playable, units_army
from oprlab.cli.odds import (
    build_situation,
    compute_odds,
    mechanic_options,
    opr_mechanics,
)
from oprlab.errors import OptionError, UserError
from oprlab.game.actions import Action, Kind
from oprlab.game.options import parse_options, settable
from oprlab.game.play import GameResult, result_of
from oprlab.game.system import RuleSystem
from oprlab.game.systems import find_system
from oprlab.game.trail import Trail
from oprlab.players import get_commander
from oprlab.rng import commander_stream
from oprlab.samples import sample_names, sample_text
from oprlab.table.model import Table
from oprlab.table.terrain import generate_table
from oprlab.units.load import parse_army
from oprlab.units.model import Army, Unit
from oprlab.version import __version__

__all__ = [
    "COMMANDERS",
    "GAME_SYSTEMS",
    "MAX_LIST_CHARS",
    "TABLES",
    "Action",
    "GameSetup",
    "OddsQuery",
    "Recorded",
    "UserError",
    "account_lines",
    "action_from_json",
    "action_to_json",
    "army_from",
    "list_samples",
    "odds_for",
    "odds_mechanics",
    "rule_option_keys",
]

#: Longest list text a page may send (a 2,000-point Army Forge JSON export is about 22,000).
MAX_LIST_CHARS = 60_000
#: Systems a game can be played in from the page (WWPD forces are not Army Forge lists).
GAME_SYSTEMS = ("gff", "riverside")
#: Computer commanders (players/).
COMMANDERS = ("rules", "random")
#: Tables the page offers: no terrain, or terrain generated from the game's seed.
TABLES = ("open", "random")
#: Longest a game played for the page may take (seconds of play on the server).
GAME_SECONDS = 60.0
#: Largest seed accepted (the library takes any non-negative int; the page keeps it to 63 bits).
MAX_SEED = 2**63 - 1


def list_samples() -> list[str]:
    """The bundled Army Forge samples the page offers (``gff/shooty-150``; text lists)."""
    return [n.removesuffix(".txt") for n in sample_names() if n.endswith(".txt")]


def army_from(sample: str | None, text: str | None, label: str) -> tuple[Army, str]:
    """An army from a sample's name or pasted text, with its source text (kept in stored
    games); the page's text is parsed, never opened as a path."""
    if text is not None and text.strip():
        if len(text) > MAX_LIST_CHARS:
            raise OptionError(
                f"{label}: list too long",
                value=f"{len(text):,} characters",
                expected=f"at most {MAX_LIST_CHARS:,} characters (an Army Forge list)",
            )
        return parse_army(text, label), text
    if not sample:
        raise OptionError(f"{label}: no list", expected="a sample or a pasted Army Forge list")
    if sample not in list_samples():
        raise OptionError(
            f"{label}: unknown sample", value=sample, expected="one of " + ", ".join(list_samples())
        )
    source = sample_text(sample + ".txt")
    return parse_army(source, sample), source


def check_armies(sides: Sequence[tuple[str, Army]], command: str) -> None:
    """Refuse armies with errors, with the command line's words."""
    check_playable([(label, label, army) for label, army in sides], command=command)


def unit_named(army: Army, name: str | None) -> Unit:
    """The unit of ``army`` called ``name`` (the first unit when none is named)."""
    if not army.units:
        raise OptionError("the list has no units", expected="a list with units")
    if not name:
        return army.units[0]
    for unit in army.units:
        if unit.name == name:
            return unit
    raise OptionError(
        "no unit of that name",
        value=name,
        expected="one of " + ", ".join(dict.fromkeys(u.name for u in army.units)),
    )


def odds_mechanics() -> list[str]:
    """The mechanics an odds query may use: the d6 and every clock variant."""
    return opr_mechanics()


@dataclass(frozen=True)
class OddsQuery:
    """One attack: who, under which rules, in which situation."""

    attacker: Unit
    defender: Unit
    system: str = "gff"
    mechanic: str = "d6"
    melee: bool = False
    distance: float | None = None
    cover: bool = False
    charging: bool = False
    moved: bool = False


def situation_of(q: OddsQuery) -> Situation:
    return build_situation(
        melee=q.melee, distance=q.distance, cover=q.cover, charging=q.charging, moved=q.moved
    )


def odds_for(q: OddsQuery, mechanic: str | None = None) -> OddsResult:
    """The exact odds of ``q`` (or under ``mechanic`` instead of its own)."""
    name = q.mechanic if mechanic is None else mechanic
    check_playable([("", "attacker", units_army([q.attacker]))], command="odds")
    check_playable([("", "defender", units_army([q.defender]))], command="odds")
    result, _ = compute_odds(
        q.attacker,
        q.defender,
        system=q.system,
        mechanic=name,
        options=mechanic_options(name, None),
        situation=situation_of(q),
        samples=None,
        seed=None,
    )
    return result


def rule_option_keys(system: str) -> dict[str, Any]:
    """The readings a game of ``system`` can switch, with their defaults."""
    return settable(system)


# --- games -----------------------------------------------------------------------------------


class GameTooLong(UserError):
    """A game played for the page ran past :data:`GAME_SECONDS`."""


@dataclass(frozen=True)
class GameSetup:
    """Everything that fixes a game: the two lists (their text), the rules and the seed."""

    list_a: str
    list_b: str
    name_a: str = "army A"
    name_b: str = "army B"
    system: str = "gff"
    mechanic: str = "d6"
    table: str = "open"
    seed: int = 1
    commander_a: str = "rules"
    commander_b: str = "rules"
    rule_options: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["rule_options"] = list(self.rule_options)
        return out

    @staticmethod
    def from_json(data: Any, where: str) -> GameSetup:
        if not isinstance(data, dict):
            raise OptionError("not a game setup", where=where, expected="a JSON object")
        kinds = {f.name: f.type for f in dataclasses.fields(GameSetup)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in kinds:
                raise OptionError(
                    "unknown setup field", value=key, where=where, expected=", ".join(kinds)
                )
            want = {"int": int, "str": str}.get(str(kinds[key]), list)
            if want is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise OptionError("not an integer", value=value, where=f"{where}.{key}")
            if want is str and not isinstance(value, str):
                raise OptionError("not a string", value=value, where=f"{where}.{key}")
            if want is list:
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise OptionError("not a list of strings", value=value, where=f"{where}.{key}")
                value = tuple(value)
            values[key] = value
        for key in ("list_a", "list_b"):
            if key not in values:
                raise OptionError("missing field", value=key, where=where, expected="both lists")
        return GameSetup(**values)


def check_setup(s: GameSetup) -> None:
    """Every choice of a setup, checked before any list is read."""
    if s.system not in GAME_SYSTEMS:
        raise OptionError(
            "games from the page are played in", value=s.system, expected=" or ".join(GAME_SYSTEMS)
        )
    if s.mechanic not in opr_mechanics():
        raise OptionError(
            "not a mechanic for games", value=s.mechanic, expected=", ".join(opr_mechanics())
        )
    if s.table not in TABLES:
        raise OptionError("unknown table", value=s.table, expected=" or ".join(TABLES))
    if not 0 <= s.seed <= MAX_SEED:
        raise OptionError("seed out of range", value=s.seed, expected=f"0 to {MAX_SEED}")
    for who, name in (("commander A", s.commander_a), ("commander B", s.commander_b)):
        if name not in (*COMMANDERS, "person"):
            raise OptionError(f"unknown {who}", value=name, expected=" or ".join(COMMANDERS))


@dataclass
class Frame:
    """One step of a game: the table after it, the account lines of its events, a title."""

    svg: str
    lines: list[str]
    title: str


@dataclass
class Recorded:
    """A game kept step by step: what the viewer shows and what a stored game holds."""

    setup: GameSetup
    rules: RuleSystem
    state: Any
    commanders: list[Any]
    trail: Trail = field(default_factory=Trail)
    actions: list[Action] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    _seen: int = 0

    @property
    def names(self) -> dict[str, str]:
        return {uid: f"{uid} {u.unit.name}" for uid, u in self.state.units.items()}

    def snap(self, title: str) -> None:
        """Add a frame for the events since the last one."""
        events = self.state.log.events
        lines = account_lines(self.state, events[self._seen :])
        self._seen = len(events)
        self.frames.append(Frame(battle_svg(self.state, trail=self.trail), lines, title))

    def step(self, action: Action) -> None:
        """Apply one decision (already known legal) and keep its frame (with the line of
        sight of a shot drawn over the table)."""
        who = "AB"[self.state.active]
        sight = sight_lines(self.state, action)
        self.rules.apply(self.state, action)
        self.actions.append(action)
        self.trail.record(self.state, action)
        self.snap(f"{who}: {describe(action, self.names)}")
        if sight:
            frame = self.frames[-1]
            frame.svg = frame.svg.replace("</svg>", sight + "</svg>")

    @property
    def done(self) -> bool:
        return bool(self.state.done)

    def result(self) -> GameResult:
        return result_of(self.rules, self.state, self.commanders, len(self.actions))

    def stored(self) -> dict[str, Any]:
        """The game as a file: its setup and decisions (enough to replay it exactly), and
        what ``oprlab battle --log`` writes (the result, the events, the moves)."""
        return {
            "oprlab_game": 1,
            "oprlab": __version__,
            "setup": self.setup.to_json(),
            "actions": [action_to_json(a) for a in self.actions],
            "result": self.result().to_json() if self.done else None,
            "events": self.state.log.events,
            "moves": self.trail.to_json(),
        }


#: A shot's line of sight on the replay's table: its colour and dash.
SIGHT_STYLE = 'stroke="#ff6f00" stroke-width="0.12" stroke-dasharray="0.5 0.25"'


def _centre(state: Any, uid: str) -> tuple[float, float] | None:
    us = state.units.get(uid)
    p = None if us is None or not us.on_table else us.placement
    if p is None or not p.alive.any():
        return None
    c = p.centres[p.alive].mean(axis=0)
    return float(c[0]), float(c[1])


def sight_lines(state: Any, action: Action) -> str:
    """SVG lines from a shooting unit to its targets (before the shot: where they stood)."""
    if action.kind is not Kind.SHOOT or not action.target:
        return ""
    start = _centre(state, action.unit)
    out = []
    for uid in (action.target, action.second):
        end = _centre(state, uid) if uid else None
        if start is None or end is None:
            continue
        depth = state.table.depth
        out.append(
            f'<line class="sight" x1="{start[0]:.2f}" y1="{depth - start[1]:.2f}" '
            f'x2="{end[0]:.2f}" y2="{depth - end[1]:.2f}" {SIGHT_STYLE}>'
            f"<title>{escape(action.unit)} shoots {escape(uid)}</title></line>"
        )
    return "".join(out)


@dataclass(frozen=True)
class _Named:
    """A commander stand-in for a person: only its name is asked (in the result)."""

    name: str

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        raise OptionError("a person's move comes from the page")


def _table(setup: GameSetup) -> Table | None:
    return generate_table(setup.seed) if setup.table == "random" else None


def start(setup: GameSetup) -> Recorded:
    """A game ready for its first decision, with its first frame."""
    check_setup(setup)
    a, _ = army_from(None, setup.list_a, setup.name_a)
    b, _ = army_from(None, setup.list_b, setup.name_b)
    check_armies([("army A", a), ("army B", b)], "a game")
    options = parse_options(setup.system, list(setup.rule_options))
    rules = find_system(setup.system)
    commanders = [
        _Named("person")
        if name == "person"
        else get_commander(name, commander_stream(setup.seed, side))
        for side, name in enumerate((setup.commander_a, setup.commander_b))
    ]
    state = rules.new_game(
        a, b, seed=setup.seed, mechanic=setup.mechanic, table=_table(setup), readings=options
    )
    game = Recorded(setup, rules, state, commanders)
    game.trail.record(state, None)
    game.snap("the start")
    return game


def advance(game: Recorded, *, until_person: bool, deadline: float | None = None) -> None:
    """Let the computer commanders decide until the game ends (or a person is to act)."""
    limit = time.monotonic() + GAME_SECONDS if deadline is None else deadline
    while not game.done:
        commander = game.commanders[game.state.active]
        if isinstance(commander, _Named):
            if until_person:
                return
            raise OptionError("a person's side cannot be played by the server")
        actions = game.rules.legal_actions(game.state)
        action = commander.choose(game.state, actions)
        if action not in actions and not game.rules.is_legal(game.state, action):
            raise OptionError(f"commander {commander.name!r} chose an illegal action: {action}")
        game.step(action)
        if time.monotonic() > limit:
            raise GameTooLong(
                f"the game took more than {GAME_SECONDS:g} seconds and was stopped",
                expected="smaller armies",
            )


def play(setup: GameSetup) -> Recorded:
    """A whole game between computer commanders, frame by frame."""
    if "person" in (setup.commander_a, setup.commander_b):
        raise OptionError("a replay is played by computer commanders", expected="rules or random")
    game = start(setup)
    advance(game, until_person=False)
    return game


def replay_stored(data: Any, where: str) -> Recorded:
    """A stored game played again from its setup and decisions; each is checked legal."""
    if not isinstance(data, dict) or "setup" not in data or "actions" not in data:
        raise OptionError(
            "not a stored game",
            where=where,
            expected="a file saved by oprlab serve (with 'setup' and 'actions')",
        )
    setup = GameSetup.from_json(data["setup"], f"{where}: setup")
    setup = dataclasses.replace(setup, commander_a="person", commander_b="person")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise OptionError("not a list", where=f"{where}: actions", expected="a list of decisions")
    game = start(setup)
    for i, raw in enumerate(actions):
        action = action_from_json(raw, f"{where}: actions[{i}]")
        if game.done or not game.rules.is_legal(game.state, action):
            raise OptionError("not a legal decision here", value=str(action), where=f"actions[{i}]")
        game.step(action)
    return game


# --- actions as JSON ---------------------------------------------------------------------------

_TEXT_FIELDS = ("unit", "target", "second", "spell", "choice")
_INT_FIELDS = ("value", "boost", "formation")
#: Longest name or list an action from the page may carry.
_MAX_FIELD = 200


def action_to_json(a: Action) -> dict[str, Any]:
    """An action as plain JSON (the page posts it back; stored games keep it)."""
    out: dict[str, Any] = {"kind": a.kind.value}
    for name in (*_TEXT_FIELDS, *_INT_FIELDS):
        if getattr(a, name):
            out[name] = getattr(a, name)
    if a.to is not None:
        out["to"] = [a.to[0], a.to[1]]
    if a.split:
        out["split"] = list(a.split)
    if a.benny:
        out["benny"] = True
    return out


def action_from_json(data: Any, where: str) -> Action:
    """An action from the page or a file, its shape checked (legality is the engine's)."""
    if not isinstance(data, dict):
        raise OptionError("not an action", where=where, expected="a JSON object")
    kinds = [k.value for k in Kind]
    if data.get("kind") not in kinds:
        raise OptionError(
            "unknown decision", value=data.get("kind"), where=where, expected=", ".join(kinds)
        )
    known = {"kind", "to", "split", "benny", *_TEXT_FIELDS, *_INT_FIELDS}
    values: dict[str, Any] = {"kind": Kind(data["kind"])}
    for key, value in data.items():
        if key not in known:
            raise OptionError("unknown field", value=key, where=where, expected=", ".join(known))
        if key in _TEXT_FIELDS:
            if not isinstance(value, str) or len(value) > _MAX_FIELD:
                raise OptionError("not a short string", value=value, where=f"{where}.{key}")
            values[key] = value
        elif key in _INT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**6:
                raise OptionError("not a small integer", value=value, where=f"{where}.{key}")
            values[key] = value
        elif key == "to":
            values["to"] = _point(value, f"{where}.to")
        elif key == "split":
            ok = isinstance(value, list) and len(value) <= 16
            if not ok or not all(isinstance(v, str) and len(v) <= _MAX_FIELD for v in value):
                raise OptionError("not a list of weapon names", value=value, where=f"{where}.split")
            values["split"] = tuple(value)
        elif key == "benny":
            if not isinstance(value, bool):
                raise OptionError("not true or false", value=value, where=f"{where}.benny")
            values["benny"] = value
    return Action(**values)


def _point(value: Any, where: str) -> tuple[float, float]:
    items = value if isinstance(value, list) and len(value) == 2 else []
    nums = [v for v in items if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(nums) != 2 or not all(-1000.0 <= float(v) <= 1000.0 for v in nums):
        raise OptionError("not a point", value=value, where=where, expected="[x, y] in inches")
    return float(nums[0]), float(nums[1])


def describe(a: Action, names: dict[str, str]) -> str:
    """An action in words, units by their names."""
    text = str(a)
    for uid in sorted({a.unit, a.target, a.second} - {""}, key=len, reverse=True):
        text = text.replace(f" {uid}", f" {names.get(uid, uid)}", 1)
    return text


# --- accounts ----------------------------------------------------------------------------------


def account_lines(state: Any, events: list[dict[str, Any]]) -> list[str]:
    """The battle account's lines (``oprlab battle``'s wording) for some of a game's events."""
    if not events:
        return []
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, highlight=False, soft_wrap=True)
    part = SimpleNamespace(
        units=state.units,
        armies=state.armies,
        seed=state.seed,
        table=state.table,
        log=SimpleNamespace(events=events),
    )
    blank = SimpleNamespace(
        mechanic="", winner=None, objectives=(0, 0), units_left=(0, 0), not_deployed=()
    )
    opr_account(console, cast(Any, part), cast(Any, blank))
    lines = buffer.getvalue().splitlines()[1:-1]  # the heading and the result are the page's
    return [line.strip("─ ").strip() if "─" in line else line.rstrip() for line in lines]


def result_line(result: GameResult) -> str:
    """A finished game's result in one line."""
    win = "a draw" if result.winner is None else f"army {'AB'[result.winner]} wins"
    return (
        f"{win}: objectives {result.objectives[0]}-{result.objectives[1]}, units left "
        f"{result.units_left[0]}-{result.units_left[1]}, models lost "
        f"{result.models_lost[0]}-{result.models_lost[1]}, {result.rounds} rounds"
    )


# --- experiments --------------------------------------------------------------------------------

#: The measures of a stored series' report, in order, with their names on the page.
MEASURES = (
    ("win_a", "A wins"),
    ("win_b", "B wins"),
    ("draw", "draws"),
    ("objectives_a", "objectives held by A"),
    ("objectives_b", "objectives held by B"),
    ("models_lost_a", "models lost by A"),
    ("models_lost_b", "models lost by B"),
    ("decisions", "decisions per game"),
)


def experiments(path: Path) -> list[dict[str, Any]]:
    """Each series stored in a results file (``battle --out``): its setup, how many of its
    games are stored, its state, and its report (estimates with 95% intervals)."""
    from oprlab.analysis.results import ResultStore  # DuckDB only when asked

    with ResultStore(path, read_only=True) as store:
        summaries = store.summaries()
        info = {s["series_id"]: s for s in store.series()}
    out = []
    for sid, summary in summaries.items():
        row = info[sid]
        stored, planned = int(summary["games"]), int(row["games_planned"])
        state = (
            "finished"
            if stored >= planned
            else ("interrupted" if summary["interrupted"] else "running or stopped")
        )
        out.append(
            {
                "id": sid,
                "system": summary["system"],
                "mechanic": summary["mechanic"],
                "armies": summary["armies"],
                "commanders": summary["commanders"],
                "seed": summary["seed"],
                "stored": stored,
                "planned": planned,
                "progress": stored / planned if planned else 1.0,
                "state": state,
                "report": [(label, summary[key]) for key, label in MEASURES if key in summary],
            }
        )
    return out
