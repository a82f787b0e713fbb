"""The web app: FastAPI routes for the odds, replays and games against the computer.

Pages are rendered on the server (Jinja2 templates, the table as the library's own SVG); one
small script (``static/app.js``) steps replays and sends a person's decisions. Every choice
arrives as a query or a JSON body, is checked by the library, and a bad one is shown as the
command line's ``error: ...`` line (HTTP 400), never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.middleware.gzip import GZipMiddleware

from oprlab.errors import UserError
from oprlab.version import __version__
from oprlab.web import engine, lab, views
from oprlab.web.engine import Recorded
from oprlab.web.store import GameStore, one_at_a_time
from oprlab.web.views import error_text

__all__ = ["MAX_BODY_BYTES", "MAX_QUERY_CHARS", "create_app"]

HERE = Path(__file__).parent
#: Largest request body (a stored game of two 2,000-point armies is well under it).
MAX_BODY_BYTES = 4 * 2**20
#: Longest query string: two pasted lists, URL-encoded.
MAX_QUERY_CHARS = 6 * engine.MAX_LIST_CHARS


def create_app(
    opened: dict[str, Any] | None = None,
    results: Path | None = None,
    experiments_dir: Path | None = None,
) -> FastAPI:
    """The app; ``opened``: a stored game (``oprlab serve --open``), at ``/replay/saved/opened``;
    ``results``: a DuckDB results file (``--results``) whose series ``/experiments`` lists;
    ``experiments_dir``: the directory of the lab files (``--experiments``) it lists too."""
    app = FastAPI(title="oprlab", version=__version__, docs_url="/api/docs")
    app.add_middleware(GZipMiddleware, minimum_size=2_000)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")
    games: GameStore[Recorded] = GameStore()

    @app.middleware("http")
    async def bounded(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length", "0")
        too_big = not length.isdigit() or int(length) > MAX_BODY_BYTES
        if too_big or len(request.url.query) > MAX_QUERY_CHARS:
            what = "body" if too_big else "query"
            return JSONResponse(
                {"error": f"error: request {what} too large (limits: docs/web.md)"}, 413
            )
        response: Response = await call_next(request)
        return response

    @app.exception_handler(UserError)
    async def user_error(request: Request, exc: UserError) -> Response:
        return JSONResponse({"error": error_text(exc)}, 400)

    @app.exception_handler(lab.NoExperiment)
    async def no_experiment(request: Request, exc: lab.NoExperiment) -> Response:
        return JSONResponse({"error": error_text(exc)}, 404)

    if opened is not None:
        with one_at_a_time():
            games.add(views.open_file(opened, "--open"), "opened")

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)  # no icon: a quiet answer instead of a 404

    @app.get("/", response_class=HTMLResponse, summary="The start page")
    def index(request: Request) -> HTMLResponse:
        return page(request, "index.html", opened="opened" in _keys(games))

    @app.get("/odds", response_class=HTMLResponse, summary="The odds of one attack (page)")
    def odds_page(
        request: Request,
        q: views.OddsForm = Query(),  # noqa: B008
    ) -> HTMLResponse:
        context = views.odds_context(q)
        return page(request, "odds.html", 400 if context["error"] else 200, **context)

    @app.get("/api/odds", summary="The odds of one attack (JSON)")
    def odds_api(q: views.OddsForm = Query()) -> dict[str, Any]:  # noqa: B008
        return views.odds_json(q)

    @app.get("/api/samples", summary="The bundled sample lists and their units")
    def samples() -> dict[str, list[str]]:
        return views.samples_units()

    @app.get("/replay", response_class=HTMLResponse, summary="Choose a game to watch")
    def replay_form(request: Request, q: views.GameForm = Query()) -> HTMLResponse:  # noqa: B008
        return page(request, "replay_form.html", **views.form_context(q, play=False))

    @app.get("/replay/game", response_class=HTMLResponse, summary="Play a game and watch it")
    def replay_game(request: Request, q: views.GameForm = Query()) -> HTMLResponse:  # noqa: B008
        try:
            setup = views.setup_of(q, person=None)
            with one_at_a_time():
                game = engine.play(setup)
        except UserError as exc:
            context = views.form_context(q, play=False) | {"error": error_text(exc)}
            return page(request, "replay_form.html", 400, **context)
        key = games.add(game)
        return page(request, "replay.html", **views.replay_context(game, key))

    @app.get("/replay/saved/{key}", response_class=HTMLResponse, summary="Watch a kept game")
    def replay_saved(request: Request, key: str) -> HTMLResponse:
        try:
            game = games.get(key)
        except UserError as exc:
            return page(request, "message.html", 404, error=error_text(exc))
        return page(request, "replay.html", **views.replay_context(game, key))

    @app.get("/api/games/{key}", summary="A kept game as a file (setup, decisions, events)")
    def game_file(key: str) -> Response:
        game = games.get(key)
        return Response(
            json.dumps(game.stored(), indent=1),
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="oprlab-game-{key}.json"'},
        )

    @app.post("/api/games", summary="Open a stored game (the JSON of a saved game)")
    def open_game(data: dict[str, Any]) -> dict[str, str]:
        with one_at_a_time():
            game = views.open_file(data, "the file")
        key = games.add(game)
        return {"id": key, "url": f"/replay/saved/{key}"}

    @app.get("/experiments", response_class=HTMLResponse, summary="Stored experiments")
    def experiments(request: Request) -> HTMLResponse:
        context: dict[str, Any] = {"results": None, "series": [], "error": ""}
        context["lab_dir"] = None if experiments_dir is None else str(experiments_dir)
        context["lab"] = _lab_list()
        if results is not None:
            context["results"] = str(results)
            try:
                context["series"] = engine.experiments(results)
            except UserError as exc:
                context["error"] = error_text(exc)
                return page(request, "experiments.html", 400, **context)
        return page(request, "experiments.html", **context)

    def _lab_list() -> list[dict[str, Any]]:
        return [] if experiments_dir is None else [e.public() for e in lab.scan(experiments_dir)]

    def _entry(key: str) -> lab.LabEntry:
        if experiments_dir is None:
            raise lab.NoExperiment(
                "no experiments directory", value=key, expected="oprlab serve --experiments DIR"
            )
        return lab.find(experiments_dir, key)

    @app.get("/experiments/lab/{key}", response_class=HTMLResponse, summary="One lab experiment")
    def lab_page(request: Request, key: str) -> HTMLResponse:
        try:
            entry = _entry(key)
        except UserError as exc:
            return page(request, "message.html", 404, error=error_text(exc))
        return page(request, "lab_experiment.html", e=entry.public())

    @app.get("/experiments/lab/{key}/report", summary="A lab experiment's report (HTML)")
    def lab_report_page(request: Request, key: str) -> HTMLResponse:
        try:
            entry = _entry(key)
            with one_at_a_time():
                return HTMLResponse(lab.report_html(entry))
        except UserError as exc:
            status = 404 if isinstance(exc, lab.NoExperiment) else 400
            return page(request, "message.html", status, error=error_text(exc))

    @app.get("/api/experiments", summary="The lab experiments: status and progress")
    def lab_list() -> dict[str, Any]:
        return {"experiments": _lab_list()}

    @app.get("/api/experiments/{key}", summary="One lab experiment: status and progress")
    def lab_one(key: str) -> dict[str, Any]:
        return _entry(key).public()

    @app.get("/api/experiments/{key}/progress", summary="A lab experiment's run progress")
    def lab_progress(key: str) -> dict[str, Any]:
        e = _entry(key).public()
        return {k: e[k] for k in ("id", "state", "done", "most", "fraction", "progress")}

    @app.get("/api/experiments/{key}/report", summary="A lab experiment's report (JSON)")
    def lab_report(key: str) -> Any:
        entry = _entry(key)
        with one_at_a_time():
            return lab.finite(lab.report_numbers(entry))

    @app.get("/play", response_class=HTMLResponse, summary="Choose a game to play")
    def play_form(request: Request, q: views.GameForm = Query()) -> HTMLResponse:  # noqa: B008
        return page(request, "play_form.html", **views.form_context(q, play=True))

    @app.get("/play/new", summary="Start a game against a computer commander")
    def play_new(request: Request, q: views.GameForm = Query()) -> Response:  # noqa: B008
        try:
            setup = views.setup_of(q, person=q.side)
            with one_at_a_time():
                game = engine.start(setup)
                engine.advance(game, until_person=True)
        except UserError as exc:
            context = views.form_context(q, play=True) | {"error": error_text(exc)}
            return page(request, "play_form.html", 400, **context)
        return RedirectResponse(f"/play/{games.add(game)}", 303)

    @app.get("/play/{key}", response_class=HTMLResponse, summary="A game being played")
    def play_page(request: Request, key: str) -> HTMLResponse:
        try:
            game = games.get(key)
        except UserError as exc:
            return page(request, "message.html", 404, error=error_text(exc))
        return page(request, "play.html", key=key, view=views.play_view(game))

    @app.get("/api/play/{key}", summary="A game being played: the table and the legal actions")
    def play_state(key: str) -> dict[str, Any]:
        return views.play_view(games.get(key))

    @app.post("/api/play/{key}", summary="A person's decision; the computer answers")
    def play_act(key: str, move: views.Move) -> dict[str, Any]:
        game = games.get(key)
        with one_at_a_time():
            views.act(game, move)
        return views.play_view(game)

    return app


def _keys(store: GameStore[Any]) -> list[str]:
    try:
        store.get("opened")
    except UserError:
        return []
    return ["opened"]
