"""The progress bar of the commands that play many games (ladder, verdict, strength,
``battle --across``): one place, so they all look and behave the same.

May import rich.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

__all__ = ["games_bar"]


def games_bar(*, quiet: bool) -> Progress:
    """Games done of the total and the time left, on stderr (stdout stays the answer), gone
    when finished; ``quiet`` (a JSON answer) shows nothing."""
    return Progress(
        "{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=quiet,
    )
