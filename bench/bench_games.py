"""Whole GFF games between two rules-based commanders, by army size, and where time goes."""

from __future__ import annotations

import cProfile
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness import Result
from oprlab.game.actions import Action
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.players.base import Commander
from oprlab.samples import sample_path
from oprlab.units.formats import army_format
from oprlab.units.load import load_army
from oprlab.units.model import Army

TITLE = "Full games (GFF, rules-based commanders, d6)"
_ABOUT = """
One game = objectives, deployment, 4 rounds, morale and scoring between two rules-based
commanders, event log on, on an open table (seeds 0, 1, ...; caches warm from the games before,
as in a batch of games). 150 and 300 points: the bundled shooty and melee lists; 600 points:
two 300-point lists merged per side. The target is a 300-point game in milliseconds (50 ms).

Tried and not adopted: numba kernels for the path search (segment crossings, point in blocker,
segment clearance; bit-identical logs). Movement got 1.6x faster but whole games only 1.25-1.3x
(300 pts 262 -> 201 ms CPU, best of 3 over seeds 1-10), for 0.65 s (cached) to 2.7 s (cold) of
compiling in every new process and a ~200 MB dependency: what is left in movement is Python
bookkeeping around many small calls, and the commander and legal actions are half the game.
Segment crossings and rotations are spelled out in plain float arithmetic (no complex or matrix
products, which numpy may fuse into multiply-adds on some CPUs) so a seed plays the same game
on every machine; that costs about 10% on tables with terrain.

To compare two checkouts, count instructions rather than time: `PYTHONPATH=. .venv/bin/python
-m bench.instructions [gff300 gff600 riverside wwpd] [--seeds A-B]` plays the seeded games
above (rules commanders, open table) in one process after a warm-up game, less a process that
plays the warm-up game only, under `perf stat -e instructions:u` or, where perf has no hardware
counters (this machine in the ninth session), valgrind's callgrind (exact, about 40 times
slower: a 300-point game about a minute); it prints a digest of the games' logs, the same
digest for the same games.

Issue 13's table steps (the same games, every hash unchanged), counted in instructions since
the machine was shared (`perf stat -e instructions:u`, ten games, seeds 1-10): 150 pts 6.40 ->
6.02 G (-6%), 300 pts 12.43 -> 11.65 G (-6%), 600 pts 62.4 -> 56.9 G (-9%).

Issue 13 after issue 14's habit fixes (which made the rules commander 66-81% of a game: it ran
the table's charge test for every charge it listed). The commander now tests a charge only when
it would win the decision (players/rules/bounds.py: charges count first with a bound, the
better of their score arriving and falling short; the winner is tested and, if it falls short,
the choice is made again: the same choice, at about one test a decision), reads a unit's role
and rules by identity (units/model.py, rule_scope.py: no hashing or walking of frozen units)
and lists each marker's contesting enemies once a decision. Every golden and performance hash
unchanged. Instructions a game (`perf stat -e instructions:u`, the process less one with the
imports and the warm-up game only; seeds 1-5, 1-10 and 1-3): 150 pts 0.94 -> 0.60 G (x1.6),
300 pts 2.24 -> 1.31 G (x1.7), 600 pts 18.8 -> 6.25 G (x3.0); 600 points now cost 4.8 times
300 (8.4 before). rules-v1 (no habit fixes) costs 1.15 G a 300-point game. The same ten
300-point games by `farm-bench --vs` (three runs paired, load about 10): CPU 0.61 of before.
Issue 13's apply and deployment steps (every golden and performance hash unchanged;
instructions of ten 300-point games, seeds 1-10, less a process with the imports and the
warm-up game only, `perf stat -e instructions:u`): apply trusts an action legal_actions has
just listed for the state (the same object, nothing applied since: the full check repeated
the listing's work, the shot checks most) 13.91 -> 13.72 G (-1.4%); GFF's deployment grid
checked for all points at once (the table, the zone and the other units' bounding circles
in one numpy call each; only points near a unit or on terrain asked one by one) 13.72 ->
13.54 G (-1.3%). Tried and not kept: the commander's marker worth shared between the charge
targets that do not change it (13.55 G: no gain).

Issue 13's commander steps (speed3; every golden and performance hash unchanged; instructions
by `perf stat -e instructions:u` of ten 300-point games, seeds 1-10, and three 600-point games,
seeds 1-3, each less a process with the imports and the warm-up game only, bytecode compiled):
each Rush and Advance is bounded at its own end, all of a decision's moves in one numpy pass
(the markers' gains there as the score has them, the markers it could add within its reach of
the end, the rest bounded as before), so moves scored exactly fell from 3,514 to 871 of the
8,842 listed in three 300-point games: 12.89 -> 12.41 G (600 pts 14.65 -> 14.46 G); the unit's
bound for any end (always above the end's own) no longer worked out, and what the bounds share
read once per unit and kind of move: -> 11.98 G (13.80 G); GFF attack profiles read once per
unit and weapon line (the estimates' memo misses whenever a unit loses models and read every
line again): -> 11.88 G (13.64 G). Together 12.89 -> 11.88 G (-7.8%) and 14.65 -> 13.64 G
(-6.9%); `farm-bench --vs` (five pairs, the same interpreter, whole processes with imports and
the warm-up game, load 7, at 11.98 G): CPU 0.93 of before. Tried and not kept: the same end
bound as a Python loop per move (14.13 G: it cost as much as the scores it saved, about 40,000
instructions a move either way); the charge targets measured in one numpy call per unit (12.33
G: `geometry.gap`'s memo, which they filled, then missed for the shots and the commander).

Where the time goes now, in instructions (the same games played again from their recorded
choices by a commander that only looks them up, so legal actions and apply alone): 300 pts 1.19
G a game, 88 decisions, 13.5 M instructions a decision: the commander 35% (4.8 M a decision;
40% and 5.9 M before these steps), legal actions and apply 65% (8.8 M); 600 pts 4.53 G a game,
170 decisions, 26.7 M a decision: the commander 37% (9.9 M), the rest 63% (16.8 M). CPU by part
at 300 points (process time around each part, no profiler, load 5): commander 39%, movement 24%
(7 ms a move; after the second step), sight 4%, cover 3%, separating and piling in 4%. Legal
actions and apply under cProfile (the replayed games): movement 35% (A* round other units 15%,
placing the models and their own paths 12%), charges 14%, shots 6%, strike back 5%; legal
actions 23% (listing each unit's moves and charges 10%, shooting targets 8%, deployment spots
6%). The moves' bounds are close (44% within 5 points of the exact score): a tighter bound
would save little. Why 600 points cost 3.8 x 300 (as before these steps): twice the decisions
(170 against 88 a game), and each decision twice the work: a unit lists an Advance and a Rush
to every marker and every enemy unit, so a side's moves per decision grow with its units times
the enemy's (70 a decision at 300 points, 178 at 600), every charge in reach is scored (6.5 a
decision against 3.4), and every path searches among twice the blockers (14 ms a move). What
the next factor needs: sight lines among blockers measured again after every move (A* could
keep what it measured, keyed on which unit moved), the exact-odds estimates computed again
whenever a unit loses a model, and a listing that grows with units times enemies.

Issue 13's listing and estimate steps (speed4; every golden and performance hash unchanged;
instructions by `perf stat -e instructions:u` of ten 300-point games, seeds 1-10, and three
600-point games, seeds 1-3, each less a process with the imports and the warm-up game only,
bytecode compiled; load 3 to 7): a frozen 12-field Action costs about 19,000 instructions to
build (`object.__setattr__` for each field; a plain slots class costs 3,900), and every
decision listed every unit's Advance and Rush to every marker and enemy again (4,650 Actions
a 300-point game); `actions.listed` makes each listed Advance, Rush, Charge, Hold, deployment
spot and objective spot once and hands the same object out again (actions are values; 740
Actions built a game now): 11.75 -> 11.11 G (-5.4%; 600 pts 13.42 -> 12.53 G, -6.6%). Before
it, `UnitState.on_table` without the `alive` property and the estimates' identity memo
looked up before building its arguments: 11.84 -> 11.75 G (13.60 -> 13.42 G); the GFF attack
odds memoised by the attack profiles, the defender's profile and the situation (a third of the
600-point misses are the same odds for other units) in place of an lru_cache on the units
that never hit (0 hits in ten games) and held finished games' units: 11.89 -> 11.84 G (600
pts within noise). Together 11.89 -> 11.11 G (-6.6%) and 13.58-13.64 -> 12.53 G (-8%); 600
points cost 3.76 times 300 (3.81 before). Measured and not kept: sight lines kept across
blockers keyed on the unit that moved (the last profile's first step): of 94,316 lines A*
measured in three 600-point games, 14% had been measured before between the same two points
and only 2.4% under blockers whose answer carries over (clear before, so only the moved
unit's new hull to test; or blocked with no unit gone): too few for the bookkeeping.
Bounding-box pre-tests in the crossings: 20% of segment-and-blocker pairs overlap, but
numpy's cost here is per call, not per element (the double add and subtract loops are under
1% of the instructions, `perf record`): not tried. The die chain keyed without the weapon's
dice count (-0.2%), `.any()` and `.sum()` as direct ufunc reductions in the sight-line tests
(-0.15%): not kept. The cyclic GC off: -0.5%, so not where the time goes. CPU by
`farm-bench --vs` could not see these steps at load 5-7 (five pairs: 1.00 +- 0.1). The same
games replayed from their recorded choices (legal actions and apply alone): 300 pts the rest
7.72 -> 7.04 G, the commander 4.12 -> 4.08 G (37% of 11.12 G; 4.6 M instructions a decision,
the rest 8.0 M); 600 pts the commander 4.97 G (40%; 9.7 M a decision), the rest 7.55 G (14.8 M).
Where the time goes after these steps (py-spy samples of ten 300-point games, parts nest):
apply 46% (movement 25%, of which the A* among other units 13%; charges 6%, the fight 6%),
the rules commander 42% (its charge test 7%, charge bounds 7.5%, move bounds 6.6%), legal
actions 12% (shooting targets 5%, deployment spots 5%). What the next factor needs: the A*
costs about 20 numpy calls a node popped and a sight-line test per node (per call, not per
element), so fewer searches (one search for all of a charge's contact spots from a model, a
move's path reused while no blocker changed) or a compiled search; the commander reads every
unit, marker and enemy again each decision (an incremental view keyed on which units changed).

Issue 13's Riverside and WWPD steps (lead, sixth session; every golden and performance hash
unchanged; instructions of three games, seeds 1-3, rules commanders, open table, less a
process with the imports and the warm-up game only): Riverside's deployment grid checked for
all points at once as GFF's is (the table, the zone, the other units' bounding circles and the
ground in one numpy call each; a point near a unit asked one by one; tests/game/
test_riverside_deploy_points.py: the same points as the one-point check in every deployment
phase, open and on terrain): shooty-300 against melee-300 6.25 -> 5.51 G (-11.8%). WWPD's
rules commander weighs a shot by each target model's chance of removal alone
(`rules.wwpd.exact.removal_chances`: the exact odds without the hits and removed distributions
it never read, the same Fractions), and WWPD's deployment grid is checked for all points at
once (the formation's own cohesion and overlaps once, with a margin): two colonial forces 8.31
-> 6.46 -> 4.75 G (-43%). What Riverside spends now: listing charges (a charge is legal only if
a path reaches contact; 150 of 310 listings in three games need the path search, and 129 of
those may charge, round friends in the straight line) about 30% of a game; WWPD's commander
still weighs shots in Fractions (about 30%; floats would change its games).

Issue 13's Riverside listing steps (river8; every golden hash unchanged and the same digest of
the games at each step; instructions by `PYTHONPATH=. .venv/bin/python -m bench.instructions
riverside --seeds 1-2` under callgrind, at load 4-9 on 2 cores): 2.363 G at the start
(03d624e). The rules commander asks Riverside's move allowance 3,224 times in two games and
each answer looked up two rules (a case-fold, a scope and a count each), and a game asks
`unit_rule` about 10,000 times: the allowance is kept by the unit's and the action's identity
(as GFF's is) and `unit_rule` by the unit's identity and the name as asked, both game memos:
-> 2.290 G (-3.1%). A deployment grid point near a unit was asked of `deploy_problem` one at a
time (243 in two games): its gap tests now run for all such points at once with the same
arithmetic (`geometry.gaps_at_points`, the same bits as `gap`); the marker grid's terrain
answer is kept by table and point (2,400 asked in two games); the charge's mover no longer
tests the unit's cohesion (only a plain move reads it): -> 2.221 G (-3.0%).
`riverside_diameter_limit` laid out the tightest blob afresh for every cohesion test (63 in two
games, a handful of sizes): kept by count and base, and the marker answers in a plain dict per
table (`by_table`'s call cost more than the answer): -> 2.154 G (-3.0%). The charge listing's
units within the margin, found once per charger, and only for a charger with a target in reach
(found for every listing, with the mover's cohesion test left out, it measured 2.290 ->
2.294 G): -> 2.115 G (-1.8%). Together
2.363 -> 2.115 G (-10.5%); GFF 300 pts (seeds 1-2) 2.160 -> 2.155 G and WWPD (seeds 1-2) 2.128
-> 2.122 G, each with the same digest. Tests: tests/game/test_riverside_charge.py, tests/units/
test_rule_scope.py and tests/table/test_formation.py (kept answers are the ones worked out);
tests/game/test_riverside_deploy_points.py (points just inside, at and outside the 1" edge get
the one-point check's answer; fails when the 1e-6 is dropped) and
tests/game/test_objective_candidates.py (the terrain answer per table on generated tables).
Tried and not kept: keeping a charge answer for the same charger and target while every unit
that moved stays off every way the search could take (outside the ellipses `|x a| + |x s| <=
12"` from each model in reach to each contact spot, its obstacle bounded by a circle), taken
only when the search looked nowhere else (`listing_is_local`: every start and spot in reach
clear of obstacles, so no step out of one looks up to 12" round it): exact (a test moving one
unit at a time matched the fresh search in every listing: 40 random moves, 1,779 targets
listed, 714 answers kept; 20 moves, half into the way between two units, 702 and 216; and
failed when the obstacle's circle was dropped), but in seeds 1-2 it spared 2 of 83 path
searches (in four games 82 of 153 searched answers were not local, a start or spot inside a
friend's hull, and most kept answers were straight-line ones) and its own checks cost more:
2.221 -> 2.352 G. What the listing spends
now is mostly the path search of a charger behind friends (a start or spot in another unit's
hull, the greedy search round it), and the straight check's set-up.

Issue 13's charge-search steps (speed5; every golden and performance hash unchanged;
instructions by `perf stat -e instructions:u -r 3`, games less a process with the imports and
the warm-up game only, bytecode compiled; rules commanders, open table): whether a charge is
legal needs only one contact spot reached, but `can_charge` searched the six nearest spots for
the shortest path (64 of 203 searches in three Riverside games tried all six). It now stops at
the first spot reached where every path within the allowance passes the difficult-terrain cap
(flying, strider, within 6", or no difficult piece), and the charge move resumes that search
where it stopped, so no path is searched twice: Riverside 300 pts (seeds 1-3) 5.25 -> 4.50 G.
A contact path's A* leaves out what could only lead past the allowance (`find_path(within=)`:
a path within it is the unbounded search's, node for node): -> 4.44 G (GFF 600 pts 12.52 ->
12.32 G with the step before). A charge nobody could make was searched three times (full,
capped at 6", round the hazards); on a table with no difficult, dangerous or elevated piece the
other two add nothing: -> 4.34 G. For Riverside's listing only (most targets listed are not
charged), a greedy search through the other units' corners (`paths.reaches_within`: on a
table with no obstacle corners A* searches exactly those, so a way it finds bounds the path)
vouches for a spot without its shortest path: -> 4.28 G. Together Riverside 5.25 -> 4.28 G
(-18.5%), GFF 300 pts (seeds 1-10) 11.13 -> 10.88 G (-2.3%), 600 pts (seeds 1-3) 12.52 ->
12.18 G (-2.7%; 3.73 times a 300-point game); WWPD unchanged. Tests: tests/table/
test_charge_first_reach.py (the same answers as every spot and way searched in full, on open
and generated tables; a resumed search gives the cold one's spot and path) and
tests/table/test_movement_search.py (a bounded search's path is the unbounded one's; the
greedy search vouches only for paths that short); each fails when its shortcut is loosened.
Tried and not kept: a way through one blocker corner as the bound (23 of 67 spots: it cost
more than it saved). Riverside's charge listing is now about 17% of a game (cProfile; 30%
before), most of it the one A* a reachable target still needs when the greedy search cannot
vouch (a start or spot inside another unit's hull) and the straight-line check's set-up.

The search commander's copy of the game (clone, sixth session; every golden and performance
hash unchanged, two searched games newly pinned): `GameState.clone` was a deep copy of every
object the state reached (Riverside's per-game sight memo with its arrays, the procedure, the
log's events, the generator through pickle); it now copies each unit's state shallowly with
what a game changes copied, shares what never changes, and lets the log share its events
(`STATE_FIELDS`/`UNIT_FIELDS` say how each field is treated; tests/game/test_clone.py fails
when a field is added and not named). `PYTHONPATH=. .venv/bin/python -m bench.clone_cost
--games` (CPU, load 4.7-5.6): one copy of a 300-point state GFF 1,445 -> 156 us (log off),
2,617 -> 159 us (on); Riverside 6,393 -> 165 us, 7,766 -> 295 us; a searched game (seed 0 of
series 14) GFF 4.11 -> 3.83 s, Riverside 7.43 -> 5.61 s. Instructions of a searched game less
the imports (seeds 0 and 1): GFF 8.7 / 9.9 -> 7.2 / 7.8 G (-19%), Riverside 16.7 / 14.7 ->
10.3 / 8.8 G (-39%). Rules-commander games do not copy the state, so they are unchanged.

Why 600 points cost 3.7 times 300 (counts in seeds 1-3 after the warm-up game, rules
commanders): twice the decisions (251 -> 510 a game), and per decision more of everything that
pairs units: 2.3 times the listed actions (56 -> 129: each unit lists an Advance and a Rush to
every marker and enemy, so units times enemies), 1.7 times the actions scored exactly (4.2 ->
7.3) and 2.9 times the unit-to-unit gaps measured (13.5 -> 39). The path search grows faster
still, with models times models: 1.7 times the moves (89 -> 155) need 3.4 times the A* searches
(96 -> 326: 1.1 -> 2.1 a move, more units stand in the way), and each search has 1.9 times the
nodes (89 -> 165 blocker corners among 10 -> 19 blockers) and measures 1.9 times the sight-line
fans (5.8 -> 10.8), each against 1.9 times the edges: about 12 times the A* work for twice the
army (cProfile: A* 9.7x, the commander 5.7x, legal actions 6.4x). Getting to 2.5x needs the
listing and scoring per unit and target kept between decisions (only pairs with a unit that
moved change) and an A* whose sight tests only the blockers near each line.

Issue 13's walled-in goals (paths6; every golden and performance hash unchanged; instructions
as above): a move toward an enemy aims at its centre and the path search escapes to the first
free ring point round it, just outside the enemy's blocker. In ten 300-point games that point
is always reached, but in 122 of 176 such moves it lies on the blocker's far side or flank and
the path goes round it (91% of those searches' pops: the straight-line estimate ignores the
blocker in between). At 600 points 4 of 122 lie in a pocket the enemy's neighbours and the
table edge close, and A* popped every node the start reaches before it ended at the one nearest
the goal: a quarter of the path search's sight-line work in three games. A* now asks, when its
first search finds no way or after 48 pops without one, whether the goal is walled in (found
from the goal outward, checked by the search's own line test) and then searches only toward
the nearest nodes outside the pocket (tests/table/test_walled_goal.py): GFF 600 pts (seeds
1-3) 12.15 -> 11.91 G (-2.0%); 300 pts and Riverside unchanged (no pocket in them). Tried and
not kept: the way round the goal's blocker as A*'s estimate (exact, consistent; its pops in
those moves -25%), but the lines the centre's search then leaves unmeasured are measured by
the models' searches that follow among the same blockers: GFF 300 pts -0.25%, 600 pts +0.4%;
the least way through a node that sees the goal as the estimate: no fewer pops. What the
path search still spends (the recorded find_path calls of those games replayed, 2.07 G of
10.88 G at 300 points, 2.7 G of 11.9 G at 600): about 160,000 instructions per sight-line
test call and 8,500 per line, one call per node popped; a move's searches share what they
measure, so fewer pops in one search mostly move the work to the next. The next step: an early
bound on the goal's cost (with the final cost known up front the same searches measure 76%
fewer lines, same pops), or one batched sight test for the few nodes A* will pop next.

Remembered answers (lead, eighth session; every game the same, instructions as above). The
WWPD rules commander weighs a shot by each target model's chance of removal: those exact odds
were worked in Fractions, a third of a WWPD game, for numbers turned into floats at once. Now
rules/wwpd/fast.py sums them in floats (allocations memoised by what they depend on) and the
commander works every action's value with them, then again with the exact odds only for the
actions within 1e-7 of the best (an exact tie, two like targets at 5/6, came out a last digit
apart in floats and changed one game of 60): 3 WWPD games (seeds 1-3) 4.75 -> 3.60 G (-24%).
Riverside's look (sight lines, distances and Cover from one unit to every enemy) was asked 307
times in three games for 42 different positions (the listing of shots, the commander's cover
of each, the attack): remembered by table and every position (Fortifications asked afresh),
3 Riverside games 4.27 -> 3.71 G (-13%). GFF's sight of one unit pair likewise (735 asked, 214
different in five games): 10 GFF 300-point games 10.91 -> 10.74 G (-1.5%).

The eighth session's whole change, in instructions against its start (ad523ef; the same scripts,
load about 1): GFF 300 pts (seeds 1-10) 10.91 -> 10.73 G (-1.6%), 600 pts (seeds 1-3) 12.20 ->
11.83 G (-3.0%; 600 points now 3.67 times 300 in instructions), Riverside 300 pts 4.27 -> 3.71 G
(-13%), WWPD 4.75 -> 3.60 G (-24%). This machine's CPU times move by a third from one hour to
the next at the same load with the same instructions (the 300-point GFF game's median was
517 ms at load 4 and 662 ms at load 1.4 for fewer instructions), so the times below are one
run's, and the instruction counts are what compares steps.

The path search's sight-line tests (paths7; every golden hash unchanged, the same digest of the
games before and after). Measured first on the recorded `find_path` calls of GFF 300-point
games (seeds 0-4, 292 calls) replayed under callgrind, answers compared with the recording:
1,003 M instructions, of which the sight-line tests A* makes (one `NavGraph.clear` a node
popped: 1,152 calls, 17,700 lines) are 434 M, and their sample points' test 104 M; a line costs
about 6,500 instructions and each numpy call about 8,000, so a test of one line or of twenty
costs much the same. Kept: `crossings_from` works out the side of each edge's start and of its
direction from every line in one product (the same products and differences, so the same bits:
tests/table/test_table_speedups.py checks the fan against each line tested on its own, on open
and generated tables), `clear` drops the array of ones it and-ed into and the `any` before its
`nonzero`, and A* keeps per node the cost a step must come under to improve it (-inf once done
or outside the first search's ellipse), so the nodes a step improves are one comparison, not
six calls. The replay 1,003 -> 955 M (-4.8%; 600 pts, seeds 0-2, 2,476 -> 2,390 M, -3.4%).
Whole games (`PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 --seeds 1-4`, and
`gff600 --seeds 1-2`; callgrind, load 6-9): GFF 300 pts 4.513 -> 4.473 G (-0.9%), 600 pts 7.969
-> 7.909 G (-0.75%). Tried and not kept (the replay with the blockers' box arrays as recorded,
994 M before; the same answers): the sight lines of the next two nodes on the heap asked in the
popped node's call (clear calls 1,312 -> 889 but lines 17.9 -> 21.4 thousand and the
look-ahead's own numpy calls: 994 -> 1,031 M, +3.7%); only the goal lines of the heap's first
nodes and the popped node's candidates, up to eight, in its call (1,025 calls: 1,121 M, +13%; a
batch of lines from several points is tested row by row, dearer than a fan); every unknown line
of a popped node measured at once, so later searches among the same units need no call (the
same 1,312 calls, three times the lines: 1,233 M, +24%); the blockers' box test as one
comparison of (x, y, -x, -y) against the boxes' sides (962 -> 996 M: the three-dimensional
compare and its reduction cost more than the seven two-dimensional calls). Not built: an early
bound on the goal's cost; at 6,500 instructions a line, the 76% of lines it would leave
unmeasured are about 85 M of the replay's 1,003 M before the bound's own cost, and it saves no
call (every pop still tests its goal line). The digest bench.instructions printed had changed
from process to process (the state's repr named objects by address); it hashes the log's events
now. What the path search needs next is fewer numpy calls a node popped (about 35 in the
sight-line test and 15 in A*'s step), not fewer lines.

The rules commander between decisions (cmdr7; every golden unchanged; instructions by
`PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 --seeds 1-4`, callgrind, load 7 to
13; the commander's share is the game less the same games replayed from their recorded
choices, legal actions and apply alone). First measured, what the commander works out again
from one decision to the next with the same inputs: in four 300-point games, each decision's
remembered answers against the same commander's decision before gave the same value for 478
of 3,963 position values, 501 of 2,996 projected markers, 353 of 1,547 marker worths and 75
of 820 charges, and only 26 of 225 activation decisions saw the enemy units exactly as at the
side's decision before (one the whole table): the other side's unit moved in between, and
every score reads every enemy (the gaps, the fighters in reach, the contesters of each
marker). What does repeat is already kept by the units' contents (the attack estimates:
1,627 of 2,162 shots, 1,494 of 2,501 melee values; GFF's sights), per-unit facts read in one
numpy call a decision (near each marker 2,303 of 2,605, reach 616 of 712: a key over every
placement's bytes costs as much), and the charge test, which depends on every placement (2 of
51 asked again by the same placements). So no view keyed on which units changed was built;
what was kept instead: a charge is first bounded cheaply (bounds._charge_ceiling: its dealt
and struck-back points, the projected markers, the markers' worth as if the target still
contested, the costs that are 0 or less left out; at least its bound in every decision of
tests/players/test_rules_charge_ceiling.py) and ranked with the moves, so that 199 charges
are bounded in two 600-point games instead of 1,935 (cProfile counts): 4.517 -> 4.427 G
(-2.0%); then the units near each marker counted once a decision (each unit asked had
counted every other unit), weapon_lines.lines remembered by the unit's identity (an
lru_cache hashed the frozen Unit at every estimate missed), the bounds worked out once a
decision when a tested charge falls short, the estimates' defender profiles and situations
made once, and the GFF deployment habit's key of a place kept across the deployment
decisions by the table's size, the edge, the markers and whether the unit shoots (the one
answer found to repeat with the same inputs: every deployment decision lists the same places
for every unit still to deploy): -> 4.342 G. Together GFF 300 pts (seeds 1-4) 4.517 -> 4.342
G (-3.9%); the commander 1.661 -> 1.482 G (-10.8%; 3.80 -> 3.39 M instructions over 437
decisions, 37% -> 34% of the game), legal actions and apply 2.856 -> 2.860 G. GFF 600 pts
(seed 1; `gff600 --seeds 1-1`, the two-game runs given up at load 13): 3.516 -> 3.330 G
(-5.3%). Short of issue 13's step (commander -25%, game -8%).
Not built: the sight-and-cover check by every position (31 of the commander's 251 asked again
and 43 of the game's 52, under 1% of a game). What the commander still spends (sampled, 300
points): the winning charge's test about 10% (it arrives nine times in ten, and the charge
move resumes its search), the attack estimates' misses as units lose models about 10%, the
target's cover in a Hold's score 6%, the rest spread over the moves' exact scores and bounds.

The ninth session's whole change (three helpers and the lead, 27 Nov 2026; every game the
same: the goldens, and the same digests of the games below), in instructions by
`PYTHONPATH=. .venv/bin/python -m bench.instructions` under callgrind (this machine's perf had
no hardware counters), its start (1755ee5) against its end: GFF 300 pts (seeds 1-4) 4.462 ->
4.310 G (-3.4%), 600 pts (seeds 1-2) 7.910 -> 7.503 G (-5.1%; 600 points now 3.48 times 300 a
game, 3.55 before, on these seeds), Riverside 300 pts (seeds 1-3) 3.736 -> 3.701 G (-0.9%),
WWPD (seeds 1-3) 3.613 -> 3.594 G (-0.5%). The two steps are paths7's and cmdr7's above; the
rest of the session went to the commanders (issue 14), a thread-safety fix in the table
layer's memos (`oprlab.memo.make_room`: two thread workers of a local Dask cluster making room
in the same memo at once raised KeyError) and mypy on the tests. What the data says the next
factor needs: the commander reads every enemy for every score, so between two decisions (the
other side's unit moved in between) almost no answer has the same inputs (cmdr7: 478 of
3,963 position values, 26 of 225 decisions seeing the enemy as before), and the path search
spends its instructions on numpy calls, about 35 a sight-line test and 15 an A* step, not on
lines (paths7): a commander that scores far fewer actions (a different procedure, so other
games) and a path search with far fewer array calls per node, or compiled, are what is left.

Issue 13's apply steps (gff8, tenth session; every golden unchanged and the same digests of the
games before and after; instructions by `PYTHONPATH=. .venv/bin/python -m bench.instructions
gff300 --seeds 1-4` and `gff600 --seeds 1-2` under callgrind, load 4 to 10). A unit whose kept
formation is blocked re-forms (`movement._lazy`'s rows and blob, a charger's models round its
target), each model on the nearest free spot of rings round where it was wished, and every
candidate of a ring chunk (97 within 1", then 1,570 within 8", 2,100 within 16") was measured
against every model on the table: 843,148 model pairs in the 40 re-forms of four 300-point
games. `formation.settle` now asks each test only of the candidates the tests before it left
(the table and the move's reach first), and leaves out of a chunk's gap test the models that
stand clear of the whole chunk by more than the gap they need (plus 1e-6): 75,209 pairs, every
model on the same spot (tests/table/test_settle_shortcut.py: the plain settle's spots, bit for
bit, on open and generated tables, with a reach, fixed and kept models and an allowed test;
counting a chunk as reaching no farther than its centre fails it): 4.325 -> 4.151 G (-4.0%; with
the move memo below keyed on the table's identity, which never hit). GFF's deployment grid on an
open table left each point near another unit to the one-point check, one `geo.gap` for each unit
near it (711 points in four games, 297 of them in Ambush); `geometry.gaps_at_points` measures
those gaps for all the points at once with `geo.gap`'s own sums (in Ambush a point whose bound
to an enemy lies within 1e-6 of 9" is still asked alone; tests/game/test_gff_deploy_points.py:
the same points in every deployment phase, Scouts and Ambush too, none left to the one-point
check, and a gap half an inch generous fails it): -> 4.128 G without Ambush's points, -> 4.035 G
with them and the next step. A unit's move is remembered by the table's value, the move's rules,
goal and allowance and every position (`geometry.move_unit_toward`; copies handed out, since the
game removes casualties in place): a batch of games between the same armies opens with the same
moves, 10 of the 156 moves of these four games (6 of 154 at 600 points) had been made in an
earlier game. Together GFF 300 pts (seeds 1-4) 4.325 -> 4.035 G (-6.7%), 600 pts (seeds 1-2)
7.491 -> 7.266 G (-3.0%). Tried and not kept: that memo keyed on the table's identity like the
other game memos (each game makes its own table, equal to the last: it never hit). Measured and
left: the listing's sort by `Action.sort_key` (0.4% of a game's CPU). Left to the lead
(below): the strike-back choice's odds, worked without the rules commander's odds memo.
What apply's movement still spends is the centre's path: one A* among freshly built blockers
a move (the sight lines measured again after every move), its goal inside the enemy unit
escaped first; the models' own searches come after it and reuse its lines.

Issue 13's commander bounds (spd9, eleventh session; every golden unchanged and the same digests
of the games before and after; instructions by `PYTHONPATH=. .venv/bin/python -m
bench.instructions gff300 --seeds 1-4`, `gff600 riverside --seeds 1-2` under callgrind, load 3
to 4; start b0b69ee). A Rush or Advance is scored exactly only when its bound reaches the best
key so far, and the bound counted a melee unit's bonus near enemies as 15 and a wary unit's
danger from enemy fighters as 0: of 1,585 moves scored exactly in four 300-point games, all but
225 were scored for that slack alone (15,866 moves listed; 166 score at least the decision's
best). `bounds._standing_bounds` works both out for every move's end in the same numpy pass as
the markers' gains (the gaps as `view.Units.gaps` sums them; a fighter's danger counts only
where the end lies inside its reach by more than 1e-6, the ends being a vectorised `step_toward`
a few units in the last place off the score's): moves scored exactly 1,585 -> 235, 4.047 ->
3.932 G (-2.8%). `_prefetch` looked at every listed action to measure Holds' and charges'
points; it now skips the moves first and measures a charge's short end too (its ceiling and
score had measured it alone): -> 3.903 G. Charges are ranked first by a ceiling without the
strike back (0 or more, subtracted), and only the 111 of 820 still in the running estimate it
(an estimate the memo misses as units lose models): -> 3.889 G. Together GFF 300 pts 4.047 ->
3.889 G (-3.9%), 600 pts 7.253 -> 7.070 G (-2.5%), Riverside 2.062 -> 2.026 G (-1.7%). Tests:
tests/players/test_rules_standing_bounds.py (each move's standing term is the score's own to
1e-9, above it only at a fighter's reach; every bound at least the exact score and the choice
the first best, GFF and Riverside, open and generated tables, rules, rules-v1, rules-cautious
and no danger; under 4% of moves' bounds reach the best: 1.4% in its games, 10.5% with the old
15 and 0, which fail it) and tests/players/test_rules_charge_ceiling.py (the ceiling without the
strike back at least the full one). Tried and not kept: a third, still cheaper charge ceiling
(the points dealt counted as the target's whole worth plus 0.3 of its cost, its odds left out;
421 of 820 charges then estimated what they deal): charges ranked after the moves, 3.910 G (the
moves, scored before any charge raised the best, were scored exactly 305 times); lowered in
place in a heap, 3.885 G and 600 pts 7.056 G, not worth the code. Measured and left: an
Advance's shot counted exactly at its end in the bound (the moves it would spare: 94 -> 79 of
8,169 Advances). What the commander spends now is the bounds themselves, a few per unit and
decision (`_move_row`, about 9% of a game under cProfile: the shot bound over every enemy and
band, the markers' swing and worth), the charge ceilings (5%), and attack estimates the memo
misses as units lose models (644 in four games: 268 for shot bounds, 216 for charge ceilings,
128 for danger); A* for the centre's path round an enemy (195 searches, 1,071 sight-line tests
of about 15 lines each) is movement's share.

Issue 13's odds and cover steps (spd10, eleventh session; every golden unchanged and the same
digests of the games before and after; instructions by `PYTHONPATH=. .venv/bin/python -m
bench.instructions gff300 --seeds 1-4`, `gff600 riverside --seeds 1-2` under callgrind, load 4
to 8; start 3ee97b9: 3.889 G, 7.070 G and 2.026 G). GFF's fast odds composed one die's chain
afresh for every dice count: the cache's key held the whole weapon profile, and a unit that
loses a model attacks with fewer dice of the same chain (a d6 die never reads the count; only
the clock's token pool does, and the fast path refuses the clock). Keyed without it, the chains
composed in two 600-point games and their warm-up fall from 688 to 564 (the rest are other
weapons, situations and targets: with the owners left out too, 561). The rules commander's check
of a shot's cover traced the game's sight lines (608 checks, about 3% of a 600-point game under
cProfile); on a table without terrain GFF's cover is a house rule's fortifying alone (cover is
terrain's, models never block), so it is asked only that (this pays on open tables such as
these, not on tables with terrain): together 300 pts about 3.79 G, 600 pts 6.937 G. A miss of
the fast odds' weapon cache built three frozen dataclasses (the canonical situation, target and
one-die profile; `dataclasses.replace` was a third of a miss): they are cached by what they read
(the weapon's Blast; the profile), 26 -> 14 us a miss at best: -> 3.773 G, 6.816 G. The weapon
lines of an attack were filtered from the unit's weapons on every estimate (12,757 in two
600-point games): they are memoised by the unit's identity and the band of its reaches the
distance lies in (the same lines for every distance in a band): -> 3.765 G, 6.805 G, Riverside
(whose estimates pick lines the same way) 2.029 -> 1.998 G. Together GFF 300 pts 3.889 -> 3.765
G (-3.2%), 600 pts 7.070 -> 6.805 G (-3.7%), Riverside 2.026 -> 1.998 G (-1.4%; the start
measured again in a worktree of it, 2.021 G: the path the process runs from moves callgrind's
count by a few tenths of a percent). Tests: tests/rules/gff/test_fast.py (one die shared across
dice counts, the odds equal those computed cold; the canonical key cached by Blast),
tests/players/test_rules_cover.py (the game's own answer on an open table and behind a wood, a
fortified unit on an open table, no sight lines traced without terrain),
tests/players/test_memo.py (the memoised lines are the filter's at every distance, a reach
itself included). Measured and not kept: the odds memo keyed without the weapons' names (1,335
distinct queries in two 600-point games, 1,313 without names). Left: the odds the memo misses
are 1,335 in two 600-point games (2,051 misses of the estimates' identity memo), about 100 us
each with the chains cached; an estimate of n models from one model's odds is not exact once
Tough, Deadly or the wound effect's roll come in. `gff_melee.reach` measured 0.9% of a 600-point
game under cProfile and the strike back's choice and exchange under 2%: not worth a memo. What
the 600-point game spends outside the commander and movement is the legal actions' shooting
targets (`gff_shooting.type_reach`, about 5% under cProfile) and `can_charge`'s contact search
(about 4.5%), not this branch's files.

Issue 13's shooting-sight and charge-check steps (spd11, twelfth session; every golden unchanged
and the same digests of the games before and after; instructions by `PYTHONPATH=.
.venv/bin/python -m bench.instructions gff300 --seeds 1-4`, `gff600 riverside --seeds 1-2` under
callgrind, load 3 to 6, each checkout in a worktree of the same path length; start 538b53c:
3.765 G, 6.799 G and 2.001 G, in a worktree of a longer path 3.760 G, 6.809 G and 2.007 G).
GFF's sight memo (`gff_shooting.sight`) was keyed on every unit's position, two placement keys
for the pair and one for every other unit on the table, but GFF's sight never reads the other
units (seed 003: models never block; `table.sight.gff_visible_all` drops them): it is keyed on
the shooter's and the target's positions alone (a unit moved into the line keeps the answer, the
shooter moved does not). Its misses traced the sight lines (415 traces in two 600-point games
with the game's own cover check of the 53 shots); on a table without a sight-blocking piece
every alive model sees every target with a model left, and `seeing` answers that without a trace
(this pays on open tables such as these; with such a piece the lines are traced as before): 106
traces are left, that cover check's. A weapon type's reach was each weapon's `firing` mask, a
numpy pass per weapon and target; `Sight.nearest` keeps the least distance of a seeing model and
of any alive model, and a weapon reaches exactly when that is within its range (`min(d) <= r` is
`any(d <= r)`): 300 pts -> 3.666 G, 600 pts -> 6.533 G, Riverside 1.998 G (the listing's
shooting targets 6.2% -> 2.1% of a 600-point game under cProfile). The contact search's straight
check (`charge._reach_contact_search`: the nearest spot in plain sight is the answer) tested
every spot within the allowance, free and clear, a line from a repeated start to each: it now
asks whether the start is free first, traces the lines as a fan from it (`NavGraph.clear`'s fan,
the same bits) and only to the free spots: -> 3.660 G, 6.519 G, Riverside (whose charges search
the same way) 1.998 -> 1.992 G. Together GFF 300 pts 3.765 -> 3.660 G (-2.8%), 600 pts 6.799 ->
6.519 G (-4.1%; 3.56 times a 300-point game by instructions, from 3.61), Riverside 2.001 ->
1.992 G (-0.4%). Tests: tests/game/test_gff_sight_shortcuts.py (on open and generated tables,
every shooter and enemy of the activation states of random games: `seeing`, the memoised sight
and every weapon type's reach equal the full trace and each weapon's firing models; a sight kept
while other units move into the line; no line traced without a sight blocker; made-up sights at,
just inside and just outside a range, Indirect, removed and unseeing models; fails when the
shortcut is taken with terrain or the 1e-6 of "within" is dropped),
tests/game/test_sight_memos.py and tests/table/test_charge_straight_check.py (the spot, path and
progress the line-by-line check takes, open and generated tables with friends in the line,
starts inside a friend's hull, the first free spot hidden; fails when the free spots are taken
without their lines). Tried and not kept: `gff.charge_targets`' gaps to every enemy in one numpy
pass (the same bits as `geometry.gap`): the per-pair memo's hits cost less (0.23 -> 0.37 s of
two 600-point games under cProfile); the commander's charge test with the listing's greedy vouch
(`can_charge(listing=True)`): in GFF the greedy search cost more than the A* it spared (59
greedy searches 0.17 s against 40 A* 0.05 s under cProfile); the free contact spots worked out
once per base size in `can_charge` (4 of 117 searches in two 600-point games try a second
model). Measured and left: the commander's charge tests are mostly charges then made (65 asks
and 48 charges in two 600-point games after the warm-up; the charge's own test finds the search
remembered), so `can_charge`'s cost (about 5% of a 600-point game under cProfile) is the search
itself: the obstacles built for the mover (about a quarter: the hulls of units that moved, one
set per target), A* (a fifth) and the free and clear tests, in table/blockers.py, paths.py and
navgraph.py; A* (`paths.find_path`) is about 15% of a 600-point game, most of it the moves'
paths. The odds the memo misses (724 of 1,148 `attack_odds` asks in two 600-point games after
the warm-up, 177 of them composing a die's chain, about 1.4 ms each under cProfile) are
rules/gff/fast.py's; the game's cover check traces its lines on an open table too (106 traces,
`gff_fire`).

Issue 13's cover and die-chain steps (spd12, twelfth session; every golden unchanged and the
same digests of the games before and after; instructions by `PYTHONPATH=. .venv/bin/python -m
bench.instructions gff300 --seeds 1-4`, `gff600 riverside --seeds 1-2` under callgrind, load 2 to
6, each checkout in a worktree of the same path length; start 637bdad: 3.659 G, 6.539 G and 1.993
G). The game's own cover check (`gff_fire.target_in_cover`, which the shot and the rules
commander's score both ask) traced its sight lines on open tables too (76 checks and 152 traces in
two 600-point games and their warm-up); on a table without terrain GFF's cover is a house rule's
fortifying alone (cover is terrain's, models never block), so it asks only that there, as the
commander's own check already did: 600 pts -> 6.478 G. A die's chain (rules/gff/fast.py) was keyed
on the canonical weapon, situation and target, which still held what seed 003's clauses never read:
the weapon's name (it names a stateful mechanic's pool only), the target's Tough (the wound
track's), the owners (a clock's or pool's: the fast path refuses stateful mechanics) and, but for
an Indirect weapon, whether the attacker moved. Keyed without them (under seed 003's own hooks
only; a house rule's hooks keep the full key) the chains built in two 600-point games fall from 564
to 431 with the warm-up (177 -> 137 after it), and each check's float outcomes (a quarter of a
chain: the exact outcomes turned into floats) are remembered across chains: the chains' time in
those games and their warm-up 0.236 -> 0.090 s (a clock round each build, load 5). Together GFF 300
pts 3.659 -> 3.594 G (-1.8%), 600 pts 6.539 -> 6.457 G (-1.3%; 3.59 times a 300-point game by
instructions, from 3.57: the 300-point games gained more), Riverside 1.993 -> 1.993 G (its odds and
cover are its own). Tests: tests/game/test_gff_cover_shortcut.py (every shooter and enemy of the
activation states of random games, Indirect or not, on open and generated tables and with
Fortifications: the full check's answer; no sight line traced on an open table; a cover piece that
blocks no sight still covers; fails when the shortcut is taken on a table without sight blockers or
skips the house rule) and tests/rules/gff/test_fast_die_key.py (over 2,000 queries of weapons,
situations and targets, names, Tough, owners and moves varied: every cached chain bit for bit the
one built from the query itself, far fewer built; an Indirect weapon's move keeps its chains apart;
another set of hooks keeps the full key). Measured and not kept: leaving a weapon's range and melee
flag out of the key too (431 chains either way). Measured and left: the fast odds now cost about
2.7% of two 600-point games under cProfile (724 misses of `attack_odds_fast` after the warm-up,
0.15 of 5.5 s; the 137 chains 0.04 s), what is left of a chain being `attack_chain.float_die`'s own
loops (shared with Riverside's fast path); the estimates' identity memo (`players.memo`, 12,745
asks, 2,051 misses) costs about 6% with its misses. The rules commander's cover check
(players/rules/cover.py) keeps its own open-table shortcut, now the game's too.

Issue 13's rules-commander steps (spd13, thirteenth session; every golden unchanged and the
same digests of the games before and after; instructions by `PYTHONPATH=. .venv/bin/python -m
bench.instructions gff300 --seeds 1-4`, `gff600 riverside --seeds 1-2` under callgrind, load 4 to
9, each checkout in a worktree of the same path length; start a66ee08: 3.610 G, 6.461 G and 1.991
G). A unit's Rush and Advance rows of the move bounds (`Bounds._move_row`, 1,424 rows in four
games) each worked out the unit's centroid, swing gains, marker worth and reach: they now share
one unit row (`_unit_row`, 712); each marker's need with no unit charged is worked out once a side
(`Needs._side_needs`: it depends on the unit only through a friend already on the marker) rather
than once a unit and marker (4,019 `_need` calls): 3.610 -> 3.594 G (-0.4%). `_sides_near` now
counts again only the markers a unit taken out is near, and the markers' needs moved to
players/rules/needs.py (`Needs`, the base of `Scoring`: scoring.py was past 800 lines). In Python
3.11 `EnumType` defines `__getattr__`, so every attribute of an enum class is looked up through a
slow hook: `Kind.HOLD` costs about 0.5 us (timeit 492 ns, a global 30 ns), and the commander
compared kinds and roles hundreds of times a decision (`_first_best` looked up up to four kinds
for each of about 76 actions). The kinds and roles it compares are now plain module names
(`view.HOLD`, `RUSH`, `ADVANCE`, `CHARGE`, `IDLE`, `CAST`; `estimates.MELEE`, `SHOOTING`), and
its walk over the moves by falling bound stops at the first below the best (every later bound is
lower, and the best only rises): 3.594 -> 3.470 G (-3.5%). Then `Units` reads every unit's alive
models with one mask over all of them (a mask per unit cost a few numpy calls each, two groups a
decision) and `_gains` adds its markers without a generator. Together GFF 300 pts 3.610 ->
3.440 G (-4.7%), 600 pts 6.461 -> 6.031 G (-6.7%), Riverside 1.991 -> 1.915 G
(-3.8%). Tests: tests/players/test_rules_side_needs.py (every unit's worth of the markers at
every decision of two games, with and without `contest_need`: bit for bit the marker-by-marker
need; fails when a friend's halving is dropped), test_rules_sides_near.py (now with every other
unit taken out too, against a recount) and test_rules_units.py (both groups of every decision of a
game, and a unit with no model left: the arrays, starts and gaps read unit by unit). Not done:
keying a unit's move row on what it reads across decisions (it reads every enemy's position, and
between two decisions of a side an enemy has moved). Measured and left: with `EnumType.__getattr__`
deleted (every enum attribute looked up directly) the process of the warm-up and seeds 1-2 cost
0.4% fewer instructions (5.414 -> 5.392 G, these steps in), so the game's own `Kind` lookups are
not worth a change; the garbage collector took about 35 ms of CPU in five games (3%), 22 ms of it
one full collection over the memos' objects; the odds the memo misses (275 `attack_odds_fast`
calls in four games) and the charge test (`can_charge`) remain the largest single costs under the
commander's decisions, and neither is the commander's code.

Issue 13's crossing test (spd14, thirteenth session; nothing kept in the engine: each attempt below
played the same games, none paid; instructions by `PYTHONPATH=. .venv/bin/python -m
bench.instructions gff300 --seeds 1-4`, `gff600 riverside --seeds 1-2` under callgrind, load 2 to
8, each checkout in a worktree of the same path length; start a66ee08: 3.613 G, 6.458 G and 1.990
G). cProfile puts the blockers' crossing test (`crossings_from`, 2,561 fans in two 600-point games
and their warm-up, 27 segments against 190 edges on average) and `Blockers.contains` (1,792 calls
in four 300-point games and their warm-up, most of a few points) at the top of movement's own time;
counted alone by replaying the recorded calls under callgrind (a process with the calls less one
without), the 1,732 crossing tests `NavGraph.clear` and `straight` make among the blockers in the
warm-up and seed 1 of gff600 cost 573 M instructions (about 331 k a call, some 7% of the 9.15 G
that process counts), and the 1,116 `contains` calls of gff300's warm-up and seeds 1-2 152 M (136 k
a call). The crossing test's cost is numpy's buffering, not its arithmetic: a `(k, 1) x (m,)`
product costs about 7.6 instructions an element (the iterator copies both operands into buffers), a
product of two contiguous arrays 2.4, a strided or row-broadcast operand 4.5 to 5.6, and a gather
(`take` or an index array) 20 to 40. Tried and not kept: `crossings_from` with its products laid
out as `(2, k, m)`, so that the side of each edge's start and the denominator come out contiguous
and the sums after them read no strided operand (the same bits; every golden and digest unchanged):
the replay's 1,539 fans 514 -> 499 M, but GFF 300 pts 3.613 -> 3.612 G, 600 pts 6.458 -> 6.451 G
(-0.1%) and Riverside 1.990 -> 1.993 G. Tests that leave out the edges of polygons whose bounding
box (grown by 1e-6) meets no segment's box cost more than they spare, though they keep a fifth of
the pairs (5,218 -> about 1,050 a call, the same answers): the pairs gathered into flat arrays 573
-> 725 M (739 M with index arrays), into padded rows per near polygon 770 M, the columns of
polygons near any segment of the call (40% of the edges) 858 M. Left: a sparser crossing test would
need gathers that cost less than the products they spare (a compiled kernel, which the project has
declined so far); the next saving is fewer sight lines, or lines kept across moves (after each move
the blockers are rebuilt and every line is measured again: 152 new blocker sets in two 600-point
games and their warm-up).

Issue 13's exact odds the estimates' memo misses (spd15, thirteenth session; every golden
unchanged and the same digest; `PYTHONPATH=. .venv/bin/python -m bench.instructions gff300
--seeds 1-4` under callgrind, load 3 to 5, the base in a worktree of the same path length; start
7115c20: 3.438 G). The misses do not ask the same odds under other keys: the 275
`attack_odds_fast` calls of four 300-point games (after a warm-up game) are 275 distinct keys,
264 with the weapons' names dropped, so a wider memo key would spare 11 of them. They took about
3% of the games' CPU (39 ms of 1.22 s, timed around the calls), spread over the fast path's own
caches, which are keyed on the whole target: the weapon cache (`_weapon`) never hit (275
misses), the canonical key (`_canonical_at`) missed 97 times and the wound-effect table
(`_effects`) 21. The canonical key is now looked up by what it keeps of the target (Defense,
Tough, Regeneration, Stealth and Blast's models; 29 keys, not 97: a target that lost a model or
took a marker finds its pair), and the wound-effect table by what it reads (models, markers,
Tough and Shaken; 15 tables, not 21): GFF 300 pts 3.438 -> 3.427 G (-0.3%). Tests:
tests/rules/gff/test_fast.py (the same objects for targets that differ only in what is dropped,
the key's fields cover `DefenderProfile`, warm odds equal cold ones). Left: `_weapon` could skip
its cache on the estimates' path (the odds memo already holds every query it would), and the 47
die chains composed afresh (`float_die`) are new weapon, situation and target triples.

Issue 13's deployment grid and the path search's calls (spd16, fourteenth session; every golden
unchanged and the same digests; instructions by `PYTHONPATH=. .venv/bin/python -m
bench.instructions gff300 --seeds 1-4`, `gff600 riverside --seeds 1-2` under callgrind, load 2 to
6, each checkout in a worktree of the same path length; start ae6a6b9: 3.421 G, 6.010 G and 1.923
G). What grows faster than the army (cProfile of gff600 seeds 1-2 against gff300 seeds 1-4 by
function, and CPU timed around the calls): A* among other units, 20% of a 600-point game's CPU
against 12% of a 300-point game's (151 searches a game against 49; its crossing test's elements
6.7 M a game against 0.39 M: 20 blockers of 8.5 edges each against 10, fans of 27 lines against
15), and the legal actions (17% against 15%: every unit's listing each decision, deployment 5.1%
against 4.4%, the sort of the listing 67,812 keys in two 600-point games). Kept: every deployment
decision checked the whole grid again for every unit still to place, so a side's deployment grew
with the square of its units; on an open table a point passes when the unit stands on the table
and in its zone there and keeps the gap from each other unit, each unit asked on its own, so
`gff_deploy._grid_points` works a unit's points out from those that passed for it earlier in the
phase and the units placed since (168 of 243 grid checks in two 600-point games; tables with
terrain are checked whole): 600 pts 6.010 -> 5.956 G (-0.9%), but 300 pts 3.421 -> 3.431 G
(+0.3%), the newcomers' check making the same numpy calls for fewer points. A point whose bound to
every newcomer clears the gap by half an inch and a margin (plain floats, `_among_newcomers`) now
passes without them, and only the rest are measured. The footprint sum read `_footprint` through
an `lru_cache` that hashed the frozen Unit (every field, about 4 us a call, some 3,500 calls a
600-point game): it is kept by the unit's identity; and `deploy_search._boxes` keeps the boxes of
the units standing earlier in the phase. Together 600 pts 6.010 -> 5.902 G (-1.8%), 300 pts 3.421
-> 3.409 G (-0.4%), Riverside (whose deployment shares the boxes) 1.923 -> 1.902 G (-1.1%); 600
points now cost 3.46 times 300 by instructions (from 3.51). Tests:
tests/game/test_gff_deploy_points.py (at every deployment decision of two open-table games played
to the end, Scouts and Ambush too, every unit's grid points are the whole grid's fresh check, in
order, the newcomers' check taken often; an answer kept without checking the newcomers fails it).
Tried and not kept, each playing the same games: the goal line of a popped node measured alone
before its fan when no way is known yet (a way through the node would bound the fan): 1,343 more
sight-line calls in two 600-point games for 2,340 fewer lines. A bound on the path's cost before
the search: an oracle (each search run again with its own path's cost as the bound, fresh sight
lines) measures 72% fewer lines (71,890 -> 17,492) and spends 45% less time in A* at 600 points
(28% at 300), the same path in all 436 searches; a greedy probe (from each node the few nodes
nearest the goal by way of it, each line tested and each cost summed as A* does, so the cost of a
way A* could take) found a bound in 92 of 99 first searches on graphs of over 100 nodes, mostly
within 1% of the best, and cut A*'s lines 66,501 -> 44,114, but added 561 calls and its own numpy
work: 6.010 -> 6.030 G (+0.3%); started only after four pops without a way, 6.028 G (tests showed
the same paths as the plain A* and failed with the bound understated by a tenth). A sight-line
call costs what 14 lines cost at 600 points (one line 151 us, 27 lines 408 us, timed at load 4),
so A* there is its calls (7 a search, about 50 numpy calls each), not its lines. Measured and not
built: lines kept across blocker sets (the first lead): 14,116 of the 70,319 lines measured in two
600-point games had been measured between the same two points among other blockers (98% with the
same answer), and 218 of 2,561 calls had every line so known; keeping them needs each kept row
checked against the blockers that changed near it (a numpy pass per row), for 8.5% of the calls.
The listing's sort key kept per listed action: 431 -> 353 ns a key (timeit), not worth it. What
the 600-point game needs next is fewer sight-line calls per A* search (one call per node popped,
each about 50 numpy calls whatever its lines), or a compiled line test.

The tenth session's whole change (gff8 and river8 merged, 27 Nov 2026; every golden and the same
digests; `PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 riverside --seeds 1-2`
under callgrind, start 03d624e against the merge): GFF 300 pts 2.160 -> 2.065 G (-4.4% on these
two seeds, -6.7% on seeds 1-4 above), Riverside 2.363 -> 2.047 G (-13.4%: river8's steps and
gff8's settle and move memo, which Riverside's moves use too). The two helpers had each written
`geometry.gaps_at_points` (one unit; every unit at once): the merge keeps the second, and
Riverside's deployment asks it once for all the units near its points. Then (lead) the odds memo
moved to `players.memo.attack_odds`, shared by the rules commander's estimates and GFF's
strike-back choice (which had worked its odds afresh each time): GFF 300 pts 2.065 -> 2.030 G
(-1.7%), the same digest. This machine ran about
1.4 times faster than in the ninth session (`oprlab check` 0.07 s wall against 0.13 s), so the
CPU times below moved more than the instructions did.

Issue 13's modules compiled ahead of time (mypyc, fourteenth session; nothing kept: whole games
gain well under the numba trial's 1.25x). mypyc 2.4.1 (it ships inside mypy, a dev dependency)
compiled the hot modules in place into one C extension (a `setup.py` with `mypycify([...],
opt_level="3")`, gcc with `-ffp-contract=off`): 17 modules in 2.5 min (the rules commander's
`players/rules/{bounds, scoring, view, needs, estimates, commander}`, `players/memo`,
`table/{blockers, paths, formation, charge, movement, navgraph}`, `game/{geometry, actions, gff,
state}`), then 55 in about 5 min (those and the rest of GFF's apply and legal actions:
`game/gff_*`, `activation`, `objectives`, `casualties`, `rules/gff/{attack, fast, melee,
profile}`, `units/model`, `table/{model, sight, cover, terrain, scene, measure}`, ...), on both
cores at load 3. The same games both ways (the same digests; 20 of the 28 goldens played
compiled, none moved). `PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 --seeds 1-2`
under callgrind, the same sources first on `PYTHONPATH` for pure: 1.734 G pure, 1.608 G with the
17 (-7.3%, 1.08x), 1.519 G with the 55 (-12.4%, 1.14x); gff600 seed 1: 2.688 G pure, 2.400 G
with the 55 (-10.7%, 1.12x). CPU of the games alone (seeds 1-10 of 300 points, pure and compiled
in turn, 5 pairs, load 3 to 5): the 55 at 0.77 to 1.0 of pure, median 0.90; 600 points (seeds
1-3, 3 pairs, load 6) too noisy to read (0.90 to 1.11). Why so little: under `perf record -e
cpu-clock` the interpreter's bytecode loop is 17% of a pure run (imports included) and 5% of a
run with the 55, and the compiled code itself 6%; the rest is what compiled code calls just as
bytecode does: numpy on small arrays (21-24%), making and freeing tuples, lists and boxed
floats, dict and attribute lookups, the garbage collector. Running compiled also needs more than
annotations: a dataclass field annotated `object` fails at import (mypyc looks the name up in
the module's globals; `object | None` passes), an attribute set from outside a class (the
registry's `revision` on a commander) must be declared on it, with `OprRules` compiled
`GffRules`' hooks given as `staticmethod(f)` attributes no longer override its methods (the
base's `NotImplementedError` ran), so the procedure's bases stayed interpreted; a compiled class
cannot be subclassed by interpreted code (the house rules' mixins composed with `GffRules` at
run time, a test's `RulesCommander`) without
`mypy_extensions.mypyc_attr(allow_interpreted_subclasses=True)` (a new run-time dependency),
search's copies of a state (`object.__new__(GameState)`) fail on a native class, and an `if
TYPE_CHECKING: ... else:` (`prob/floats.py`) compiles as unreachable. The 8 goldens that did not
play compiled are those: five house rules and three search games.

Issue 13's numpy calls on a unit's few models (spd17, fourteenth session; every golden unchanged
and the same digests: gff300 seeds 1-4 bf97c2d4b223603f, gff600 and riverside seeds 1-3 as
before). cProfile of seeds 1-4 after a warm-up game spreads numpy over many callers, none above
1% of the games; those on a unit's few models in `game/geometry` were `_gap` (the memo's misses
of a unit-to-unit gap, about 1,070 in the four games, a dozen or more numpy calls each),
`point_gap` (about 820) and `model_gaps` (about 220), and `gff_room.extents` (about 270, about ten
calls each). Up to 64 model pairs (`_SMALL_PAIRS`) the three now measure in Python floats, the
same operations in the same order (IEEE products, differences and square roots give the same
bits in Python as in numpy, and the least of the same numbers is the same), and `extents`
always does; larger units keep numpy. `PYTHONPATH=. .venv/bin/python -m bench.instructions
gff300 --seeds 1-4` under callgrind, each checkout a copy of its sources first on `PYTHONPATH`
(load 6 to 9): 3.427 G before, 3.349 G with the gaps and `point_gap` (-2.3%), 3.334 G with
`model_gaps` and `extents` too (-2.7% in all). A test checks the loops against the numpy
formulas bit for bit on both sides of 64 pairs (`- (r + s)` in place of `- r - s` fails it).
Left alone: the `hypot` sites (`View.reach`, `_models_near`, `bounding_circle`,
`paths._dedupe`), since `math.hypot` is not numpy's libm `hypot` to the last bit (1,295 of
200,000 random offsets differ); `table/charge.strikers` and `blockers.contains` (spd16's); the
navgraph's segment tests (hundreds of elements, not a handful); `packing.bounds` (deployment
only, about 400 calls, not measured).

The fourteenth session's whole change (spd16 and spd17 merged, main b58d328; every golden and
the same digest): `PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 --seeds 1-4` under
callgrind on a quiet machine, 3.433 G at the thirteenth session's end (ae6a6b9) -> 3.305 G
(-3.7%). `make bench` run in the same hour found the machine at about half the speed of the
table below (a 300-point game 391 ms; main and ae6a6b9 timed side by side then, 0.44-0.48 and
0.48-0.50 s a game), so the table below is still the thirteenth session's quiet run.

Issue 13's commander steps (spd19, fifteenth session; every golden unchanged and the same
digests: gff300 seeds 1-4 bf97c2d4b223603f, gff600 seeds 1-2 06822757a00e2d3f, riverside seeds
1-2 994a91ae9f8f60f6; `PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 --seeds 1-4`
under callgrind, each checkout a copy of its sources first on `PYTHONPATH`, load 3 to 6; start
9566a50: 3.316 G). What the leads found: the 473 `View.__init__` of the profile are
`Units.__init__` (view.py's first class: 240 groups of enemies and 233 groups of every unit for
the markers' nearness, one of each a decision), not two Views a decision; `expected_damage`'s
4,664 asks in the four games and the warm-up replayed are 644 distinct keys of the estimates'
memo, each missed once (its odds), so the decision's own memos already ask once per attacker,
target, band and decision, and a memo across decisions could spare only the hits' few calls.
Kept: `View.near_objectives` compares every unit's and marker's gap with 3" in its numpy pass
(`np.where(low > 0.0, low, 0.0) <= 3`, what `max(0.0, v) <= 3` gives) rather than once a unit
and marker in Python; `Needs._around` reads a side's enemies able to move (with their Rush
reach) and its friends able to hold once and fills every marker of the side at once (5,722
`move_allowance` calls in the profiled games were a Rush reach per enemy and marker);
`_shot_bound` looks the habits and the projection weight up once a unit, not once an enemy:
3.316 -> 3.283 G (-1.0%). `_move_bounds` turns its rows into one array with one gather (six
arrays and six gathers before) and the goals into one run of floats (`np.fromiter`: a list of
pairs converts at about twice the cost); `_swing` is worked out once a decision for the units of
a side alike in what it reads (the side, and the markers a unit is near when it counts at the
round's end: most units are near none), 712 -> 390 `_sides_near` calls; `_guarded` tells a
friend other than the unit without a generator: -> 3.253 G; `_first_best` sorts the walks and
charges apart as it reads the listing (the equal keys sorted keeps in order are of one kind, so
in listing order either way) and the goals are read by `map(attrgetter("to"))`, not a call a
move: -> 3.240 G. Together GFF 300 pts 3.316 -> 3.240 G (-2.3%), 600 pts (seeds 1-2) 5.744 ->
5.594 G (-2.6%), Riverside (seeds 1-2) 1.867 -> 1.827 G (-2.1%). Tests:
tests/players/test_rules_around.py (at every decision of two games, open and generated tables,
each side's enemies and friends round every marker and every unit's nearness are the
unit-by-unit reading; fails when the friends are read for one marker only) and
test_rules_sides_near.py (every unit's shared `_swing` is its own, counted from its sides near;
fails when the markers a unit is near are left out of the key). Tried and not kept: the moves'
unit and kind numbered with `map(attrgetter(...))`, `dict.fromkeys` and `np.fromiter` (3.253 ->
3.260 G with the goals' `map`) and the bounds' tiebreaks read by chained `map`s: in Python 3.11
these C loops over method wrappers cost about twice the list comprehensions they replaced
(timeit at load 5, 70 moves: 16 -> 28 us and 5 -> 10 us); `_gains` as a comprehension (4.5 ->
6.8 us a call: a comprehension is a function call of its own in 3.11). Measured and not built:
the bounds' sort by a heap (about 60 us of a loaded decision's 4 ms, a few tenths of a percent,
and a heap keyed on negated bounds orders NaN as the sort does not); a unit's move row kept
across decisions (it reads every enemy's gap and the markers' holders, and one unit of each side
has moved between two decisions of a side: a key that says nothing moved costs what the row
does). Left: the commander's cost is now spread thin (under cProfile no function of its own
takes more than about 1% of the games by its own time: `_move_bounds`, `Units.__init__`,
`_position_value` and `_gains` the largest); what would pay next is fewer rows and scores a
decision, not cheaper ones.

Issue 13's movement steps (spd18, fifteenth session; every golden unchanged and the same digests:
gff300 seeds 1-4 bf97c2d4b223603f, gff600 seeds 1-2 06822757a00e2d3f, riverside seeds 1-2
994a91ae9f8f60f6; `PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 --seeds 1-4` and
`gff600 riverside --seeds 1-2` under callgrind, each checkout a copy of its sources first on
`PYTHONPATH` (paths of the same length), load 4 to 7). The path search was replayed alone: the 282
`find_path` calls of seeds 1-4 (after the warm-up game) recorded with their blockers and played
again in order under callgrind, each answer checked against the game's: 935 M instructions at the
start, some 28% of the four games, of which the sight-line fans (`NavGraph.clear` from one point,
1,069 calls in 198 A* searches) about 350 M, each about 340 k whatever its 15 lines (a fan with
its lines cut to one still costs 120 k in the crossing test alone). Kept, each giving the same
paths by construction and tested so: the first A* search's ellipse narrowed from 1.3 to 1.1 times
`|s g|` (plus 4"): 931 -> 906 M (the fan's path below already in), the fans' lines 15,524 ->
11,570 (1.15: 915 M; 1.05: 909 M; pads of 2" and 6" with 1.1 cost more; any ellipse gives the
plain search's path, checked for 1.0 with no pad to 2.0); the escape rings of a start or goal
inside a blocker tested 32 points at a time, not 128 (the first free point is usually among the
first few dozen): 906 -> 864 M (8, 16 and 24 within 4 M of 32; 256: 914 M); and a fan's own path
in `NavGraph.clear` (`_fan`), whose crossing test keeps only whether each line crosses anything
(`blockers.crossed_from`: the larger of each pair's two products, the least of a row's, one
comparison, from the same products) and whose sample points go straight to the blockers' test: the
fans 385 -> 369 M. Together the replay 935 -> 864 M (-7.7%), GFF 300 pts 3.318 -> 3.261 G (-1.7%),
GFF 600 pts 5.753 -> 5.691 G (-1.1%), Riverside 1.863 -> 1.843 G (-1.1%). Tests:
tests/table/test_table_speedups.py (the fan's answer against the rows' crossings; A* against the
plain search for four ellipses, failing when the first search's path is returned unchecked; the
escape point against the plain one for chunks of 1 to 10,000). Tried and not kept: measuring the
heap top's unknown lines (and its goal line) in one batch with the popped node's, so that the next
pop, when it is that node, measures nothing: 1,069 calls became 329 fans and 605 pairs (135 fewer
calls, 1,884 more lines, most in the costlier two-start test), 931 -> 951 M; `Blockers.contains`
in Python floats for up to 8 points (each polygon's box, then its half-planes, the same products):
its own replay 246 -> 216 M, but the per-blockers rows it needs cost about 90 us and a set of
blockers lives for some 3.5 such calls (158 sets, 551 calls), so the path replay rose 935 -> 961
M; `_PATIENCE` 24 or 96 (914 and 906 M, nothing). Measured and left: the same line asked twice
among the same blockers (the brief's first lead) is rare: 324 of 17,275 lines in the four games,
16 asked the other way round, 49 of 1,382 calls wholly known; the search's cost is one fan per
node popped (5.4 a search), each mostly numpy's per-call cost, so what is left is fewer pops or a
compiled line test.

The fifteenth session's whole change (spd18 and spd19 merged, main 368b8df and its rewrap;
every golden and the same digest): `PYTHONPATH=. .venv/bin/python -m bench.instructions gff300
--seeds 1-4` under callgrind, 3.309 G at the fourteenth session's end (9566a50) -> 3.189 G
(-3.6%). `make bench` run at the session's end (load 0.1) found the machine about 1.6 times
slower than the thirteenth session's quiet run (bare python 17 ms against 13, a 300-point game
302 ms), so it was not kept: the table below is still the thirteenth session's. Timed side by
side instead (`farm-bench -n 5 --vs` with six 300-point games, seeds 1-6, a whole process each,
main against ae6a6b9, the commit the table was made on, in turn): CPU 2.68 s against 3.29 s,
0.84 (0.74 to 0.96 over the five pairs), which puts the table's 192 ms near 160 ms today.

Issue 13's table steps (spd20, sixteenth session; every golden unchanged and the same digests:
gff300 seeds 1-4 bf97c2d4b223603f, gff600 seeds 1-2 06822757a00e2d3f, riverside seeds 1-2
994a91ae9f8f60f6; `PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 --seeds 1-4` and
`gff600 riverside --seeds 1-2` under callgrind, each checkout measured in its own tree, load 2 to
5; start 2724aa3: 3.193 G). The blockers' build was replayed alone: the 301 `blockers_for` calls
of seeds 1-4 (after the warm-up game) recorded with their placements and made again in order, the
kept sets and parts emptied first, every set's arrays checked bit for bit: 212 M at the start,
some 6.6% of the four games, of which about 23 M the key (the bytes of each placement, hashed and
looked up), about 58 M building the sets (`Blockers.__init__`) and the rest the units' hulls.
What the leads found: in seeds 0-10, 242 of 687 calls found their set kept, and of the 445 sets
built only 2 had been built before and dropped, so the same set is not built twice for one table;
the units' parts were kept 3,363 times and made 1,059 times, 521 for a unit that had moved and
538 for a unit where it stood already, for a mover of another base (radii 0.49, 0.63 and 0.79").
Kept: one standing model (311 of the replay's 491 parts: 263 units of one model, heroes,
vehicles, monsters, and 48 units down to their last) is its octagon's eight corners, rounded as
the hull rounds them, in the order the monotone chain gives them (from the leftmost,
counter-clockwise: for any reach over 0.01" all eight are strict corners), without the sort and
the chains, and a unit of one model is read in Python floats from its placement's lists (a
product and a sum, the same bits as numpy's); and a set's layout (each polygon's first corner,
each corner's next one, each corner's slot in the padded rows) is kept by the polygons' sizes (88
layouts for the replay's 202 sets), a dozen numpy calls fewer a set: the replay 212 -> 165 M, GFF
300 pts 3.193 -> 3.147 G (-1.4%), 600 pts (seeds 1-2) 5.528 -> 5.494 G (-0.6%), Riverside (seeds
1-2) 1.806 -> 1.783 G (-1.3%). Tests: tests/table/test_blockers_build.py (the octagon against the
chain over its corners for 20,000 random spots, bases and gaps; sets of mixed sizes, each pattern
met again with other corners, against the plain build; a lone model removed blocks nothing).
Tried and not kept: `round(v, 9)` for a hull's points in one numpy pass (`rint(v * 1e9) / 1e9`,
the same floats below 1024 unless the product is exactly a half, left to `round`; checked on 3.8
million values, ties and signed zeros among them): the replay 165 -> 146 M but the games 3.147 ->
3.143 G (-0.1%: most hulls of several models are kept from an earlier game), not worth its proof;
the key's loop as one comprehension over a dict by identity: 25 -> 24 M a replay (its cost is the
bytes and their hashing); the three padded rows of a set as one block (one allocation, rows and
views of it): the sets' build with kept parts 61 -> 61 M a replay, nothing. Measured and left:
`has_room`'s options (the first lead): in seeds 1-4 its 70 calls each listed the options of one
unit (2,253 in all), and the listing of actions that followed asked for every one of the 70 again
(kept by `deploy_search.remembered`), besides 55 for the side's other units, so a first-found
answer or a cheaper test would only move the work to the listing; `contains`, the fans and
`_graph_search` (spd18's) were not touched. What is left of the build is the key and the hulls of
units of several models (the same units at another mover's radius: the corners scale, but the
chain's round-off need not).

Issue 13's path steps (spd21, sixteenth session; nothing kept in the engine, so every golden and
digest is main's: gff300 seeds 1-4 bf97c2d4b223603f, gff600 seeds 1-2 06822757a00e2d3f; the
crossing test replayed alone under callgrind with `PYTHONHASHSEED=0`, a process replaying the
recorded calls less one that only loads them, load 2 to 3). Why a path search costs 3.6 times as
much at 600 points: the fans' crossing test (`blockers.crossed_from` under `NavGraph._fan`) was
recorded in gff600's warm-up and seeds 1-2 (2,816 fans, 20.9 lines against 176 edges on average,
11.08 M pairs, 78% of the lines crossing something) and in gff300's warm-up and seeds 1-4 (1,137
fans, 11.2 lines against 87 edges, 1.17 M pairs): 3.8 times the pairs a fan, and 9.3 fans an A*
search against 5.8 (302 searches against 195). Replayed, a fan costs 298 k instructions at 600
points (840 M in all) and 179 k at 300 (204 M); a fan of 12 lines costs 151 k against 10 edges,
202 k against 107 and 246 k against 214, so some 150 k a call whatever its size and about 39 a
pair (twelve array passes at 3.3 instructions an element, near the 2.4 of spd14's contiguous
product): the pairs are half a fan's cost at 600 points, a sixth at 300. Tried and not kept, each
giving the whole test's answer on every recorded fan: the fan's bounding box (grown by 1e-6) as a
prefilter of the edges (the first lead) meets 39% of the edges at 600 points (28% at 300), but
picking those columns by a mask costs more than it spares (838 -> 1,192 M in that run: the mask's
gather, and the columns it gives come out strided); the edges kept sorted by their least x and by
their least y, and the slice that can reach the fan's box found by bisection on whichever axis
keeps fewer (views, no gather): half the edges but 71% of the pairs (a fan of many lines reaches
across most of the table; x alone 79%, y alone 74%), the pairs spared about 40 k a fan and the
box, bisections and slices 43 k: 840 -> 848 M. Only 13% of the pairs have boxes that meet (12% at
300), which only a gather per pair reaches (spd14's, dearer than the products it spares). The side
of each edge's start from one product of two rows kept y first (one numpy call fewer): 840 -> 833
M (-0.8% of the test, about 0.1% of the games, not worth a second set of kept rows); both products
of each pair from one broadcast `(k, 2, 2m)` product: 867 M. Left: the test is near numpy's floor
for each element, and what grows at 600 points is the pairs a fan and the pops a search; what would
pay is fewer pops (spd16's oracle bound spares 72% of the lines, but no bound cheap enough has been
found) or a compiled line test. The blockers far from the move (the third lead) are the same edges
the box spares: most fans reach past them.

The sixteenth session's whole change (spd20 merged; spd21 kept nothing; every golden and the
same digests), timed side by side with the commit the table was made on (`farm-bench -n 5
--vs`, six 300-point games, seeds 1-6, a whole process each, main 138ff10 against ae6a6b9 in
turn, load under 1): CPU 2.90 s against 3.34 s, 0.85 (0.82 to 0.95 over the five pairs), as the
fifteenth session's 0.84: the table's 192 ms is still near 160 ms today (spd20's -1.4% of
instructions is inside that spread). `make bench` was run twice at the session's end on an
otherwise idle machine and not kept: bare python took 14.5 and then 17.2 ms (13 in the
thirteenth session's run), and the games moved by a third between the two runs (600 points 944
then 634 ms; 300 points 176 then 234 ms), so this machine's speed drifted within minutes and
only a side-by-side ratio says anything; the table below is still the thirteenth session's.

Issue 13's compiled kernel (spd22, seventeenth session; every golden unchanged with the kernel
and with `OPRLAB_PURE=1`, and the same digests: gff300 seeds 1-4 bf97c2d4b223603f, gff600 seeds
1-2 06822757a00e2d3f, riverside seeds 1-2 994a91ae9f8f60f6; `PYTHONPATH=. .venv/bin/python -m
bench.instructions` under callgrind, each step measured in its own copy of the tree, load 1 to
4). Three small tests of the table now run in C where `make install` could build
`src/oprlab/table/_kernels.c` (setup.py, an optional extension built with `-O2
-ffp-contract=off`, reading contiguous float64 arrays through the buffer protocol, so no numpy
headers): the fans' crossing test (`blockers.crossed_from`, spd21's), the same test for
segments each from its own start (`crossed_any`, where `NavGraph.clear` and `straight` took the
any of `crossings`' rows) and `Blockers.contains`' test of points against convex polygons;
`oprlab.table.kernels` chooses, numpy where nothing was built or `OPRLAB_PURE` is set. Each loop
does numpy's arithmetic in numpy's order (the same products of the same differences, each
rounded on its own, no fused multiply-add) and stops a line at its first crossing and a polygon
at its first failed half-plane; the answers were equal on all 3,953 of spd21's recorded fans,
and tests/table/test_kernels.py checks them against numpy's (hypothesis: touching ends, edges
run along, collinear and near-degenerate lines, fans like the search's, strided and integer
arrays; it fails when a built kernel is not in use or was built from another source). Replayed
alone as spd21 replayed it, the fans' test went 840 -> 134 M at 600 points (298 k -> 48 k a
fan) and 197 -> 34 M at 300 (173 k -> 30 k). Whole games: 600 points (seeds 1-2) 5.494 G on
main, 5.048 G (-8.1%) with the fans in C, 4.761 G (-13.3%) with `contains` too and 4.669 G
(-15.0%) with the segments too; 300 points (seeds 1-4) 3.147 -> 2.883 G (fans and `contains`)
-> 2.808 G (-10.8%); Riverside (seeds 1-2) 1.783 -> 1.625 -> 1.584 G (-11.2%). With
`OPRLAB_PURE=1` the same tree plays them in 5.497 G and 3.159 G (+0.1% and +0.4% on main: the
numpy path now pays a call more a test, kept for one place that chooses). A 600-point game
now costs 3.3 times a 300-point one in instructions (3.5 before). A fresh `git clone` then `make
install` built and imported the kernel and `make demo` ran; with `CC=/bin/false` the install
went on in numpy and said so (`table tests: numpy`), and an edited kernel is rebuilt by the next
`make install` (its stamp depends on the C file). Left: what a fan costs in C is still some 48 k
instructions at 600 points (3,900 pairs each, less where a line stops early, and the call), so
fewer A* pops would still pay; `Blockers.depth` and sight's `_crossings` (shooting) were not
measured.

Issue 13's terrain steps (spd23, seventeenth session; every golden unchanged with the kernel and
with `OPRLAB_PURE=1`, and the same digests with both: gff300 seeds 1-4 bf97c2d4b223603f, gff600
seeds 1-2 06822757a00e2d3f, riverside seeds 1-2 994a91ae9f8f60f6; `PYTHONPATH=. .venv/bin/python -m
bench.instructions` under callgrind, each step measured in its own copy of the tree, load 3 to 4).
The lab's designs and `bench.habit_pairs` play on generated tables, so `bench.instructions` has a
kind for them: `gffterrain`, gff300's lists on `mission_table(seed)`, seeds 1-2 by default (games
d9545c92ddc19417 before and after). Two steps, each where a cProfile of four such games put the
time. GFF deployment on a table with terrain asked `_deploy_problem` one by one about every grid
point that stood on the table and in its zone (3,718 calls, 1.24 s of 8.8 s), though 1,237 of the
1,453 `legal_end` checks it made had no other unit near the point and 1,243 passed (68 failed on
terrain, so settling only the points a model cannot stand on would have spared little): the points
whose bounds clear every unit are now settled at once by `formation.fits_alone_at`, `legal_end`'s
own checks (on the table, each model standable, no overlap, cohesion) element by element on every
such point's models (the same bits: the models' sums are `geo.translated`'s, a two-term sum and a
square root round the same whatever the array's shape, and `standable` is asked once a base size),
and only points near a unit are asked one by one (591 calls; `_clear_points` 1.33 -> 0.60 s). Then
`NavGraph.climb` and `crossing_params` take `blockers.crossings`' whole matrix from a new C
function beside spd22's (`crossings` in `_kernels.c`, each pair tested as `crossed` tests it; the
climb keeps its float `@` product of the matrix and the heights, and a fan's start is passed once,
not repeated). Instructions, gffterrain seeds 1-2: 3.690 G on main, 3.277 G (-11.2%) with the
deployment step, 2.960 G (-19.8%) with the crossings in C too; gff300 seeds 1-4 (open tables, where
neither step has much to do): 2.808 -> 2.802 G (-0.2%). tests/table/test_fits_alone.py checks
`fits_alone_at` against `legal_end` at every point (hypothesis: mission tables, rows and blobs
nudged apart or together, models removed, two base sizes), tests/game/test_gff_deploy_points.py
that a terrain table's deployment leaves no point to the one-point check before any unit stands
(and under half after) with the same answers, tests/table/test_kernels.py the new function against
numpy's matrix. Left: sight's terrain trace (`_trace_terrain`, 0.53 s of the four games) and
`NavGraph.clear` were not touched.

The seventeenth session's side-by-side measurements (`farm-bench --vs`, whole processes in
turn, CPU, load 2-4 beside a helper). Against the bench table's commit ae6a6b9 (six 300-point
games a process, 20 pairs): main with spd22's kernel 0.79 (0.66 to 1.09), so the table's 192
ms is about 150 ms today; the kernel against `OPRLAB_PURE=1` in the same tree 0.91; 600 points
(two games a process, 5 pairs) 0.74. Against the code just before issue 13's first step
(1af4b01, the code the issue measured; seeds 1-10 and the warm-up game, 10 pairs): main's `rules`
0.66 and main's `rules-v1` (the commander that code had) 0.55 of its CPU, imports included:
about 1.6 and 2.0 times as fast in the games alone. Read in one process, that code's 300-point
games took 220 to 560 ms a game on this machine within minutes (the issue gives 480 ms), so
its absolute baseline moves with the machine and only a ratio measured side by side holds: by
that measure the games are 2.0 times as fast as the issue's own (the same commander), not the
3.2 that about 150 ms against 480 ms would suggest, and the issue's 5 times is about 2.5 times
further on.

Issue 13's scaling steps (spd25, eighteenth session; every golden unchanged with the kernel and
with `OPRLAB_PURE=1`, and the same digests: gff300 seeds 1-4 bf97c2d4b223603f, gff600 seeds 1-2
06822757a00e2d3f, riverside seeds 1-2 994a91ae9f8f60f6, gffterrain seeds 1-2 d9545c92ddc19417;
`PYTHONPATH=. .venv/bin/python -m bench.instructions gff300 --seeds 1-4` and `gff600 --seeds 1-2`
under callgrind, each step measured in its own worktree of the same path length, load 4 to 12
beside other helpers; start 6c503da: 2.813 G and 4.684 G, so a 600-point game cost 3.33 times a
300-point one). What grows faster than the army: cProfile with a CPU-time timer of gff600 seeds 1-2
against gff300 seeds 1-4, each after a warm-up game, a function's time a 600-point game over its
time a 300-point game (the whole game 3.2 times). The top ten of those with at least 2% of a
600-point game: the charge's contact search (`charge._reach_contact_search`) 8.6 times (2.9% of a
600-point game), the exact odds' `fast._die` 5.8 (2.2%), `fast._weapon` 5.7 (2.6%) and
`attack_chain.float_sums` 5.7 (3.0%), `charge._reaches_contact` 5.7 (3.5%) and `charge._progress`
5.6 (5.1%), the commander's odds memo (`players.memo.get`, `estimates._expected`) 5.6 (7.0%), the
listing's `activation.marker_and_enemy_goals` 5.5 (2.4%), `players.memo.attack` 5.4 (8.9%) and
`bounds._shot_bound` 5.3 (6.3%); then `expected_damage` 5.2 (11%), `bounds._move_row` 5.0 (6.9%),
`gff.move_goals` 4.8 (2.9%), `activation.unit_action_list` 4.8 (3.5%), `charge.can_charge` 4.7
(5.0%), `paths._graph_search` 4.7 (5.6%) and `geometry.gap` 4.7 (4.4%). By part: the legal actions
3.9 times (22% of a 600-point game under the profiler: every unit still to act lists its moves to
every marker and enemy and its charges at every decision, 16,892 actions listed a 600-point game
against 3,364, 211 a listing against 82), the rules commander 3.7 (49%, its scoring of those
actions: spd24's), apply 2.4 (30%: a move or a charge costs about the same a call at both sizes,
there are just more of them) and the deployment options 3.7 (6%: each decision lists every unit
still to place). Of the brief's suspects, `gff_setup`'s generator (objective markers, 1.05 times)
and `blockers.blockers_for` (2.7) do not grow faster than the army. Two steps, both in the listing.
First, GFF's activation listing: `activation.Foes` reads the markers, the enemies' centres, their
gap keys (the bytes `geometry.gap`'s memo is keyed on) and their bounding circles once a decision
for all the units listed; a charge target's exact gap is measured only where the two bounding
circles come within the charge's reach (the circles' gap is at most the models' gap; 1,387 gaps
asked in two 600-point games, from 8,673); each unit's Advance and Rush to a point, its benny
charges and spells are made once and handed out again (`activation._moves_to`, `_benny_charge`,
`casting._cast`; a benny charge and a spell were a new frozen Action every listing); and
`GffRules.activation_actions` gives the units by uid, each with its actions in `Action.sort_key`'s
order as `unit_action_list` now makes them (goals by point, charges by target, spells sorted with
the rest only when there are any), so the listing is not sorted whole: 300 pts 2.813 -> 2.693 G
(-4.3%), 600 pts 4.684 -> 4.359 G (-6.9%). Second, the deployment listing: the units by uid and
each unit's options sorted as plain (point, formation) tuples (`deploy_search.remembered` sorts
them once for the units that stand alike), not a sort of every DEPLOY action by its twelve-field
key; and Riverside's Hold and Idle are listed once (`listed`), not made afresh for each unit at
each decision: 300 pts 2.693 -> 2.689 G (-0.1%), 600 pts 4.359 -> 4.325 G (-0.8%), Riverside (seeds
1-2, whose listing keeps its sort) 1.593 G at the start, 1.595 G after the first step and the
deployment's order, 1.589 G with its Hold and Idle listed once (-0.3% in all). Both steps: 300 pts
2.813 -> 2.689 G (-4.4%), 600 pts 4.684 -> 4.325 G (-7.7%), so a 600-point game now costs 3.22
times a 300-point one by instructions (3.33 before; the issue's target is 2.5).
tests/game/test_gff_listing.py plays a 600-point game with Casters and bennies (13 units a side, so
A10 sorts before A2) and checks every activation listing against the generic one (each unit's
actions and spells, sorted), every unit's charge targets against each enemy's exact gap and every
deployment listing against every option sorted (each fails with the units in listing order or the
circles' bound without the target's radius), and the circles' bound against the models' gap
(hypothesis). Measured and not built: a memo of a unit's whole listing by its goals and targets
(only 163 of 1,392 unit listings in two 600-point games were the unit's last one again: between two
decisions of a side an enemy acts and most often moves, which moves a goal). Left: the rest of the
listing is a dictionary lookup or two an action (15,421 moves looked up in two 600-point games);
the contact search and A* grow with the units that block (`charge._progress`,
`paths._graph_search`), and most of the rest that grows is the commander's.
"""
#: Filled in by :func:`run` with the measured split and growth (``python -m bench`` prints it
#: after running the suite).
NOTES = _ABOUT

