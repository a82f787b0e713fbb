"""``oprlab odds``: the table and its "at least" columns, the JSON, every option family, the
PNG, and bad input as one line with exit code 2. Odds are checked against hand computation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import oprlab.cli
from oprlab.analysis.odds import Situation, attack_odds
from oprlab.cli.odds import register
from oprlab.samples import sample_names, sample_path
from oprlab.units.load import load_army, load_unit_ref

#: Two Q4+ shots, no special rules, 40 pts.
SHOOTERS = 'Test Shooters [2] Q4+ D4+ | 40pts\n2x Rifle (24", A1)'
#: Five models at Defense 4+, with a melee weapon only.
LINE = "Test Line [5] Q4+ D4+ | 50pts\n5x Club (A1)"

runner = CliRunner(env={"COLUMNS": "200"})


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """Test root."""

    register(app)
    return app


def _run(*args: str) -> str:
    result = runner.invoke(_app(), ["odds", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.stdout


def _json(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_run(*args, "--json"))
    return data


def _main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    """Through the real CLI root: a UserError is one line on stderr and exit code 2."""
    monkeypatch.setattr(oprlab.cli, "app", _app())
    code = oprlab.cli.main(["odds", *args])
    captured = capsys.readouterr()
    return code, captured.err


# --- the table ------------------------------------------------------------------------------


def test_table_has_exactly_and_at_least_columns_with_hand_computed_odds() -> None:
    """Two Q4+ shots at D4+: hits Binomial(2, 1/2); wounds Binomial(2, 1/4): P(0) = 9/16,
    P(at least 1) = 7/16, P(2) = 1/16."""
    out = _run(SHOOTERS, LINE)
    assert "exactly" in out and "at least" in out
    assert "hits" in out and "wounds" in out and "casualties" in out
    row0 = next(line for line in out.splitlines() if line.strip("│ ").startswith("0 "))
    assert "0.2500" in row0 and "0.5625" in row0 and "1.0000" in row0
    row1 = next(line for line in out.splitlines() if line.strip("│ ").startswith("1 "))
    assert "0.5000" in row1 and "0.7500" in row1 and "0.3750" in row1 and "0.4375" in row1
    assert "P(destroyed) = 0.0000" in out and "P(shaken)" in out
    assert "exact" in out and "Test Shooters" in out and "Test Line" in out


def test_sampled_table_shows_sample_size_and_intervals() -> None:
    out = _run(SHOOTERS, LINE, "--samples", "500", "--seed", "3")
    assert "Monte Carlo: 500 samples, seed 3" in out
    assert "95% intervals (n = 500)" in out
    assert "wounds_mean" in out and "p_destroyed" in out


def test_joined_hero_reference_uses_the_first_unit() -> None:
    ref = f"{sample_path('gff/shooty-300.txt')}:Lantern Wardens"
    assert [u.name for u in load_unit_ref(ref)] == ["Lantern Wardens", "Beacon Adept"]
    out = _run(ref, LINE)
    assert "Lantern Wardens attacks Test Line" in out
    assert "attacker: the first of 2 units" in out
    assert _json(ref, LINE)["attacker"] == "Lantern Wardens"


# --- the JSON -------------------------------------------------------------------------------


def test_json_is_odds_result_plus_names_and_options() -> None:
    data = _json(SHOOTERS, LINE)
    (attacker,) = load_unit_ref(SHOOTERS)
    (defender,) = load_unit_ref(LINE)
    engine = attack_odds(attacker, defender).to_json()
    assert {k: data[k] for k in engine} == engine
    assert set(data) == set(engine) | {"attacker", "defender", "options"}
    assert data["attacker"] == "Test Shooters" and data["defender"] == "Test Line"
    assert data["hits"]["mean"] == pytest.approx(1.0)
    assert data["hits"]["pmf"] == pytest.approx([0.25, 0.5, 0.25], abs=1e-12)
    assert data["wounds"]["pmf"] == pytest.approx([9 / 16, 6 / 16, 1 / 16], abs=1e-12)
    assert set(data["casualties"]) == {"mean", "pmf"}
    assert data["p_destroyed"] == 0.0
    assert data["options"] == {
        "system": "gff",
        "mechanic": "d6",
        "clock_start": None,
        "melee": False,
        "range": None,
        "cover": False,
        "charging": False,
        "moved": False,
        "samples": None,
        "seed": None,
        "plot": None,
    }


def test_cover_is_plus_one_to_defense() -> None:
    """Cover: D4+ blocks on 3+, so each shot wounds with 1/2 x 1/3 = 1/6: P(0) = 25/36."""
    data = _json(SHOOTERS, LINE, "--cover")
    assert data["wounds"]["pmf"] == pytest.approx([25 / 36, 10 / 36, 1 / 36])
    assert data["options"]["cover"] is True


def test_melee_and_charging_use_melee_weapons() -> None:
    """The Line's five clubs, Q4+ at D4+: wounds Binomial(5, 1/4), mean 5/4."""
    data = _json(LINE, SHOOTERS, "--melee", "--charging")
    assert data["attack"] == "melee" and data["weapons"] == ["Club"]
    assert data["wounds"]["mean"] == pytest.approx(5 / 4)
    assert data["options"]["melee"] and data["options"]["charging"]


