"""Files a user names: inputs read within limits, outputs checked before any work and written
atomically.

Every option that writes a file (``--log``, ``--svg``, ``--out``, ``--plot``, ``--parquet`` …)
goes through :func:`check_output` before a game is played or a number computed, so a missing
folder, a directory, a read-only place or a full device is one line at the start, not a
traceback after the work. Files are then written with :func:`write_atomic` (or, for libraries
that write by path, inside :func:`atomic_path`): into a temporary file in the same folder,
then renamed over the target with :func:`os.replace`, so a file is either whole or absent,
never half written (an interrupted run, a full disk, a broken pipe).

Inputs are read with :func:`read_text`, which refuses files over
:data:`~oprlab.limits.MAX_FILE_BYTES` without reading them whole.

One of the few modules allowed I/O. May import ``oprlab.errors`` and ``oprlab.limits``.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from oprlab.errors import OptionError, ParseError
from oprlab.limits import DOCS, MAX_FILE_BYTES, LimitError

__all__ = ["atomic_path", "check_output", "read_text", "write_atomic"]

#: Temporary files start with this, so a crashed run's leftovers are recognisable.
TEMP_PREFIX = ".oprlab-"


class OutputError(OptionError):
    """An output file that cannot be written (checked up front, or failing on write)."""


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the device is full"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "read-only file system"
    return exc.strerror or type(exc).__name__


def check_output(path: str | os.PathLike[str], option: str) -> Path:
    """``path`` if a file can be written there; else one :class:`OutputError` line.

    Checked: the folder exists and is a folder, the path is not a directory, the name is not
    too long, the folder takes a new file (a probe is created and removed: this catches
    permissions and read-only file systems), the device is not full, and an existing file
    may be replaced.
    """
    p = Path(path)
    shown = str(p)
    try:
        _check_place(p, option)
    except OSError as exc:  # a path the system refuses outright (a name too long, a loop)
        raise OutputError(
            f"{option}: cannot write there ({_reason(exc)})", value=shown, expected="a file path"
        ) from None
    folder = p.parent
    try:
        import tempfile  # only when an output is named: its imports are a twentieth of `odds`

        fd, probe = tempfile.mkstemp(dir=folder, prefix=TEMP_PREFIX, suffix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise OutputError(
            f"{option}: cannot write in this folder ({_reason(exc)})",
            value=str(folder),
            expected="a folder you may write in",
        ) from None
    with suppress(OSError, AttributeError):
        if os.statvfs(folder).f_bavail == 0:
            raise OutputError(
                f"{option}: the device is full", value=str(folder), expected="free space"
            )
    return p


def _check_place(p: Path, option: str) -> None:
    """The checks of :func:`check_output` that look at the path and its folder."""
    shown = str(p)
    folder = p.parent
    try:
        name_max = os.pathconf(folder if folder.is_dir() else ".", "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        name_max = 255
    if len(os.fsencode(p.name)) > name_max:
        raise OutputError(
            f"{option}: file name too long", value=shown, expected=f"at most {name_max} bytes"
        )
    if not p.name or p.is_dir():
        raise OutputError(f"{option}: is a directory", value=shown, expected="a file name")
    if not folder.is_dir():
        what = "no such folder" if not folder.exists() else "not a folder"
        raise OutputError(
            f"{option}: {what}", value=str(folder), expected="an existing folder for the file"
        )
    if p.exists() and not p.is_file():
        raise OutputError(f"{option}: not a regular file", value=shown, expected="a file")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputError(
            f"{option}: the file is read-only", value=shown, expected="a file you may replace"
        )


def _mode(target: Path) -> int:
    """The permissions the file would have had if written in place."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _temp_name(target: Path) -> Path:
    import secrets  # with tempfile, deferred until something is written

    return target.with_name(f"{TEMP_PREFIX}{secrets.token_hex(6)}{target.suffix}")


@contextmanager
def atomic_path(path: str | os.PathLike[str], option: str = "output") -> Iterator[Path]:
    """A temporary path beside ``path`` for a library that writes by path (matplotlib,
    DuckDB); renamed over ``path`` when the block ends, removed if it raises."""
    target = Path(path)
    temp = _temp_name(target)
    try:
        yield temp
        if temp.exists():
            os.chmod(temp, _mode(target))
        os.replace(temp, target)
    except OSError as exc:
        raise OutputError(
            f"{option}: cannot write the file ({_reason(exc)})", value=str(target)
        ) from None
    finally:
        with suppress(OSError):
            temp.unlink(missing_ok=True)


def write_atomic(path: str | os.PathLike[str], data: str | bytes, option: str = "output") -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path, option) as temp:
        try:
            with open(temp, "xb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            raise OutputError(
                f"{option}: cannot write the file ({_reason(exc)})", value=str(path)
            ) from None


def read_text(
    path: str | os.PathLike[str], what: str, expected: str, *, limit: int = MAX_FILE_BYTES
) -> str:
    """The UTF-8 text of a user's file (a leading BOM dropped), read within ``limit`` bytes.

    Args:
        path: the file.
        what: what the file should be, for messages (``"army file"``).
        expected: what would be right, for messages.

    Raises:
        ParseError: missing, a directory, unreadable or not UTF-8.
        LimitError: over ``limit`` bytes.
    """
    p = Path(path)
    try:
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise ParseError(f"{what} not found", value=str(p), expected=expected) from None
    except IsADirectoryError:
        article = "an" if what[:1] in "aeiou" else "a"
        raise ParseError(
            f"is a directory, not {article} {what}", value=str(p), expected="a file"
        ) from None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ParseError(
            f"cannot read {what}: {reason}", value=str(p), expected="a readable file"
        ) from None
    if len(data) > limit:
        raise LimitError(
            f"{what} is over the size limit",
            value=str(p),
            expected=f"at most {limit:,} bytes (see {DOCS})",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"not UTF-8 text (bad byte at offset {exc.start})", where=str(p), expected=expected
        ) from None