#: Where a game's time goes: a label and the functions (file part, name) whose cumulative time
#: it is. Movement and sight are the table layer's, reached through ``game.geometry``.
PARTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "movement",
        (
            ("geometry.py", "move_unit_toward"),
            ("geometry.py", "charge_move"),
            ("geometry.py", "pile_in"),
            ("geometry.py", "separate"),
        ),
    ),
    ("sight", (("geometry.py", "sees"), ("geometry.py", "in_cover"))),
    ("commander", (("commander.py", "choose"),)),  # players/rules/commander.py
    ("legal actions", (("hooks.py", "legal_actions"),)),
    ("apply", (("hooks.py", "apply"),)),
)


def _merge(name: str, *lists: str) -> Army:
    armies = [load_army(sample_path(n)) for n in lists]
    units = tuple(u for a in armies for u in a.units)
    return Army(name, "GFF", sum(a.points for a in armies), units)


#: Issue 13's baseline (CPU seconds a game, median of 3, the same lists, rules commanders).
BASELINE = {"150 pts": 0.20, "300 pts": 0.48, "600 pts": 1.77}
#: Issue 13's targets: a 300-point game at most this (5x, stretch 50 ms), 600 points at most
#: this many times the 300-point cost.
TARGET_300 = 0.100
TARGET_GROWTH = 2.5


