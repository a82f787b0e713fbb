"""What the replay draws over the table at each step: the outcome of every check the step
made (a shot's dice, a melee's wounds, a morale or Leadership test), beside the unit it
befell, in the words of the events the engine logged (seed 003 "Shooting", "Melee",
"Morale"; seed 004's dice and saves)."""

from __future__ import annotations

import re

from oprlab.samples import sample_text
from oprlab.web import engine
from oprlab.web.drawing import check_text
from oprlab.web.gamefile import GameSetup


def _game(system: str, mechanic: str, lists: tuple[str, str], seed: int) -> engine.Recorded:
    return engine.play(
        GameSetup(
            sample_text(lists[0]),
            sample_text(lists[1]),
            system=system,
            mechanic=mechanic,
            seed=seed,
            commander_b="random",
        )
    )


def test_each_check_of_a_step_is_drawn_in_its_frame() -> None:
    """Every shot, melee and test event of a step has one label in that step's picture, and
    a step with no check has none; a shot's label gives its dice, hits, wounds and losses."""
    game = _game("gff", "clock", ("gff/elite-150.txt", "gff/horde-150.txt"), 9)
    events = game.state.log.events
    replay = engine.start(game.setup)  # the same game again, its events cut at each step
    seen = 0
    kinds = set()
    for action, frame in zip(game.actions, game.frames[1:], strict=True):
        first = len(replay.state.log.events)
        replay.step(action)
        checks = [e for e in replay.state.log.events[first:] if check_text(e) is not None]
        lines = len(re.findall(r'<g class="check"', frame.svg))
        assert lines <= len(checks)
        for e in checks:
            kinds.add(e["kind"])
            if e["kind"] == "shoot":
                assert (
                    f"{e['dice']} dice: {e['hits']} hits, {e['wounds']} wounds, "
                    f"{e['casualties']} down" in frame.svg
                )
        seen += lines
    assert seen and {"shoot", "melee"} <= kinds
    assert seen >= sum(1 for e in events if e["kind"] == "shoot")


def test_check_words() -> None:
    assert check_text({"kind": "move", "unit": "A1"}) is None
    shot = {"kind": "shoot", "unit": "A1", "target": "B2", "dice": 4, "hits": 2, "wounds": 1}
    assert check_text(shot | {"casualties": 1}) == ("4 dice: 2 hits, 1 wounds, 1 down", "B2")
    wwpd = {"kind": "shooting", "unit": "A1", "target": "B1", "dice": 3, "hits": 2}
    assert check_text(wwpd | {"wounds": 1, "saves": 1, "casualties": 0}) == (
        "3 dice: 2 hits, 1 wounds, 1 saved, 0 down",
        "B1",
    )
    in_cover = check_text(shot | {"casualties": 0, "cover": True})
    assert in_cover is not None and in_cover[0].endswith("0 down (in cover)")
    hard = check_text(wwpd | {"wounds": 0, "saves": 0, "casualties": 0, "cover": "hard"})
    assert hard is not None and hard[0].endswith("(hard cover)")
    morale = {"kind": "morale", "unit": "B2", "quality": 5, "passed": False}
    assert check_text(morale) == ("morale 5+: failed", "B2")
    lead = {"kind": "leadership", "unit": "B3", "target": 3, "passed": True}
    assert check_text(lead) == ("Leadership 3+: passed", "B3")
