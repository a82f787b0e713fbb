"""The golden games: seeded games of every system and mechanic, pinned by the hash of their log.

``tests/data/golden_games.toml`` lists each game (system, mechanic, armies, seed, table,
commanders) and the sha256 of ``json.dumps(state.log.events)``. A change that is not meant to
change games leaves every hash as it is; one that is meant to bumps the procedure's revision
(``oprlab.game.systems.VERSIONS``) and re-records once, with the reason in its commit::

    .venv/bin/python -m tests.game.golden          # prints which games moved
    .venv/bin/python -m tests.game.golden --write  # re-records the hashes in place
"""

from __future__ import annotations

import hashlib
import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oprlab.game.play import play_game
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.rng import commander_stream
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.formats import army_format

PINS = Path(__file__).resolve().parents[1] / "data" / "golden_games.toml"


@dataclass(frozen=True)
class Golden:
    """One pinned game: what it is played with, and the hash of its log."""

    name: str
    system: str
    mechanic: str
    armies: tuple[str, str]
    seed: int
    terrain: bool
    commanders: tuple[str, str]
    sha256: str


def load_pins() -> list[Golden]:
    """Every pinned game of the data file, in its order."""
    data = tomllib.loads(PINS.read_text(encoding="utf-8"))
    return [
        Golden(
            name=name,
            system=g["system"],
            mechanic=g["mechanic"],
            armies=(g["armies"][0], g["armies"][1]),
            seed=g["seed"],
            terrain=g["terrain"],
            commanders=(g["commanders"][0], g["commanders"][1]),
            sha256=g["sha256"],
        )
        for name, g in data["game"].items()
    ]


def _army(system: str, name: str) -> Any:
    return army_format(find_system(system).army_format).load(sample_path(name))


def log_hash(g: Golden) -> str:
    """Play the pinned game and hash its log."""
    commanders = [
        get_commander(c, commander_stream(g.seed, i), system=g.system)
        for i, c in enumerate(g.commanders)
    ]
    _, state = play_game(
        _army(g.system, g.armies[0]),
        _army(g.system, g.armies[1]),
        commanders,
        seed=g.seed,
        mechanic=g.mechanic,
        table=mission_table(g.seed) if g.terrain else None,
        system=g.system,
    )
    return hashlib.sha256(json.dumps(state.log.events).encode()).hexdigest()


def _write(pins: list[Golden], hashes: dict[str, str]) -> None:
    """Each moved game's ``sha256 = "..."`` line, and nothing else: a new pin's placeholder
    (``sha256 = ""``) is no substring of other lines' text."""
    text = PINS.read_text(encoding="utf-8")
    for g in pins:
        text = text.replace(f'sha256 = "{g.sha256}"', f'sha256 = "{hashes[g.name]}"')
    PINS.write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    """Replay every golden game; with ``--write``, record the hashes that moved."""
    pins = load_pins()
    hashes = {g.name: log_hash(g) for g in pins}
    moved = [g.name for g in pins if hashes[g.name] != g.sha256]
    for name in moved:
        print(f"moved: {name} {hashes[name]}")
    if moved and "--write" in argv:
        _write(pins, hashes)
        print(f"re-recorded {len(moved)} of {len(pins)} in {PINS}")
    return 1 if moved and "--write" not in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