def test_range_selects_weapons_and_moved_is_recorded() -> None:
    data = _json(SHOOTERS, LINE, "--range", "24", "--moved")
    assert data["weapons"] == ["Rifle"] and data["options"]["range"] == 24.0
    assert data["options"]["moved"] is True


def test_clock_start_option_seed_example() -> None:
    """seed 000_e2a2d86473ae65c4 "Quality and Defense Checks": Q4+ adds 3, D4+ adds 3. From
    start 1: 1+3=4 hits, 4+3=7 rolls over (miss); the defender's 1+3=4 blocks: 0 wounds.
    From start 4: 4+3=7 misses, 1+3=4 hits; the defender's 4+3=7 rolls over: 1 wound."""
    one = _json(SHOOTERS, LINE, "--mechanic", "clock")
    assert one["hits"]["pmf"] == [0.0, 1.0] and one["wounds"]["pmf"] == [1.0]
    four = _json(SHOOTERS, LINE, "--mechanic", "clock", "--clock-start", "4")
    assert four["hits"]["pmf"] == [0.0, 1.0] and four["wounds"]["pmf"] == [0.0, 1.0]
    assert four["options"]["clock_start"] == 4 and four["mechanic"] == "clock"


def test_clock_random_is_exact_over_36_starts() -> None:
    """seed 000_e2a2d86473ae65c4 "Random Clocks": a d6 per clock; exact over the 36 pairs."""
    data = _json(SHOOTERS, LINE, "--mechanic", "clock-random")
    assert data["method"] == "exact" and "36" in data["clock_starts"]
    for p in data["wounds"]["pmf"]:
        assert p * 36 == pytest.approx(round(p * 36))
    sampled = _json(SHOOTERS, LINE, "--mechanic", "clock-random", "--samples", "200", "--seed", "1")
    assert sampled["method"] == "monte carlo" and sampled["samples"] == 200


def test_samples_json_has_intervals() -> None:
    data = _json(SHOOTERS, LINE, "--samples", "400", "--seed", "11")
    assert data["method"] == "monte carlo" and data["samples"] == 400 and data["seed"] == 11
    assert {"hits_mean", "wounds_mean", "casualties_mean", "p_destroyed"} <= set(data["intervals"])
    assert data["intervals"]["wounds_mean"]["n"] == 400
    assert data == _json(SHOOTERS, LINE, "--samples", "400", "--seed", "11")


@pytest.mark.parametrize("variant", ["clock-global", "clock-unit", "clock-bennies"])
def test_clock_variants(variant: str) -> None:
    data = _json(SHOOTERS, LINE, "--mechanic", variant, "--clock-start", "2")
    assert data["mechanic"] == variant and data["method"] == "exact"
    assert sum(data["wounds"]["pmf"]) == pytest.approx(1.0)


def test_every_pair_of_sample_army_leaders_answers() -> None:
    """The first unit of each sample army against the first of each other, in the mode it can
    attack: the probabilities are probabilities."""
    firsts = [load_army(sample_path(n)).units[0] for n in sample_names() if n.startswith("gff/")]
    for a in firsts:
        melee = not any(w.range for w in a.weapons)
        for d in firsts:
            r = attack_odds(a, d, situation=Situation(melee=melee, charging=melee))
            assert sum(r.casualties.pmf) == pytest.approx(1.0)
            assert 0.0 <= r.p_destroyed <= 1.0


# --- the plot -------------------------------------------------------------------------------


def test_plot_writes_a_png(tmp_path: Path) -> None:
    path = tmp_path / "odds.png"
    out = _run(SHOOTERS, LINE, "--plot", str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot written to {path}" in out.replace("\n", "")


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--melee", "--cover"], "cover"),
        (["--charging"], "charging"),
        (["--melee", "--range", "6"], "--range"),
        (["--range", "-1"], "range"),
        (["--range", "30"], "reaches"),
        (["--clock-start", "3"], "--clock-start"),
        (["--mechanic", "clock", "--clock-start", "7"], "--clock-start"),
        (["--mechanic", "clock-random", "--clock-start", "2"], "clock-random"),
        (["--system", "chess"], "rule system"),
        (["--mechanic", "coin"], "unknown mechanic"),
        (["--mechanic", "wwpd"], "not a mechanic for OPR"),
        (["--samples", "0"], "--samples"),
        (["--seed", "3"], "--seed"),
        (["--plot", "odds.svg"], "PNG"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    words: str,
) -> None:
    code, err = _main(monkeypatch, capsys, SHOOTERS, LINE, *args)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert words in err


@pytest.mark.parametrize(
    ("attacker", "args", "words"),
    [
        (LINE, [], "no ranged weapon"),
        ('Test Gunners [1] Q4+ D4+ | 20pts\nRifle (24", A1)', ["--melee"], "no melee weapon"),
        ("missing-army.txt", [], "army file not found"),
        ("Test Broken [1] Q4+", [], "army file not found"),
    ],
)
def test_units_that_cannot_attack_or_cannot_be_read_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    attacker: str,
    args: list[str],
    words: str,
) -> None:
    code, err = _main(monkeypatch, capsys, attacker, SHOOTERS, *args)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert words in err and "Traceback" not in err


def test_bad_plot_directory_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, err = _main(monkeypatch, capsys, SHOOTERS, LINE, "--plot", str(tmp_path / "no/x.png"))
    assert code == 2 and "no such folder" in err
