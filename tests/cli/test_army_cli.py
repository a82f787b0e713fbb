"""``oprlab army show|validate``: the table, the JSON shapes, exit codes, and bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import oprlab.cli
from oprlab.cli.army import register
from oprlab.errors import ParseError
from oprlab.samples import sample_names, sample_path
from oprlab.units.forge_json import format_army_json
from oprlab.units.load import load_army
from oprlab.units.model import Army, Rule, Unit, Weapon
from tests.pools import tiny_pool

GFF = [n for n in sample_names() if n.startswith("gff/")]
TOP_KEYS = {"name", "system", "points", "units", "unknown_rules"}
UNIT_KEYS = {"name", "size", "quality", "defense", "cost", "rules", "weapons", "joined_to"}
WEAPON_KEYS = {"name", "range", "attacks", "count", "rules"}

UNKNOWN = """\
++ Odd List - Dust Wardens (v1.0) [GFF 150pts] ++

Warden Captain [1] Q3+ D4+ | 45pts | Hero, Tough(3), Moonwalk, 1x Charm(Luck(2))
Sabre (A3, AP(1), Glitter)
"""

#: Three heroes at 150pts: only the Force Org (1 hero per 150pts) is broken.
THREE_HEROES = """\
++ Captains - Dust Wardens (v1.0) [GFF 150pts] ++

Captain A [1] Q4+ D4+ | 30pts | Hero
Sabre (A1)

Captain B [1] Q4+ D4+ | 30pts | Hero
Sabre (A1)

Captain C [1] Q4+ D4+ | 30pts | Hero
Sabre (A1)
"""

runner = CliRunner(env={"COLUMNS": "200"})


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """Test root."""

    register(app)
    return app


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(_app(), ["army", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def _write(tmp_path: Path, text: str, name: str = "list.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", GFF)
def test_show_table_names_every_unit(name: str) -> None:
    code, out = _run("show", str(sample_path(name)))
    army = load_army(sample_path(name))
    assert code == 0
    for unit in army.units:
        assert unit.name in out
    assert army.name in out and f"{army.cost}/{army.points}pts" in out
    assert army.books[0] in out


def test_show_table_shows_stats_rules_weapons_and_joined_heroes() -> None:
    code, out = _run("show", str(sample_path("gff/shooty-300.txt")))
    assert code == 0
    lines = out.splitlines()
    wardens = next(i for i, ln in enumerate(lines) if "Lantern Wardens" in ln)
    adept = next(i for i, ln in enumerate(lines) if "Beacon Adept" in ln)
    assert adept > wardens, "the joined hero comes right after its unit"
    assert "joined hero" in lines[adept + 1]
    assert "[4]" in lines[wardens] and "4+" in lines[wardens] and "60" in lines[wardens]
    assert "4x Relentless" in lines[wardens]
    assert '4x Flare Carbine (18", A1, AP(1))' in out
    assert "4x Bayonet (A1)" in out
    assert "unknown rule" not in out


def test_show_lists_unknown_rules_below_the_table(tmp_path: Path) -> None:
    code, out = _run("show", str(_write(tmp_path, UNKNOWN)))
    assert code == 0
    tail = out[out.index("3 unknown rule(s)") :]
    assert "units[0] 'Warden Captain' rules[2]: Moonwalk" in tail
    assert "rules[3] 'Charm' rules[0]: Luck(2)" in tail
    assert "weapons[0] 'Sabre' rules[1]: Glitter" in tail


def test_show_colours_unknown_rules_red(tmp_path: Path) -> None:
    result = CliRunner(env={"COLUMNS": "200", "FORCE_COLOR": "1", "TERM": "xterm"}).invoke(
        _app(), ["army", "show", str(_write(tmp_path, UNKNOWN))]
    )
    assert result.exit_code == 0
    red = "\x1b[1;31m"
    assert f"{red}Moonwalk" in result.stdout
    assert f"{red}Glitter" in result.stdout
    assert f"{red}Tough" not in result.stdout


@pytest.mark.parametrize("name", GFF)
def test_show_json_has_exactly_the_documented_keys(name: str) -> None:
    code, out = _run("show", str(sample_path(name)), "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == TOP_KEYS
    army = load_army(sample_path(name))
    assert (data["name"], data["system"], data["points"]) == (army.name, army.system, army.points)
    assert data["unknown_rules"] == []
    assert len(data["units"]) == len(army.units)
    for row, unit in zip(data["units"], army.units, strict=True):
        assert set(row) == UNIT_KEYS
        assert (row["name"], row["size"], row["quality"], row["defense"], row["cost"]) == (
            unit.name,
            unit.size,
            unit.quality,
            unit.defense,
            unit.cost,
        )
        assert [set(r) for r in row["rules"]] == [{"name", "rating"}] * len(unit.rules)
        for w in row["weapons"]:
            assert set(w) == WEAPON_KEYS
            assert all(set(r) == {"name", "rating"} for r in w["rules"])


def test_show_json_values() -> None:
    """``{k}x`` units appear k times; a joined hero names its unit; melee has no range."""
    code, out = _run("show", str(sample_path("gff/melee-300.json")), "--json")
    assert code == 0
    units = json.loads(out)["units"]
    assert [u["name"] for u in units].count("Thorn Runners") == 2
    chief = next(u for u in units if u["name"] == "Briar Chieftain")
    assert chief["joined_to"] == "Reaver Pack"
    assert {"name": "Tough", "rating": 3} in chief["rules"]
    assert chief["weapons"] == [
        {
            "name": "Thorn Maul",
            "range": None,
            "attacks": 3,
            "count": 1,
            "rules": [{"name": "AP", "rating": 2}, {"name": "Rending", "rating": None}],
        }
    ]
    pack = next(u for u in units if u["name"] == "Reaver Pack")
    assert pack["joined_to"] is None
    assert {"name": "Banner", "rating": None} in pack["rules"]


def test_show_json_combined_unit_once_with_merged_size(tmp_path: Path) -> None:
    army = Army(
        "Combined",
        "GFF",
        300,
        (
            Unit(
                "Big Squad",
                4,
                4,
                4,
                80,
                (Rule("Fast", count=4),),
                (Weapon("Rifle", 1, 24, 4),),
                combined=True,
                uid="big-1",
            ),
        ),
    )
    path = _write(tmp_path, format_army_json(army), "combined.json")
    assert len(json.loads(path.read_text())["units"]) == 2  # Army Forge writes two entries
    code, out = _run("show", str(path), "--json")
    assert code == 0
    (unit,) = json.loads(out)["units"]
    assert (unit["name"], unit["size"], unit["cost"]) == ("Big Squad", 4, 80)
    assert unit["weapons"][0]["count"] == 4


def test_show_json_lists_unknown_rules(tmp_path: Path) -> None:
    code, out = _run("show", str(_write(tmp_path, UNKNOWN)), "--json")
    assert code == 0
    unknown = json.loads(out)["unknown_rules"]
    assert [u["rule"] for u in unknown] == ["Moonwalk", "Luck(2)", "Glitter"]
    assert all(set(u) == {"where", "rule"} for u in unknown)


@pytest.mark.parametrize("name", GFF)
def test_validate_samples_exit_0(name: str) -> None:
    code, out = _run("validate", str(sample_path(name)))
    assert code == 0
    assert "no problems" in out


def test_validate_prints_every_problem_and_exits_1(tmp_path: Path) -> None:
    """seed 003_8abb008d4113ed75 "Force Org (Optional)": 3 heroes at 150pts break "1 hero per
    150pts"; and the points are over the limit."""
    over = THREE_HEROES.replace("[GFF 150pts]", "[GFF 80pts]")
    code, out = _run("validate", str(_write(tmp_path, over)))
    assert code == 1
    assert "army: spends 90pts, over the 80pts limit" in out
    assert "3 heroes" in out
    assert "problem(s)" in out


