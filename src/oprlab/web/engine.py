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

from rich.console import Console

from oprlab.analysis.odds import OddsResult, Situation
from oprlab.analysis.pictures import battle_svg
from oprlab.cli.account import account
from oprlab.cli.battle import system_mechanics
from oprlab.commands.inputs import check_playable, units_army
from oprlab.commands.odds import (
    build_situation,
    compute_odds,
    mechanic_options,
    opr_mechanics,
)
from oprlab.errors import OptionError, UserError
from oprlab.game.actions import ACTIVATIONS, Action
from oprlab.game.options import parse_options, settable
from oprlab.game.play import DICE_DESIGNS, GameResult, check_dice, result_of
from oprlab.game.system import RuleSystem
from oprlab.game.systems import find_system, system_names
from oprlab.game.trail import Trail
from oprlab.players import get_commander
from oprlab.players.base import commander_revision
from oprlab.rng import activation_dice, commander_stream
from oprlab.samples import sample_names, sample_text
from oprlab.table.model import Table
from oprlab.table.terrain import generate_table, load_table
from oprlab.units.formats import army_format
from oprlab.units.load import parse_army
from oprlab.units.model import Army, Unit
from oprlab.units.profiles import load_wwpd
from oprlab.web.drawing import centres, check_badges, sight_lines
from oprlab.web.gamefile import (
    GameSetup,
    action_from_json,
    action_to_json,
    game_file,
    read_game_file,
)

__all__ = [
    "COMMANDERS",
    "DICE_DESIGNS",
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
    "dice_systems",
    "game_mechanics",
    "game_systems",
    "list_samples",
    "odds_for",
    "odds_mechanics",
    "rule_option_keys",
]

#: Longest list text a page may send (a 2,000-point Army Forge JSON export is about 22,000).
MAX_LIST_CHARS = 60_000
#: How a list's text is read, by the army format its system names (``RuleSystem.army_format``).
TEXT_READERS: dict[str, Any] = {"army-forge": parse_army, "wwpd": load_wwpd}
#: A bundled sample's army format, by its file's extension (the others: Army Forge lists).
SAMPLE_FORMATS = {".yaml": "wwpd"}
#: Computer commanders (players/).
COMMANDERS = ("rules", "random")
#: Tables the page offers: no terrain, or terrain generated from the game's seed.
TABLES = ("open", "random")
#: Longest a game played for the page may take (seconds of play on the server).
GAME_SECONDS = 60.0
#: Largest seed accepted (the library takes any non-negative int; the page keeps it to 63 bits).
MAX_SEED = 2**63 - 1


def _samples() -> dict[str, tuple[str, str]]:
    """Each bundled sample the page offers, by name (``gff/shooty-150``): its file and its
    army format (an Army Forge sample's text list, not its generated JSON twin)."""
    out: dict[str, tuple[str, str]] = {}
    for name in sample_names():
        stem, dot, ext = name.rpartition(".")
        fmt = SAMPLE_FORMATS.get(dot + ext, "army-forge")
        if fmt in TEXT_READERS and (ext != "json" or stem not in out):
            out[stem] = (name, fmt)
    return out


def list_samples(fmt: str | None = None) -> list[str]:
    """The bundled samples the page offers (``gff/shooty-150``), of army format ``fmt`` or
    all of them."""
    return [name for name, (_, f) in _samples().items() if fmt is None or f == fmt]


def sample_format(name: str) -> str:
    """A bundled sample's army format (``army-forge`` for a name that is not a sample)."""
    return _samples().get(name, ("", "army-forge"))[1]


