"""Army Forge's "Share as Text" export: read it into an :class:`Army`, write it back.

The shape, one header line then a block per unit, blocks separated by blank lines::

    ++ {list name}[ - {book} (v{version})[, …]] [{GS} {points}pts][ [{n} Units]] ++

    [{k}x ]{Name} [{models}] Q{q}+ D{d}+ | {points}pts | {rule}, {n}x {rule}, {item}({rule})
    [{n}x ]{Weapon} ({range}", A{attacks}, {rule}), {Melee weapon} (A{attacks})
    | Joined to:
    {the unit the hero above joins, same two lines}

How ambiguous parts are read (``{k}x`` points are per unit, generated ``uid`` values, where the
list name ends, ``A0`` weapons) is set out in :mod:`oprlab.units.text_parse`; how units are
grouped and ordered on writing in :mod:`oprlab.units.text_format`. The contract between the two:
``parse_army_text(format_army_text(army)) == army`` for every army ``parse_army_text`` returns.

May import ``oprlab.errors`` and ``oprlab.units``; no I/O (callers read files).
"""

from __future__ import annotations

from oprlab.units.text_format import format_army_text, format_unit_text
from oprlab.units.text_parse import parse_army_text, parse_unit_text, slug

__all__ = ["format_army_text", "format_unit_text", "parse_army_text", "parse_unit_text", "slug"]
