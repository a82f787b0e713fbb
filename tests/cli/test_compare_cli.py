"""``oprlab compare-mechanics`` (d6 against the clock, and ``--dq``) and ``oprlab efficiency``:
tables, JSON, the DQ playtest's claims computed, and bad input as one line with exit 2."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import oprlab.cli
from oprlab.analysis.odds import attack_odds
from oprlab.cli.compare import parse_range, register
from oprlab.commands.odds import opr_mechanics
from oprlab.errors import OptionError
from oprlab.samples import sample_path
from oprlab.units.load import load_unit_ref

SHOOTERS = 'Test Shooters [2] Q4+ D4+ | 40pts\n2x Rifle (24", A1)'
LINE = "Test Line [5] Q4+ D4+ | 50pts\n5x Club (A1)"
CLAIM_KEYS = {
    "predetermined",
    "miss_at_plus_100",
    "hit_above_sc",
    "low_sc_hits",
    "fewer_blocked",
    "fewer_misses_high_sc",
    "more_en_psg",
    "easy_thresholds",
}

runner = CliRunner(env={"COLUMNS": "200"})


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """Test root."""

    register(app)
    return app


def _run(*args: str) -> str:
    result = runner.invoke(_app(), list(args))
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
    monkeypatch.setattr(oprlab.cli, "app", _app())
    code = oprlab.cli.main(list(args))
    return code, capsys.readouterr().err


# --- d6 against the clock -------------------------------------------------------------------


def _replay(a: int, d: int) -> int:
    """Seed 000 by hand for two Q4+ shots at D4+: each check adds 3; rolling over fails."""
    hits = 0
    for _ in range(2):
        a += 3
        if a > 6:
            a -= 6
        else:
            hits += 1
    wounds = 0
    for _ in range(hits):
        d += 3
        if d > 6:
            d -= 6
            wounds += 1
    return wounds


def test_compare_json_rows_against_the_engine_and_a_replay() -> None:
    """seed 000_e2a2d86473ae65c4 "Random Clocks": the clock over all 36 start pairs is the
    random-start law; the d6 row is the exact d6 odds."""
    data = _json("compare-mechanics", SHOOTERS, LINE)
    assert data["attacker"] == "Test Shooters" and data["defender"] == "Test Line"
    rows = {(r["mechanic"], r["clock_starts"]): r for r in data["rows"]}
    (a,) = load_unit_ref(SHOOTERS)
    (d,) = load_unit_ref(LINE)
    d6 = rows["d6", None]
    assert d6["wounds"]["pmf"] == list(attack_odds(a, d).wounds.pmf)
    start1 = rows["clock", "attacker 1, defender 1"]
    assert start1["wounds"]["pmf"] == list(attack_odds(a, d, mechanic="clock").wounds.pmf)
    counts = Counter(_replay(x, y) for x in range(1, 7) for y in range(1, 7))
    mixed = rows["clock", "all 36 pairs 1-6 x 1-6, equally likely"]
    expected = [float(Fraction(counts[k], 36)) for k in range(max(counts) + 1)]
    assert mixed["wounds"]["pmf"] == pytest.approx(expected)
    assert (
        rows["clock-random", "all 36 pairs 1-6 x 1-6, equally likely"]["wounds"]["pmf"]
        == (mixed["wounds"]["pmf"])
    )


def test_compare_swing_numbers_by_hand() -> None:
    """d6 wounds Binomial(2, 1/4) = (9, 6, 1)/16: mean 1/2, sd sqrt(2 * 1/4 * 3/4), entropy
    by the formula, never 2 from the mean, 1 or more away with P(2) = 1/16."""
    d6 = _json("compare-mechanics", SHOOTERS, LINE)["rows"][0]
    w = d6["wounds"]
    assert d6["mechanic"] == "d6"
    assert w["mean"] == pytest.approx(0.5)
    assert w["sd"] == pytest.approx(math.sqrt(0.375))
    p = [9 / 16, 6 / 16, 1 / 16]
    assert w["entropy_bits"] == pytest.approx(-sum(x * math.log2(x) for x in p))
    assert w["p_far"] == 0.0 and w["far_distance"] == 2
    assert w["p_off_by_1"] == pytest.approx(1 / 16)


def test_compare_lists_every_clock_variant() -> None:
    data = _json("compare-mechanics", SHOOTERS, LINE)
    seen = {r["mechanic"] for r in data["rows"]} | {u["mechanic"] for u in data["unavailable"]}
    assert seen == set(opr_mechanics())
    for u in data["unavailable"]:
        assert u["reason"]
    deterministic = [r for r in data["rows"] if r["clock_starts"] == "attacker 1, defender 1"]
    for r in deterministic:
        assert r["wounds"]["entropy_bits"] == 0.0 and r["wounds"]["sd"] == 0.0


def test_compare_table() -> None:
    out = _run("compare-mechanics", SHOOTERS, LINE, "--far", "1")
    assert "wounds: swing" in out and "casualties: swing" in out
    assert "off1" in out and "bits" in out and "destr" in out
    assert "all 36" in out and "1, 1" in out
    for name in ("d6", "clock", "clock-global", "clock-unit", "clock-random"):
        assert f" {name} " in out
    assert "P(exactly k)" in out


def test_compare_melee_situation_is_recorded() -> None:
    data = _json("compare-mechanics", LINE, SHOOTERS, "--melee", "--charging")
    assert data["situation"]["melee"] and data["situation"]["charging"]
    assert data["weapons"] == ["Club"]


def test_compare_joined_hero_reference_uses_the_first_unit() -> None:
    ref = f"{sample_path('gff/shooty-300.txt')}:Lantern Wardens"
    assert _json("compare-mechanics", ref, LINE)["attacker"] == "Lantern Wardens"


# --- DragonQuest ----------------------------------------------------------------------------


def test_dq_json() -> None:
    data = _json(
        "compare-mechanics", "--dq", "--chance-range", "30:60:10", "--defence-range", "0:40:20"
    )
    assert data["chances"] == [30, 40, 50, 60] and data["defences"] == [0, 20, 40]
    assert len(data["cells"]) == 12
    cell = next(c for c in data["cells"] if (c["strike_chance"], c["defence"]) == (50, 20))
    assert cell["current"]["p_hit"] == pytest.approx(0.3)
    assert set(cell["opposed"]) == {"p_hit", "p_endurance", "p_grievous", "p_blocked"}
    assert {c["key"] for c in data["claims"]} == CLAIM_KEYS
    for c in data["claims"]:
        assert c["result"] in ("PASS", "FAIL", "N/A") and c["measure"] and c["intent"]


def test_dq_table_prints_claims_with_numbers() -> None:
    out = _run("compare-mechanics", "--dq")
    assert "opposed" in out and "current" in out and "P(blocked)" in out
    verdicts = [line for line in out.splitlines() if line.startswith(("PASS", "FAIL", "N/A"))]
    assert len(verdicts) == len(CLAIM_KEYS)
    assert "0.0199" in out  # the miss at SC 100 vs D 0


def test_parse_range() -> None:
    assert parse_range("20:120:10", "x") == tuple(range(20, 121, 10))
    assert parse_range("5:25", "x") == (5, 15, 25)
    assert parse_range("40", "x") == (40,)
    for bad in ("a:b", "30:10:5", "0:100:0", "-10:20:10", "0:5000:10", "1:2:3:4"):
        with pytest.raises(OptionError):
            parse_range(bad, "x")


# --- efficiency -----------------------------------------------------------------------------


def test_efficiency_table() -> None:
    out = _run("efficiency", str(sample_path("gff/melee-150.txt")), SHOOTERS)
    assert "expected wounds per 100 pts" in out and "P(destroyed) per 100 pts" in out
    assert "shooting" in out and "melee, charging" in out
    assert "Reaver Pack" in out and "Test Shooters" in out
    assert "cannot" in out  # the melee army has no ranged weapon
    for name in ("Light infantry", "Line infantry", "Elite", "Monster", "Horde"):
        assert all(word in out for word in name.split())  # headers put a word on a line


def test_efficiency_json_doubling_cost_halves_figures() -> None:
    dear = SHOOTERS.replace("40pts", "80pts").replace("Test Shooters", "Dear Shooters")
    data = _json("efficiency", SHOOTERS, dear, "--target", "horde", "--target", LINE)
    assert [t["name"] for t in data["targets"]] == ["Horde", "Test Line"]
    rows = {r["unit"]: r for r in data["shooting"]}
    assert rows["Test Shooters"]["rank"] == 1 and rows["Dear Shooters"]["rank"] == 2
    for cheap, pricey in zip(
        rows["Test Shooters"]["targets"], rows["Dear Shooters"]["targets"], strict=True
    ):
        assert pricey["wounds"] == cheap["wounds"]
        assert pricey["wounds_per_100"] == pytest.approx(cheap["wounds_per_100"] / 2)
    # Two Q4+ shots at the Line (4+): 1/2 wound for 40 pts = 1.25 per 100 pts.
    assert rows["Test Shooters"]["targets"][1]["wounds_per_100"] == pytest.approx(1.25)
    assert data["range"] == 12.0


def test_efficiency_range_and_mechanic() -> None:
    data = _json("efficiency", SHOOTERS, "--range", "30", "--mechanic", "clock")
    assert data["mechanic"] == "clock" and data["range"] == 30.0
    assert data["shooting"][0]["can_attack"] is False


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["compare-mechanics", SHOOTERS], "ATTACKER and DEFENDER"),
        (["compare-mechanics", SHOOTERS, LINE, "--melee", "--cover"], "cover"),
        (["compare-mechanics", SHOOTERS, LINE, "--system", "chess"], "rule system"),
        (["compare-mechanics", SHOOTERS, LINE, "--far", "0"], "--far"),
        (["compare-mechanics", SHOOTERS, LINE, "--chance-range", "10:20:5"], "--dq"),
        (["compare-mechanics", "--dq", SHOOTERS], "--dq takes no units"),
        (["compare-mechanics", "--dq", "--chance-range", "50:10:10"], "empty"),
        (["compare-mechanics", "--dq", "--defence-range", "x"], "not a range"),
        (["compare-mechanics", "--dq", "--chance-range", "0:1200:1"], "too large"),
        (["efficiency", SHOOTERS, "--target", "Dragon"], "army file not found"),
        (["efficiency", SHOOTERS.replace("40pts", "0pts")], "no points cost"),
        (["efficiency", SHOOTERS, "--mechanic", "dq"], "not a mechanic for OPR"),
        (["efficiency", SHOOTERS, "--range", "-3"], "--range"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    words: str,
) -> None:
    code, err = _main(monkeypatch, capsys, *args)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert words in err
