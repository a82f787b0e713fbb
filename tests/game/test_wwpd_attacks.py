"""WWPD's attacks weighed (issue 13's speed): the shooting attacks and the defender's order are
remembered by everything they read (``wwpd_combat._ATTACKS``, ``_ORDERS``) and each unit's
targets for the state's version (``wwpd._targets``); every answer must be the one worked out
afresh, and the benchmark's WWPD games stay the games they were."""

from __future__ import annotations

from collections.abc import Sequence

from bench.instructions import play

from oprlab.game import wwpd, wwpd_combat
from oprlab.game.play import play_game
from oprlab.game.systems import find_system
from oprlab.game.wwpd_state import WwpdState
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.formats import army_format

#: ``bench.instructions``' wwpd games, seeds 1-2 (rules commanders, open table): the digest of
#: their logs before the attacks were remembered.
WWPD_DIGEST = "8060db9939ac83aa"


def test_the_benchmark_wwpd_games_are_unchanged() -> None:
    """`python -m bench.instructions wwpd --seeds 1-2` plays the games it played before."""
    assert play("wwpd", range(1, 3)) == WWPD_DIGEST


def _fresh(state: WwpdState) -> None:
    """Every shooter's targets (kept for the state's version) and attack on every enemy,
    remembered and then with the memos emptied."""
    for us in state.units.values():
        if not us.on_table:
            continue
        assert wwpd._targets(state, us) == wwpd_combat.shooting_targets(state, us)
        for e in state.enemies(us.side):
            kept = wwpd_combat.shooting_attack_of(state, us, e)
            wwpd_combat._ATTACKS.clear()
            wwpd_combat._ORDERS.clear()
            assert wwpd_combat.shooting_attack_of(state, us, e) == kept


def test_remembered_attacks_are_the_attacks_worked_out_afresh() -> None:
    """Through a whole game (terrain, markers, units moving, pinned and cowering), each
    remembered attack is the one a fresh reading gives."""
    army = army_format(find_system("wwpd").army_format).load(sample_path("wwpd/colonial.yaml"))
    seen: list[int] = []

    class Checking:
        def __init__(self, seed: int) -> None:
            self.inner = get_commander("rules", seed, system="wwpd")
            self.name = "checking"

        def choose(self, state: WwpdState, actions: Sequence[wwpd.WwpdAction]) -> wwpd.WwpdAction:
            if state.phase in ("shooting", "firefight"):
                _fresh(state)
                seen.append(1)
            choice: wwpd.WwpdAction = self.inner.choose(state, actions)
            return choice

    sides = [Checking(5), Checking(6)]
    play_game(army, army, sides, seed=5, system="wwpd", table=mission_table(5))
    assert len(seen) > 5
