"""Stand-ins for what seed 001_7377b7b33dc9f88d refers to but does not contain.

The playtest says "anything not specified is as per the current rules", and points at sections
it does not print: the Fumble Table ([52.4]), the specific grievous injury tables, what stuns a
figure, when a figure dies. A fight needs an answer to each, so oprlab chooses small, documented
ones (``docs/rules/dq.md``, "Stand-ins"); both resolutions use the same, so a comparison of
opposed against current isolates the change the playtest makes. Each is a rule option where a
player could want another (``grievous``, ``stun``).

May import ``oprlab.errors``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from oprlab.errors import check_range

__all__ = [
    "DEATH_EN",
    "GRIEVOUS_DIE",
    "GRIEVOUS_HAPPENS_FROM",
    "FumbleResult",
    "GrievousReading",
    "StunReading",
    "fumble_result",
    "grievous_happens",
]

#: A figure whose Endurance falls to this or below is dead.
DEATH_EN = 0

#: "Possible Spec Grievous": a D10 of 6 or more makes the injury happen ...
GRIEVOUS_HAPPENS_FROM = 6
#: ... and it adds this die of Endurance damage that no FT, EN or DR reduces ("None of FT, EN or
#: DR comes off the extra damage from Spec Grevs"), and stuns.
GRIEVOUS_DIE = 10

#: ``d10``: the stand-in above; ``off``: a possible grievous adds nothing.
GrievousReading = Literal["d10", "off"]
#: ``endurance``: a strike that costs Endurance stuns; ``off``: nothing stuns.
StunReading = Literal["endurance", "off"]


def grievous_happens(d10: int) -> bool:
    """Whether a possible specific grievous injury happens (stand-in: D10 >= 6, half the time)."""
    check_range("d10", d10, 1, 10)
    return d10 >= GRIEVOUS_HAPPENS_FROM


class FumbleResult(StrEnum):
    """Our stand-in Fumble Table (52.4 is not in the seed): one D10."""

    OFF_BALANCE = "off balance: loses its next action"  # 1-5
    DROPS_WEAPON = "drops its weapon"  # 6-8
    FALLS = "falls prone"  # 9-10


def fumble_result(d10: int) -> FumbleResult:
    """The stand-in Fumble Table: 1-5 off balance, 6-8 drops the weapon, 9-10 falls prone."""
    check_range("d10", d10, 1, 10)
    if d10 <= 5:
        return FumbleResult.OFF_BALANCE
    if d10 <= 8:
        return FumbleResult.DROPS_WEAPON
    return FumbleResult.FALLS