def test_validate_no_force_org(tmp_path: Path) -> None:
    path = _write(tmp_path, THREE_HEROES)
    code, out = _run("validate", str(path))
    assert code == 1 and "3 heroes" in out
    code, out = _run("validate", str(path), "--no-force-org")
    assert code == 0 and "no problems" in out


def test_validate_json(tmp_path: Path) -> None:
    code, out = _run("validate", str(_write(tmp_path, THREE_HEROES)), "--json")
    assert code == 1
    problems = json.loads(out)["problems"]
    assert set(json.loads(out)) == {"problems"}
    assert len(problems) == 1
    assert set(problems[0]) >= {"where", "message"}
    assert problems[0]["where"] == "army" and "3 heroes" in problems[0]["message"]
    code, out = _run("validate", str(sample_path("gff/elite-300.json")), "--json")
    assert (code, json.loads(out)) == (0, {"problems": []})


def test_validate_reports_unknown_rules_as_warnings(tmp_path: Path) -> None:
    code, out = _run("validate", str(_write(tmp_path, UNKNOWN)))
    assert code == 1
    assert "Moonwalk" in out and "(warning)" in out


@pytest.mark.parametrize("command", ["show", "validate"])
def test_bad_file_raises_a_user_error(tmp_path: Path, command: str) -> None:
    result = runner.invoke(_app(), ["army", command, str(tmp_path / "missing.txt")])
    assert isinstance(result.exception, ParseError)


@pytest.mark.parametrize("command", ["show", "validate"])
@pytest.mark.parametrize(
    "content", [None, "not an army list", '{"units": [', "++ L [GFF 150pts] ++\n\nX [1] Q4+\n"]
)
def test_bad_file_is_one_line_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    content: str | None,
) -> None:
    """Through the real CLI root: a UserError becomes one line on stderr and exit code 2."""
    path = tmp_path / "list.txt"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    monkeypatch.setattr(oprlab.cli, "app", _app())
    code = oprlab.cli.main(["army", command, str(path)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith("error: ")
    assert captured.err.count("\n") == 1
    assert "Traceback" not in captured.err + captured.out
    assert str(path) in captured.err


POOL_TEXT = tiny_pool("Cli pool")


def test_generate_prints_or_writes_seeded_legal_lists(tmp_path: Path) -> None:
    pool = _write(tmp_path, POOL_TEXT, "pool.toml")
    code, out = _run("generate", str(pool), "--points", "150", "--seed", "3", "--count", "2")
    assert code == 0 and out.count("++ Cli pool 150pts seed 3 list") == 2
    code, again = _run("generate", str(pool), "--points", "150", "--seed", "3", "--count", "2")
    assert again == out
    folder = tmp_path / "lists"
    code, _ = _run("generate", str(pool), "--points", "300", "--count", "3", "--out", str(folder))
    files = sorted(folder.iterdir())
    assert code == 0 and [f.name for f in files] == [f"pool-300-0-{k}.txt" for k in (1, 2, 3)]
    for f in files:
        assert _run("validate", str(f))[0] == 0


def test_generate_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pool = _write(tmp_path, "name = 'x'\n[[units]]\ntext = 'Foo [1] Q4+ | 5pts'\n", "p.toml")
    for args, words in (
        ([str(pool), "--points", "100"], "units[0].text:1"),
        ([str(tmp_path / "none.toml"), "--points", "100"], "pool file not found"),
        ([str(pool), "--points", "100", "--count", "0"], "--count"),
    ):
        code = oprlab.cli.main(["army", "generate", *args])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("error: ") and words in err and err.count("\n") == 1