def army_from(
    sample: str | None, text: str | None, label: str, fmt: str = "army-forge"
) -> tuple[Any, str]:
    """An army (in army format ``fmt``) from a sample's name or pasted text, with its source
    text (kept in stored games); the page's text is parsed, never opened as a path."""
    read = TEXT_READERS.get(fmt)
    if read is None:
        raise OptionError(
            "the page cannot read lists of this format", value=fmt, expected=", ".join(TEXT_READERS)
        )
    if text is not None and text.strip():
        if len(text) > MAX_LIST_CHARS:
            raise OptionError(
                f"{label}: list too long",
                value=f"{len(text):,} characters",
                expected=f"at most {MAX_LIST_CHARS:,} characters ({army_format(fmt).what})",
            )
        return read(text, label), text
    known = list_samples(fmt)
    if not sample:
        raise OptionError(f"{label}: no list", expected=f"a sample or {army_format(fmt).what}")
    if sample not in known:
        raise OptionError(
            f"{label}: "
            + ("not a sample for these rules" if sample in _samples() else "unknown sample"),
            value=sample,
            expected="one of " + ", ".join(known),
        )
    source = sample_text(_samples()[sample][0])
    return read(source, sample), source


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


def odds_systems() -> list[str]:
    """The systems with odds of one unit's attack on another (not WWPD: its dice have their
    own odds, ``oprlab check wwpd``)."""
    return [name for name in system_names() if find_system(name).attack is not None]


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


def game_systems() -> list[str]:
    """The systems a game can be played in: every one :func:`find_system` knows (house rules
    included), so the pages offer what ``oprlab battle --system`` offers."""
    return system_names()


def game_mechanics(system: str) -> list[str]:
    """The mechanics a game of ``system`` can use (its first is its default)."""
    return system_mechanics(find_system(system))


def dice_systems(design: str) -> list[str]:
    """The game systems whose games can roll with dice ``design`` (keyed dice follow OPR
    activations, :func:`~oprlab.game.play.check_dice`)."""
    return [s for s in game_systems() if _takes_dice(design, s)]


def _takes_dice(design: str, system: str) -> bool:
    try:
        check_dice(design, system)
    except OptionError:
        return False
    return True


def check_setup(s: GameSetup) -> RuleSystem:
    """Every choice of a setup, checked before any list is read; the setup's rule system."""
    rules = find_system(s.system)  # an unknown name: one line naming what exists
    if s.mechanic not in game_mechanics(s.system):
        raise OptionError(
            f"not a mechanic for {s.system} games",
            value=s.mechanic,
            expected=", ".join(game_mechanics(s.system)),
        )
    tables = (*TABLES, "file") if s.terrain else TABLES
    if s.table not in tables:
        raise OptionError("unknown table", value=s.table, expected=" or ".join(tables))
    if not 0 <= s.seed <= MAX_SEED:
        raise OptionError("seed out of range", value=s.seed, expected=f"0 to {MAX_SEED}")
    for who, name in (("commander A", s.commander_a), ("commander B", s.commander_b)):
        if name not in (*COMMANDERS, "person"):
            raise OptionError(f"unknown {who}", value=name, expected=" or ".join(COMMANDERS))
    check_dice(s.dice, rules.name)
    return rules


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

    def step(self, action: Any) -> None:
        """Apply one decision (already known legal) and keep its frame, with the line of
        sight of a shot and the outcome of each check it made drawn over the table."""
        who = "AB"[self.state.active]
        sight = sight_lines(self.state, action)
        before = centres(self.state)
        first = len(self.state.log.events)
        if self.setup.dice == "keyed" and action.kind in ACTIVATIONS:  # as play_game rolls
            self.state.rng = activation_dice(self.setup.seed, self.state.round, action.unit)
        self.rules.apply(self.state, action)
        self.actions.append(action)
        self.trail.record(self.state, action)
        self.snap(f"{who}: {describe(action, self.names)}")
        over = sight + check_badges(self.state, self.state.log.events[first:], before)
        if over:
            frame = self.frames[-1]
            frame.svg = frame.svg.replace("</svg>", over + "</svg>")

    @property
    def done(self) -> bool:
        return bool(self.state.done)

    def result(self) -> GameResult:
        return result_of(self.rules, self.state, self.commanders, len(self.actions))

    def stored(self) -> dict[str, Any]:
        """The game as a file (:mod:`oprlab.web.gamefile`, as ``oprlab battle --log`` writes)."""
        return game_file(
            self.setup,
            self.actions,
            result=self.result().to_json() if self.done else None,
            events=self.state.log.events,
            moves=self.trail.to_json(),
        )

    @property
    def action_class(self) -> type[Any]:
        """The class of this system's decisions (read from the page or a file)."""
        actions = self.rules.legal_actions(self.state) if not self.done else ()
        return type(actions[0]) if actions else Action


