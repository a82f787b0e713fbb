"""The bundled sample armies: they load, use only known rules, pass the GFF Force Org, and the
text and JSON forms describe the same army."""

from __future__ import annotations

import importlib.util
import re
from collections import Counter
from pathlib import Path

import pytest

from oprlab.errors import UnknownNameError
from oprlab.samples import sample_names, sample_path, sample_text
from oprlab.units.forge_json import format_army_json, parse_army_json
from oprlab.units.load import load_army
from oprlab.units.model import Army, Rule
from oprlab.units.profiles import load_dq, load_wwpd
from oprlab.units.special_rules import unknown_rules
from oprlab.units.text import format_army_text, parse_army_text
from oprlab.units.validate import validate_army

GFF_TEXT = [n for n in sample_names() if n.startswith("gff/") and n.endswith(".txt")]
STYLES = ("shooty", "melee", "elite", "horde")
#: The 2,000-point pair: 20 units of up to 5 models each, as many as the Force Org allows.
LARGE = ("lantern-2000", "thorn-2000")
TOOL = Path(__file__).resolve().parents[2] / "tools" / "gen_sample_json.py"

#: Every GFF special rule the samples must use between them (seed 003 "Special Rules Reference").
GFF_RULES = {
    "AP", "Bane", "Blast", "Caster", "Counter", "Deadly", "Fast", "Fear", "Fearless", "Flying",
    "Furious", "Hero", "Impact", "Indirect", "Regeneration", "Relentless", "Reliable", "Rending",
    "Scout", "Ambush", "Slow", "Stealth", "Strider", "Surge", "Thrust", "Tough", "Unstoppable",
    "Limited",
}  # fmt: skip


def _army(name: str) -> Army:
    return load_army(sample_path(name))


def _all_rules(army: Army) -> list[Rule]:
    def walk(rules: tuple[Rule, ...]) -> list[Rule]:
        return [x for r in rules for x in (r, *walk(r.rules))]

    return [
        r
        for u in army.units
        for r in (*walk(u.rules), *(x for w in u.weapons for x in walk(w.rules)))
    ]


def test_the_expected_samples_are_shipped() -> None:
    """Four GFF styles at 150 and 300 points, text and JSON, a 2,000-point pair of 20 units
    each (issue 11: large armies deploy), plus a WWPD and a DQ sample."""
    names = set(sample_names())
    for style in STYLES:
        for pts in (150, 300):
            assert {f"gff/{style}-{pts}.txt", f"gff/{style}-{pts}.json"} <= names
    for big in LARGE:
        assert {f"gff/{big}.txt", f"gff/{big}.json"} <= names
        assert len(_army(f"gff/{big}.txt").units) == 20
    assert {"wwpd/colonial.yaml", "dq/duel.yaml"} <= names
    assert len(GFF_TEXT) == 10


def test_sample_path_finds_files_by_name_and_unique_stem() -> None:
    path = sample_path("wwpd/colonial.yaml")
    assert path.is_file() and path.name == "colonial.yaml"
    assert sample_path("wwpd/colonial") == path
    assert sample_text("dq/duel.yaml") == sample_path("dq/duel").read_text(encoding="utf-8")


def test_sample_path_rejects_unknown_and_ambiguous_names() -> None:
    with pytest.raises(UnknownNameError, match="no such sample") as exc:
        sample_path("gff/nope-150.txt")
    assert "gff/shooty-150.txt" in str(exc.value)
    with pytest.raises(UnknownNameError, match="ambiguous") as exc:
        sample_path("gff/shooty-150")  # .txt and .json
    assert "gff/shooty-150.json" in str(exc.value) and "gff/shooty-150.txt" in str(exc.value)


@pytest.mark.parametrize("name", GFF_TEXT)
def test_text_and_json_give_the_same_army(name: str) -> None:
    """The JSON sample is the text sample in Army Forge's JSON shape: same units, same uids."""
    text = _army(name)
    json_ = _army(name.replace(".txt", ".json"))
    assert text == json_
    assert text.units and text.system == "GFF"


@pytest.mark.parametrize("name", GFF_TEXT)
def test_samples_round_trip(name: str) -> None:
    army = _army(name)
    assert parse_army_text(format_army_text(army), name) == army
    assert parse_army_json(format_army_json(army), name) == army