class _Timed:
    """A commander whose ``choose`` adds its CPU time up (the commander's cost per decision
    without a profiler's distortion)."""

    def __init__(self, inner: Commander) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        start = time.process_time()
        try:
            action: Action = self.inner.choose(state, actions)
            return action
        finally:
            self.seconds += time.process_time() - start


@dataclass(frozen=True)
class Games:
    """Seeded games of one size: CPU seconds of each, decisions, the commanders' seconds, and
    the load average when they began."""

    seconds: list[float]
    decisions: int
    commander: float
    load: float

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def per_decision(self) -> str:
        """Decisions a game and milliseconds a decision: the commander's and the rest's."""
        n = len(self.seconds)
        total = sum(self.seconds)
        per = 1000 / max(1, self.decisions)
        return (
            f"{self.decisions / n:.0f} decisions a game, commander {self.commander * per:.2f} ms "
            f"a decision ({100 * self.commander / total:.0f}% of the game), legal actions and "
            f"apply {(total - self.commander) * per:.2f} ms"
        )


def _games(
    a: Any, b: Any, seeds: Sequence[int], system: str = "gff", commander: str = "rules"
) -> Games:
    """Play ``seeds`` on an open table, after one unmeasured game (caches warm, as in a batch)."""
    play_game(a, b, [get_commander(commander, 0, system=system)] * 2, seed=0, system=system)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    seconds: list[float] = []
    decisions = 0
    thinking = 0.0
    for seed in seeds:
        sides = [
            _Timed(get_commander(commander, seed, system=system)),
            _Timed(get_commander(commander, seed + 1, system=system)),
        ]
        start = time.process_time()
        result, _ = play_game(a, b, sides, seed=seed, system=system)
        seconds.append(time.process_time() - start)
        decisions += result.decisions
        thinking += sum(c.seconds for c in sides)
    return Games(seconds, decisions, thinking, load)