@dataclass(frozen=True)
class _Named:
    """A commander stand-in for a person, or for a file's commander whose choices are
    replayed: only its name and revision are asked (in the result)."""

    name: str
    revision: str = ""

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        raise OptionError("a person's move comes from the page")


def _table(setup: GameSetup) -> Table | None:
    if setup.table == "file":
        return load_table(setup.terrain, "the game's terrain")
    return generate_table(setup.seed) if setup.table == "random" else None


def start(setup: GameSetup) -> Recorded:
    """A game ready for its first decision, with its first frame."""
    rules = check_setup(setup)
    fmt = rules.army_format
    a, _ = army_from(None, setup.list_a, setup.name_a, fmt)
    b, _ = army_from(None, setup.list_b, setup.name_b, fmt)
    check_playable(
        [("army A", "army A", a), ("army B", "army B", b)],
        command="a game",
        problems_of=army_format(fmt).problems,
    )
    options = parse_options(rules, list(setup.rule_options))
    commanders = [
        _Named("person")
        if name == "person"
        else get_commander(name, commander_stream(setup.seed, side), system=rules)
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
    """A game file played again from its setup and decisions; each is checked legal. The
    game keeps the file's commanders' names (they decided; the file replays their choices)."""
    shown, actions = read_game_file(data, where)
    game = start(dataclasses.replace(shown, commander_a="person", commander_b="person"))
    cls = game.action_class
    for i, raw in enumerate(actions):
        action = action_from_json(raw, f"{where}: actions[{i}]", cls)
        if game.done or not legal(game, action):
            raise OptionError("not a legal decision here", value=str(action), where=f"actions[{i}]")
        game.step(action)
    game.setup = shown
    game.commanders = [
        _Named(name, _revision_of(name, game.rules))
        for name in (shown.commander_a, shown.commander_b)
    ]
    return game


def _revision_of(spec: str, rules: Any) -> str:
    """The registry's revision of a file's commander ("" for a person)."""
    try:
        return commander_revision(spec, system=rules)
    except UserError:
        return ""


def legal(game: Recorded, action: Any) -> bool:
    """Whether the engine takes ``action`` now (a shape no list names is not legal)."""
    try:
        return bool(game.rules.is_legal(game.state, action))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return False


def describe(a: Any, names: dict[str, str]) -> str:
    """An action in words, units by their names."""
    text = str(a)
    uids = {getattr(a, name, "") for name in ("unit", "target", "second")}
    for uid in sorted(uids - {""}, key=len, reverse=True):
        text = text.replace(f" {uid}", f" {names.get(uid, uid)}", 1)
    return text


# --- accounts ----------------------------------------------------------------------------------


class _Part:
    """A game state whose log holds only some of its events (the account of one step)."""

    def __init__(self, state: Any, events: list[dict[str, Any]]) -> None:
        self._state = state
        self.log = SimpleNamespace(events=events)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def account_lines(state: Any, events: list[dict[str, Any]]) -> list[str]:
    """The battle account's lines (``oprlab battle``'s wording) for some of a game's events."""
    if not events:
        return []
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, highlight=False, soft_wrap=True)
    write = account.dispatch(type(state))  # the system's account (OPR, WWPD)
    blank = SimpleNamespace(
        mechanic="",
        winner=None,
        objectives=(0, 0),
        units_left=(0, 0),
        models_lost=(0, 0),
        not_deployed=(),
    )
    write(cast(Any, _Part(state, events)), console, cast(Any, blank))
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