@pytest.mark.parametrize("name", GFF_TEXT)
def test_json_samples_are_up_to_date(name: str) -> None:
    """The JSON files are what tools/gen_sample_json.py makes from the text files now."""
    spec = importlib.util.spec_from_file_location("gen_sample_json", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    json_path = sample_path(name.replace(".txt", ".json"))
    assert json_path.read_text(encoding="utf-8") == tool.expected_json(sample_path(name))


@pytest.mark.parametrize("name", GFF_TEXT)
def test_samples_have_no_unknown_rules_and_no_problems(name: str) -> None:
    army = _army(name)
    assert unknown_rules(army) == []
    assert validate_army(army) == []


@pytest.mark.parametrize("name", GFF_TEXT)
def test_samples_keep_the_gff_force_org(name: str) -> None:
    """seed 003_8abb008d4113ed75 "Force Org (Optional)": 1 hero per 150pts, 1+X copies (X = 1
    per 150pts), no unit over 35%, max 1 unit per 30pts, max 1 model per full 20pts; "The
    Armies": spend at most the points. Checked here by hand, apart from the validator."""
    army = _army(name)
    pts = int(name.removesuffix(".txt").rsplit("-", 1)[1])
    assert army.points == pts
    assert army.cost <= pts
    assert army.cost >= pts - 25, "a sample should spend close to its points"
    assert sum(u.hero for u in army.units) <= pts // 150
    copies = Counter(u.name for u in army.units)
    assert max(copies.values()) <= 1 + pts // 150
    assert all(u.cost * 100 <= 35 * pts for u in army.units)
    assert len(army.units) <= pts // 30
    assert sum(u.size for u in army.units) <= pts // 20


@pytest.mark.parametrize("name", GFF_TEXT)
def test_samples_are_skirmish_sized(name: str) -> None:
    """GFF is a skirmish game: units of 1-5 models, heroes alone, Tough only on single models."""
    for unit in _army(name).units:
        assert 1 <= unit.size <= 5
        if unit.hero:
            assert unit.size == 1
        if unit.has("Tough"):
            assert unit.size == 1


@pytest.mark.parametrize("name", GFF_TEXT)
def test_header_unit_count_matches_the_list(name: str) -> None:
    """The header's ``[n Units]`` (which parsers ignore) counts every copy of ``{k}x`` units."""
    header = sample_text(name).splitlines()[0]
    m = re.search(r"\[(\d+) Units\]", header)
    assert m is not None
    assert int(m.group(1)) == len(_army(name).units)


def test_samples_cover_the_gff_special_rules() -> None:
    """seed 003_8abb008d4113ed75 "Special Rules Reference": between them the samples use every
    rule a GFF list can carry (Immobile aside)."""
    used = {r.name for name in GFF_TEXT for r in _all_rules(_army(name))}
    assert GFF_RULES - used == set()


def test_samples_cover_the_army_forge_text_features() -> None:
    """shared formats README: ``{k}x`` units, counted rules, items, joined heroes, melee weapons."""
    texts = {name: sample_text(name) for name in GFF_TEXT}
    armies = {name: _army(name) for name in GFF_TEXT}
    assert any(re.search(r"^\d+x .*\[\d+\] Q", t, re.M) for t in texts.values())
    rules = [r for a in armies.values() for r in _all_rules(a)]
    assert Rule("Fast", count=3) in rules
    assert Rule("Banner", count=1, rules=(Rule("Fearless"),)) in rules
    assert any(u.joined_to for a in armies.values() for u in a.units)
    assert any("| Joined to:" in t for t in texts.values())
    assert any(w.melee for a in armies.values() for u in a.units for w in u.weapons)
    for a in armies.values():
        for u in a.units:
            if u.joined_to is not None:
                host = next(h for h in a.units if h.uid == u.joined_to)
                assert u.hero and not host.hero


def test_styles_differ() -> None:
    """Shooty lists shoot more than melee lists; elite lists have better Quality than hordes."""

    def ranged_share(army: Army) -> float:
        total = [w.count * w.attacks for u in army.units for w in u.weapons]
        ranged = [w.count * w.attacks for u in army.units for w in u.weapons if not w.melee]
        return sum(ranged) / sum(total)

    for pts in (150, 300):
        shooty, melee = _army(f"gff/shooty-{pts}.txt"), _army(f"gff/melee-{pts}.txt")
        assert ranged_share(shooty) > ranged_share(melee)
        elite, horde = _army(f"gff/elite-{pts}.txt"), _army(f"gff/horde-{pts}.txt")
        assert max(u.quality for u in elite.units) < min(u.quality for u in horde.units)
        assert sum(u.size for u in horde.units) > sum(u.size for u in elite.units)
        assert len(horde.units) > len(elite.units)


def test_wwpd_sample_loads() -> None:
    """seed 004_b5c87f7769291d1c "Basic Characteristics": skills 0..4, leadership 2+..6+."""
    force = load_wwpd(sample_text("wwpd/colonial.yaml"), "colonial.yaml")
    assert len(force.units) >= 3
    models = [m for u in force.units for _, m in u.models]
    assert all(0 <= m.ranged_skill <= 4 and 2 <= m.leadership <= 6 for m in models)
    assert any(m.vehicle for m in models)
    weapons = [w for u in force.units for _, w in u.weapons]
    assert any(w.melee for w in weapons) and any(not w.melee for w in weapons)


def test_dq_sample_loads() -> None:
    """seed 001_7377b7b33dc9f88d 57.3: one combatant built from parts (Base Chance + MD +
    4 x Rank + magic + modifiers), one given directly."""
    duel = load_dq(sample_text("dq/duel.yaml"), "duel.yaml")
    assert len(duel) == 2
    built, given = duel
    assert built.strike_parts is not None and given.strike_parts is None
    assert built.weapon.base_chance is not None
    assert built.strike_chance == (
        built.weapon.base_chance + built.strike_parts.manual_dexterity + 4 * built.weapon_rank
    )


def test_the_directory_and_importlib_resources_find_the_same_samples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Read from the package's directory (no importlib.resources at start-up, issue 13), and
    through importlib.resources when the package is not a plain directory: the same samples."""
    import oprlab.samples as samples

    names = sample_names()
    text = sample_text("gff/shooty-150.txt")
    monkeypatch.setattr(samples, "_HERE", Path("/no/such/directory"))
    assert sample_names() == names
    assert sample_text("gff/shooty-150.txt") == text
    assert sample_path("gff/shooty-150.txt").read_text(encoding="utf-8") == text
