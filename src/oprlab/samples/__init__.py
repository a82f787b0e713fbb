"""Sample armies shipped with oprlab: invented factions for GFF, WWPD and DQ.

Data only; no rules. The files live in this package (``gff/shooty-150.txt``, ``wwpd/…``) and
are read from this package's directory, or through :mod:`importlib.resources` when the package
has none (a zipped install), so they work from an installed wheel too. The GFF
JSON files are generated from the text files by ``tools/gen_sample_json.py``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from oprlab.errors import UnknownNameError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["sample_names", "sample_path", "sample_text"]

_SUFFIXES = (".txt", ".json", ".yaml")
#: ``as_file`` contexts of extracted samples, kept open for the life of the process.
_KEEP: list[AbstractContextManager[Path]] = []


_HERE = Path(__file__).parent


def _root() -> Traversable:
    """This package's directory; importlib.resources (loaded only then: it is a tenth of
    ``oprlab odds``' start-up) when the package is not a plain directory."""
    if _HERE.is_dir():
        return _HERE
    from importlib.resources import files

    return files(__name__)


def sample_names() -> list[str]:
    """Every sample as ``system/name.ext`` (``gff/shooty-150.txt``), sorted."""
    names: list[str] = []
    for system in _root().iterdir():
        if not system.is_dir() or system.name.startswith(("_", ".")):
            continue
        names.extend(
            f"{system.name}/{f.name}"
            for f in system.iterdir()
            if f.is_file() and f.name.endswith(_SUFFIXES)
        )
    return sorted(names)


def _find(name: str) -> Traversable:
    """The sample ``name``; the extension may be left off when only one file has that stem."""
    key = name.strip().replace("\\", "/")
    known = sample_names()
    if key in known:
        hit = key
    else:
        stems = [n for n in known if n.rsplit(".", 1)[0] == key]
        if len(stems) != 1:
            raise UnknownNameError(
                "no such sample" if not stems else "ambiguous sample name",
                value=name,
                expected="one of " + ", ".join(stems or known),
            )
        hit = stems[0]
    return _root().joinpath(*hit.split("/"))


def sample_path(name: str) -> Path:
    """A filesystem path of sample ``name`` (``gff/shooty-150.txt`` or ``gff/shooty-150``
    when the stem is unique).

    Installed packages are plain directories in practice; a zipped install is extracted to a
    temporary file that lives as long as the process.
    """
    resource = _find(name)
    if isinstance(resource, Path):
        return resource
    from importlib.resources import as_file

    ctx = as_file(resource)
    path = ctx.__enter__()  # kept open on purpose: the file must outlive this call
    _KEEP.append(ctx)
    return path


def sample_text(name: str) -> str:
    """The content of sample ``name``."""
    return _find(name).read_text(encoding="utf-8")
