"""Every limit on the size of what oprlab accepts, in one place (documented in docs/limits.md).

A list, a terrain file or an option can ask for any amount of work: a unit of 10^9 models, an
attack of a million dice, ten million games. Each limit here is far above any real game (a
2,000-point list has about 20 units and 100 models) and low enough that the work it allows
ends in seconds to minutes, not hours or gigabytes. Going over one is refused with one line
naming the limit (:class:`LimitError`). Work that is legitimately large streams instead: the
seeds of a series are made one at a time, and odds too large to compute exactly are sampled,
with the sample size and intervals shown.

May import ``oprlab.errors`` and numpy.
"""

from __future__ import annotations

import re

import numpy as np

from oprlab.errors import UserError

__all__ = [
    "DOCS",
    "EXACT_WORK",
    "MAX_ARMY_MODELS",
    "MAX_ARMY_UNITS",
    "MAX_BLAST",
    "MAX_DEADLY",
    "MAX_DEADLY_WOUNDS",
    "MAX_FILE_BYTES",
    "MAX_GAMES",
    "MAX_JSON_DEPTH",
    "MAX_LINE_CHARS",
    "MAX_OBJECTIVES",
    "MAX_ODDS_DICE",
    "MAX_OUTLINE_CORNERS",
    "MAX_RATING",
    "MAX_READ_UNITS",
    "MAX_SAMPLED_DICE",
    "MAX_SAMPLES",
    "MAX_TABLE_INCHES",
    "MAX_TERRAIN_PIECES",
    "MAX_TOUGH",
    "MAX_UNIT_DICE",
    "MAX_UNIT_SIZE",
    "MAX_UNIT_WOUNDS",
    "MAX_WEAPONS_PER_MODEL",
    "MAX_WEAPON_ATTACKS",
    "MIN_AUTO_SAMPLES",
    "SAMPLE_BUDGET",
    "LimitError",
    "check_limit",
    "check_nesting",
    "nesting_depth",
]

#: Where the limits are explained (named in every refusal).
DOCS = "docs/limits.md"

# --- files ----------------------------------------------------------------------------------
#: Bytes of one input file (army list, terrain file, WWPD profile). Real lists are a few kB.
MAX_FILE_BYTES = 10 * 2**20
#: Nesting of JSON (and YAML flow) brackets. Army Forge JSON nests about 8 deep.
MAX_JSON_DEPTH = 64
#: Characters of one line of an Army Forge text list. Real unit lines are a few hundred.
MAX_LINE_CHARS = 20_000

# --- armies ---------------------------------------------------------------------------------
#: Models in one unit (a combined unit included).
MAX_UNIT_SIZE = 100
#: Units in one army (``{k}x`` copies counted one by one).
MAX_ARMY_UNITS = 100
#: Units a list may hold when it is read (``{k}x`` copies expanded): far over
#: :data:`MAX_ARMY_UNITS`, so that the validation of a list reports too many units the same
#: way for text and JSON, while a reader never builds millions of units.
MAX_READ_UNITS = 10 * MAX_ARMY_UNITS
#: Models in one army (a game's work grows with models on both sides and the table's size).
MAX_ARMY_MODELS = 300
#: Attacks of one weapon (``A100``).
MAX_WEAPON_ATTACKS = 100
#: How many of one weapon a unit may carry per model (``2x Pistol`` on a hero is fine, 50
#: rifles on 5 models are not).
MAX_WEAPONS_PER_MODEL = 4
#: Any rule's rating or ``{n}x`` count (``Impact(X)``, ``AP(X)``, ``5x Regeneration``).
MAX_RATING = 100
#: Tough(X).
MAX_TOUGH = 100
#: Deadly(X): each wound of it is multiplied, so the wound track grows with X.
MAX_DEADLY = 20
#: Blast(X): each hit becomes up to X hits.
MAX_BLAST = 20
#: Wounds a unit can take: models x Tough(X) (a titan: 1 x Tough(36); 20 x Tough(3) = 60).
#: Odds and games track a unit's wound states, so their work grows with this.
MAX_UNIT_WOUNDS = 300
#: Attack dice of one unit's attack: each weapon's count x attacks x Blast(X), plus Impact
#: dice (models x Impact(X)). Twenty models with two A4 weapons roll 160.
MAX_UNIT_DICE = 1_000
#: Wounds one unit's Deadly weapons can cause: count x attacks x Blast(X) x Deadly(X), summed;
#: the exact odds of Deadly walk a track this long, die by die.
MAX_DEADLY_WOUNDS = 600

