"""The balance lab (issue 15): experiments that answer a designer's comparative question.

An experiment file (:mod:`.model`) crosses factors over matchups into cells; every cell plays
the same seeds in both seats (:mod:`.design`); the games are stored as they finish
(:mod:`.store`), played in batches until a stopping rule is met (:mod:`.run`), and summarised
with paired intervals (:mod:`.stats`, :mod:`.summary`) into an HTML and JSON report
(:mod:`.report`). docs/experiments.md explains it all.
"""
