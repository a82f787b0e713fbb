"""oprlab in the browser: ``oprlab serve`` (odds, replays, a game against the computer).

An edge, like the command line: it may import every layer. The library calls live in
:mod:`oprlab.web.engine`; the routes in :mod:`oprlab.web.app`.
"""
