"""What every command checks before it does any work: armies fit to play, worker counts,
series sizes, output files.

An edge module (it prints warnings on stderr). The checks themselves live in the core
(:func:`~oprlab.units.validate.playable_problems`, :mod:`oprlab.limits`,
:func:`~oprlab.files.check_output`); this module gives them the command line's words: a
refusal is one :class:`~oprlab.errors.OptionError` line listing every problem, warnings are
printed once, before the work starts.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from oprlab.errors import OptionError
from oprlab.files import check_output
from oprlab.limits import DOCS, MAX_GAMES, check_limit
from oprlab.units.formats import army_format
from oprlab.units.model import Army, Unit
from oprlab.units.validate import Problem, errors, playable_problems

__all__ = [
    "MAX_LISTED",
    "available_cores",
    "check_games",
    "check_jobs",
    "check_outputs",
    "check_playable",
    "load_playable",
    "units_army",
    "warn",
]

#: Problems listed in one refusal (the rest are counted; `army validate` shows them all).
MAX_LISTED = 12


def warn(message: str) -> None:
    """One warning line on stderr (never markup, never styled from the input; rich is loaded
    only when there is a warning to print)."""
    from rich.console import Console
    from rich.text import Text

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    err.print(Text("warning: ", style="yellow") + Text(message))


def available_cores() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer than the
    machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_jobs(jobs: int, games: int) -> int:
    """Worker processes for a series: ``0`` means all cores; more than the cores is capped at
    them, with a note (more processes than cores only slow a series down)."""
    cores = available_cores()
    if jobs < 0:
        raise OptionError(
            "--jobs out of range", value=jobs, expected=f"0 (all {cores} cores) to {cores}"
        )
    if jobs > cores:
        warn(f"--jobs {jobs} capped at the {cores} cores of this machine")
    return max(1, min(jobs or cores, cores, games))


def check_games(games: int) -> int:
    """``--games`` from 1 to :data:`~oprlab.limits.MAX_GAMES`."""
    if games < 1:
        raise OptionError("games out of range", value=games, expected="1 or more")
    check_limit("--games", games, MAX_GAMES)
    return games


def check_dice_option(dice: str, systems: Sequence[str]) -> None:
    """``--dice``: one line for an unknown design, or keyed dice in WWPD, before any game."""
    from oprlab.game.play import check_dice

    for system in systems:
        try:
            check_dice(dice, system)
        except OptionError as exc:
            raise OptionError(
                exc.message, value=exc.value, where="--dice", expected=exc.expected
            ) from None


def check_outputs(**paths: Path | None) -> None:
    """Refuse, before any work, an output file that could not be written; ``name=path`` pairs
    name the option (``svg_rounds`` -> ``--svg-rounds``)."""
    for name, path in paths.items():
        if path is not None:
            check_output(path, "--" + name.replace("_", "-"))


def _listed(problems: Sequence[tuple[str, Problem]]) -> str:
    shown = [f"{label}{p.where}: {p.message}" for label, p in problems[:MAX_LISTED]]
    if len(problems) > MAX_LISTED:
        shown.append(f"and {len(problems) - MAX_LISTED} more")
    return "; ".join(shown)


def check_playable(
    sides: Sequence[tuple[str, str, Any]],
    *,
    command: str,
    problems_of: Callable[[Any], list[Problem]] = playable_problems,
) -> None:
    """Refuse armies with errors (every error of every side in one line); print the warnings
    of armies that can be used, once, before the work.

    Args:
        sides: ``(label, reference, army)``: how the command names the side (``"army A"``),
            what the user gave for it, and the army read from it.
        command: the command, for the hint (``"battle"``).
        problems_of: the army format's check (default: Army Forge lists').
    """
    bad: list[tuple[str, Problem]] = []
    warned: list[str] = []
    refs: list[str] = []
    for label, ref, army in sides:
        problems = problems_of(army)
        mine = errors(problems)
        prefix = f"{label} " if len(sides) > 1 else ""
        bad += [(prefix, p) for p in mine]
        if mine:
            refs.append(ref)
        warnings = [p for p in problems if p.level == "warning"]
        warned += [f"{prefix}{p.where}: {p.message}" for p in warnings[:MAX_LISTED]]
        if len(warnings) > MAX_LISTED:
            warned.append(
                f"{prefix}and {len(warnings) - MAX_LISTED} more (oprlab army validate {ref})"
            )
    if bad:  # a refusal is one line: the errors (the warnings would only distract)
        hint = " and ".join(f"oprlab army validate {r} --no-force-org" for r in refs)
        raise OptionError(
            f"{command} cannot use {'this list' if len(refs) == 1 else 'these lists'}: "
            f"{len(bad)} problem(s): {_listed(bad)}",
            expected=f"a list with no errors ({hint}; limits: {DOCS})",
        )
    for line in warned:
        warn(line)


def load_playable(
    refs: Sequence[tuple[str, str]], *, command: str, fmt: str = "army-forge"
) -> list[Any]:
    """Read armies (files or sample names) in the army format ``fmt`` (a rule system's
    ``army_format``) and check them with :func:`check_playable`."""
    reader = army_format(fmt)
    armies = [reader.load(ref) for _, ref in refs]
    check_playable(
        [(label, ref, army) for (label, ref), army in zip(refs, armies, strict=True)],
        command=command,
        problems_of=reader.problems,
    )
    return armies


def units_army(units: Sequence[Unit]) -> Army:
    """Units of a reference (``FILE:Unit``, a unit's text) as an army, to validate them; a
    hero taken without the unit it joins stands alone here."""
    return Army("", "", 0, tuple(replace(u, joined_to=None) for u in units))