# --- odds -----------------------------------------------------------------------------------
#: Attack dice of one odds query (count x attacks x Blast(X), plus Impact dice): what a valid
#: unit can roll (:data:`MAX_UNIT_DICE`).
MAX_ODDS_DICE = MAX_UNIT_DICE
#: Estimated cost of an exact answer (the length of the wound track squared, times the dice
#: that walk it) past which the odds are sampled instead, with a note: about two seconds.
EXACT_WORK = 5 * 10**9
#: Dice resolved by an automatic switch to sampling (samples x dice), and its least samples.
SAMPLE_BUDGET = 200_000
MIN_AUTO_SAMPLES = 200
#: ``--samples N``.
MAX_SAMPLES = 1_000_000
#: Dice resolved by one sampled query (samples x dice): about ten minutes of work.
MAX_SAMPLED_DICE = 20_000_000

# --- tables ---------------------------------------------------------------------------------
#: Width and depth of a table in inches: 6 feet, the long side of the largest OPR table.
MAX_TABLE_INCHES = 72.0
#: Terrain pieces on one table.
MAX_TERRAIN_PIECES = 200
#: Corners of one terrain piece's outline.
MAX_OUTLINE_CORNERS = 200
#: Objective markers on one table.
MAX_OBJECTIVES = 20

# --- series ---------------------------------------------------------------------------------
#: ``--games N``: a million games is about two hours on two cores; each finished game is
#: kept in memory (about a kilobyte) for the summary.
MAX_GAMES = 1_000_000


class LimitError(UserError):
    """A value over one of oprlab's limits; the message names the limit and docs/limits.md."""


def check_limit(what: str, value: float, limit: float, *, where: str | None = None) -> None:
    """Refuse ``value`` above ``limit`` with one line naming the limit.

    Raises:
        LimitError: ``value > limit``.
    """
    if value > limit:
        raise LimitError(
            f"{what} is over the limit",
            value=_whole(value),
            expected=f"at most {_whole(limit):,} (see {DOCS})",
            where=where,
        )


def _whole(x: float) -> float:
    """``144`` rather than ``144.0`` in messages."""
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else x


#: A JSON string (so brackets inside names are not counted).
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_STEP = np.zeros(256, dtype=np.int32)
_STEP[list(b"[{")] = 1
_STEP[list(b"]}")] = -1


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside JSON strings (YAML flow style too).

    Counted without parsing (numpy, in C), so a document of 100,000 brackets costs
    milliseconds instead of a :class:`RecursionError` in a recursive parser.
    """
    if "[" not in text and "{" not in text:
        return 0
    raw = np.frombuffer(_STRING.sub('""', text).encode("utf-8", "replace"), dtype=np.uint8)
    return int(np.cumsum(_STEP[raw]).max(initial=0))


def check_nesting(text: str, where: str) -> None:
    """Refuse JSON or YAML nested deeper than :data:`MAX_JSON_DEPTH`, before it is parsed.

    Raises:
        LimitError: naming the depth and the limit.
    """
    depth = nesting_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise LimitError(
            "nested too deeply",
            value=depth,
            expected=f"at most {MAX_JSON_DEPTH} levels of brackets (see {DOCS})",
            where=where,
        )