#: Issue 13: the memory of a process playing a 600-point game stays under this (MiB).
TARGET_MEMORY_MIB = 150.0


def play_600_and_report_memory() -> None:
    """Play one 600-point game (seed 1, rules commanders) in this process and print its peak
    resident memory in MiB (Linux: VmHWM, since ``ru_maxrss`` of a process started by one
    with a larger memory may report the starter's; elsewhere ``ru_maxrss`` in KiB)."""
    a = _merge("600 A", "gff/shooty-300.txt", "gff/elite-300.txt")
    b = _merge("600 B", "gff/melee-300.txt", "gff/horde-300.txt")
    play_game(a, b, [get_commander("rules", 1), get_commander("rules", 2)], seed=1)
    status = Path("/proc/self/status")
    if status.exists():  # the peak of this program alone (ru_maxrss may keep the parent's)
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                print(int(line.split()[1]) / 1024)
                return
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def peak_memory_600() -> float:
    """MiB at the peak of a new process that imports oprlab and plays one 600-point game."""
    code = "from bench.bench_games import play_600_and_report_memory as f; f()"
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, text=True, cwd=root
    )
    return float(done.stdout.split()[-1])


def _army(system: str, name: str) -> Any:
    return army_format(find_system(system).army_format).load(sample_path(name))


