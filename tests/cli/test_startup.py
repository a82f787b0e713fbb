"""The command line starts fast (issue 12): a command loads only its own module, so `oprlab
check` and `oprlab odds` never import the game engine's heavy neighbours (DuckDB, Dask, joblib,
matplotlib, shapely, rich's progress bars). Checked in a fresh interpreter, by module names
(not by time, which depends on the machine)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("duckdb", "dask", "distributed", "joblib", "matplotlib", "shapely", "rich.progress")


def _loaded(argv: list[str]) -> set[str]:
    code = (
        "import sys, json, contextlib, io\n"
        "from oprlab.__main__ import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({argv!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_check_and_odds_load_nothing_heavy() -> None:
    for argv in (
        ["check", "d6", "--target", "4"],
        ["odds", "gff/shooty-150", "gff/melee-150", "--json"],
    ):
        loaded = _loaded(argv)
        assert not {m for m in loaded if m.split(".")[0] in HEAVY or m in HEAVY}, argv
        assert "oprlab.game.gff" not in loaded and "oprlab.cli.battle" not in loaded


def test_check_loads_no_numpy() -> None:
    """`oprlab check` lists outcomes as Fractions: numpy (a fifth of its start-up, issue 13)
    is imported only by the paths that sample or convolve floats; a d6 check loads no other
    mechanic."""
    for argv in (
        ["check", "d6", "--target", "4"],
        ["check", "clock", "--target", "4"],
        ["check", "wwpd", "--target", "4"],
        ["check", "dq", "--chance", "45", "--defence", "30"],
    ):
        assert "numpy" not in _loaded(argv), argv
    others = {"oprlab.mechanics.clock", "oprlab.mechanics.wwpd", "oprlab.mechanics.dq"}
    assert not others & _loaded(["check", "d6", "--target", "4"])


def test_odds_with_the_d6_loads_neither_the_clock_nor_json_models() -> None:
    """`oprlab odds` on text lists builds no pydantic models of Army Forge JSON and loads no
    clock (issue 13: each a share of its start-up)."""
    loaded = _loaded(["odds", "gff/shooty-150", "gff/melee-150", "--json"])
    assert not loaded & {
        "oprlab.units.forge_json",
        "oprlab.analysis.swing",
        "oprlab.mechanics.clock",
    }


def test_one_attacks_odds_load_no_exchange_no_sampling_no_table() -> None:
    """One attack's exact odds (issue 13: together a ninth of `odds`' start-up) need no melee
    exchange procedure, no random streams, no table model, no numpy.typing and, reading the
    bundled samples from their directory, no importlib.resources; sampling (`--samples`)
    loads the random streams."""
    lazy = {
        "oprlab.rules.gff.melee",
        "oprlab.rules.melee_exchange",
        "oprlab.rng",
        "numpy.random",
        "oprlab.table.model",
        "numpy.typing",
        "importlib.resources",
    }
    shooting = ["odds", "gff/shooty-150", "gff/melee-150", "--json"]
    assert not lazy & _loaded(shooting)
    assert not lazy & _loaded([*shooting, "--melee"])
    assert "oprlab.rng" in _loaded([*shooting, "--samples", "200"])


def test_import_oprlab_loads_only_the_face() -> None:
    """`import oprlab` is the version and a lazy face: nothing is imported until asked."""
    code = "import sys, oprlab; print(sorted(m for m in sys.modules if m.startswith('oprlab')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['oprlab', 'oprlab.version']"


def test_check_and_odds_start_without_typer() -> None:
    """The fast start (oprlab/__main__.py, issue 13) reads `check` and `odds` without typer,
    click or pydantic (more than half of the start-up), and `--json` without rich."""
    for argv in (
        ["check", "d6", "--target", "4", "--json"],
        ["odds", "gff/shooty-150", "gff/melee-150", "--json"],
    ):
        loaded = {m.split(".")[0] for m in _loaded(argv)}
        assert not loaded & {"typer", "click", "pydantic", "rich", "oprlab.cli"}, argv
    assert "typer" not in {m.split(".")[0] for m in _loaded(["check", "d6", "--target", "4"])}
