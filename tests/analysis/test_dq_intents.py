"""The playtest's "Why?" claims checked on whole duels (seed 001_7377b7b33dc9f88d): the claims
come out with numbers and verdicts; what holds by construction holds in every duel played."""

from __future__ import annotations

import pytest

from oprlab.analysis.dq_intents import ARCHETYPES, fight_claims, shortcut_quality
from oprlab.errors import OptionError
from oprlab.mechanics.dq import success_quality
from oprlab.samples import sample_text
from oprlab.units.dq_fighter import load_dq_fighter

KEYS = {
    "no_subtraction",
    "defence_unknown",
    "predetermined",
    "miss_at_plus_100",
    "hit_above_sc",
    "low_sc_hits",
    "fewer_blocked",
    "fewer_misses_high_sc",
    "more_en_psg",
    "evading_parry",
    "assassin",
    "easy_thresholds",
}


def test_shortcut_by_hand() -> None:
    """seed 001 Intent 4: "Quality 4 is percentage chance/10, 3 is twice that and 2 is twice that
    again". SC 65: Decisive within 7; the shortcut's Crucial within 14 and Better within 28,
    where Table 1 says 13 (20% of 65) and 26 (40%): rolls 14 and 27 are graded differently."""
    assert [shortcut_quality(r, 65) for r in (7, 14, 27, 28, 65, 66)] == [4, 3, 2, 2, 1, 0]
    assert [success_quality(r, 65) for r in (7, 14, 27, 28, 65, 66)] == [4, 2, 1, 1, 1, 0]
    assert shortcut_quality(1, 5) == 4 and shortcut_quality(100, 500) == 0
    assert shortcut_quality(11, 204) == 5 and shortcut_quality(1, 204) == 6


def test_claims_on_a_few_duels() -> None:
    """Every claim is measured; the current rules never miss at +100 but on a 00, nor hit a
    Defence above the SC but on a 01, in any duel; the opposed ones ask for no subtraction."""
    fighters = {n: load_dq_fighter(sample_text(f"dq/{n}"), n) for n in ARCHETYPES}
    claims = {c.key: c for c in fight_claims(fighters, games=12, seed=3)}
    assert set(claims) == KEYS
    for claim in claims.values():
        assert claim.verdict in ("PASS", "FAIL", "NOT SHOWN") and claim.measure
        assert claim.to_json()["result"] == claim.verdict
    assert claims["no_subtraction"].verdict == "PASS"
    assert claims["no_subtraction"].numbers["opposed_subtractions_per_fight"] == 0
    assert claims["miss_at_plus_100"].numbers["current"]["misses_not_on_00"] == 0
    assert claims["hit_above_sc"].numbers["current"]["hits_not_on_01"] == 0
    assert claims["easy_thresholds"].numbers["rolls"] > 0
    with pytest.raises(OptionError, match="archetypes"):
        fight_claims({"knight": fighters["knight"]}, games=1)