def split(a: Army, b: Army) -> dict[str, float]:
    """Seconds of one profiled game (seed 1) by part (see :data:`PARTS`), and ``"total"``.

    Parts nest: ``apply`` includes the movement; sight and cover are asked by the legal
    actions (targets in sight) and by ``apply`` (shooting). cProfile slows Python-heavy parts
    more than numpy-heavy ones.
    """
    prof = cProfile.Profile()
    prof.enable()
    play_game(a, b, [get_commander("rules", 1), get_commander("rules", 2)], seed=1)
    prof.disable()
    stats = pstats.Stats(prof)
    cumulative: dict[tuple[str, str], float] = {}
    for (file, _line, func), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if "oprlab" in file:
            key = (file.rsplit("/", 1)[-1], func)
            cumulative[key] = cumulative.get(key, 0.0) + ct
    out = {label: sum(cumulative.get(f, 0.0) for f in funcs) for label, funcs in PARTS}
    out["total"] = float(stats.total_tt)  # type: ignore[attr-defined]
    return out


def split_line(parts: dict[str, float]) -> str:
    """One readable line: each part's share of the game and its milliseconds (profiled)."""
    total = parts["total"]
    apply_rest = max(0.0, parts["apply"] - parts["movement"])
    shown = [
        ("movement", parts["movement"]),
        ("rest of apply (attacks, morale, log)", apply_rest),
        ("commander", parts["commander"]),
        ("legal actions", parts["legal actions"]),
        ("sight and cover (within the two before)", parts["sight"]),
    ]
    return ", ".join(f"{name} {100 * s / total:.0f}% ({1000 * s:.0f} ms)" for name, s in shown)


def run(budget: float) -> list[Result]:
    global NOTES
    sizes = {
        "150 pts": (
            load_army(sample_path("gff/shooty-150.txt")),
            load_army(sample_path("gff/melee-150.txt")),
        ),
        "300 pts": (
            load_army(sample_path("gff/shooty-300.txt")),
            load_army(sample_path("gff/melee-300.txt")),
        ),
        "600 pts": (
            _merge("600 A", "gff/shooty-300.txt", "gff/elite-300.txt"),
            _merge("600 B", "gff/melee-300.txt", "gff/horde-300.txt"),
        ),
    }
    few = range(1, 4 if budget < 1 else 6)
    seeds = {"150 pts": few, "300 pts": range(1, 11), "600 pts": few}
    out = []
    played: dict[str, Games] = {}
    for label, (a, b) in sizes.items():
        got = played[label] = _games(a, b, seeds[label])
        out.append(Result(f"game, {label}", len(got.seconds), "games", sum(got.seconds)))
    others = {
        "Riverside, 300 pts": ("riverside", sizes["300 pts"]),
        "WWPD, colonial": (
            "wwpd",
            (_army("wwpd", "wwpd/colonial.yaml"), _army("wwpd", "wwpd/colonial.yaml")),
        ),
    }
    for label, (system, (a, b)) in others.items():
        got = played[label] = _games(a, b, few, system=system)
        out.append(Result(f"game, {label}", len(got.seconds), "games", sum(got.seconds)))
    lines = [f"- {label}: {split_line(split(a, b))}" for label, (a, b) in sizes.items()]
    ms = {label: 1000 * g.median for label, g in played.items()}
    targets = [
        f"- 300-point GFF game, median of seeds 1-10: {ms['300 pts']:.0f} ms CPU = "
        f"{ms['300 pts'] / (1000 * BASELINE['300 pts']):.2f} x the issue's "
        f"{1000 * BASELINE['300 pts']:.0f} ms (target {1000 * TARGET_300:.0f} ms = 0.21 x, "
        f"{ms['300 pts'] / (1000 * TARGET_300):.1f} times over it; load "
        f"{played['300 pts'].load:.1f})",
        *(
            f"- {label} GFF game, median of seeds {few[0]}-{few[-1]}: {ms[label]:.0f} ms = "
            f"{ms[label] / (1000 * BASELINE[label]):.2f} x the issue's "
            f"{1000 * BASELINE[label]:.0f} ms (load {played[label].load:.1f})"
            for label in ("150 pts", "600 pts")
        ),
        f"- Peak memory of a process playing one 600-point game: {peak_memory_600():.0f} MiB "
        f"(target under {TARGET_MEMORY_MIB:.0f})",
        f"- 600 points cost {ms['600 pts'] / ms['300 pts']:.1f} x the 300-point game (target "
        f"at most {TARGET_GROWTH} x; the issue's baseline {1.77 / 0.48:.1f} x)",
        *(
            f"- {label}, median of seeds {few[0]}-{few[-1]}: {ms[label]:.0f} ms (load "
            f"{played[label].load:.1f}; the issue gives no baseline for it)"
            for label in others
        ),
    ]
    decisions = [f"- {label}: {g.per_decision()}" for label, g in played.items()]
    growth = (
        f"Cost by army size (medians): {ms['150 pts']:.0f} ms, {ms['300 pts']:.0f} ms and "
        f"{ms['600 pts']:.0f} ms a game at 150, 300 and 600 points: x"
        f"{ms['300 pts'] / ms['150 pts']:.1f} from 150 to 300 and x"
        f"{ms['600 pts'] / ms['300 pts']:.1f} from 300 to 600 (more units make more actions to "
        f"score, each against more enemies, and more obstacles for every path)."
    )
    NOTES = "\n".join(
        [
            _ABOUT.strip(),
            "",
            "CPU times; the load average on "
            f"{os.cpu_count()} cores is given with each number (a busy machine makes every "
            "number here larger, wall-clock times far more).",
            "",
            "Issue 13's targets, as ratios to its baseline (same lists, same commanders):",
            "",
            *targets,
            "",
            "Per decision (the commander timed around its `choose`, no profiler):",
            "",
            *decisions,
            "",
            "Where the time goes: one game per size under cProfile (seed 1; parts nest, see "
            "`bench_games.split`):",
            "",
            *lines,
            "",
            growth,
        ]
    )
    return out
