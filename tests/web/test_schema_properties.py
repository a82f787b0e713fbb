"""Every operation of the OpenAPI schema, with generated queries, path values and bodies: the
server answers, never with a 500 (a bad request is a 4xx with an ``error: ...`` line or
FastAPI's validation detail). Games are cut short (a tiny time limit) to keep this fast."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oprlab.analysis.lab.design import build_cells, experiment_hash
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.store import LabStore
from oprlab.game.actions import Kind
from oprlab.web import engine
from oprlab.web.app import create_app

APP = create_app()
SCHEMA = APP.openapi()
OPERATIONS = [
    (path, method, op)
    for path, ops in SCHEMA["paths"].items()
    for method, op in ops.items()
    if method in ("get", "post")
]
LAB = """
name = "schema"
[[matchups]]
a = "gff/elite-150"
b = "gff/melee-150"
[stop]
seeds = 2
"""
#: Values the forms really send, mixed with anything at all.
KNOWN = [
    *engine.list_samples(),
    "gff",
    "riverside",
    "wwpd",
    "d6",
    "clock",
    "clock-random",
    "open",
    "random",
    "rules",
    "person",
    "A",
    "B",
    "true",
    "on",
    "12",
    "-1",
    "edges=all",
    "Mortar Drone",
]
VALUES = st.one_of(
    st.sampled_from(KNOWN),
    st.text(max_size=24),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
ACTIONS = st.fixed_dictionaries(
    {"kind": st.sampled_from([k.value for k in Kind]) | st.text(max_size=8)},
    optional={
        "unit": st.sampled_from(["A1", "A2", "B1", ""]) | st.text(max_size=6),
        "target": st.sampled_from(["B1", "B2", "A1"]),
        "to": st.lists(st.floats(min_value=-60, max_value=60) | SCALARS, max_size=3),
        "value": SCALARS,
        "choice": st.sampled_from(["north", "south", "east", "west", "zone"]),
        "split": JSON,
        "benny": SCALARS,
    },
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    """The app with a lab file holding one experiment and no game yet (no report to make)."""
    exp = parse_experiment(LAB)
    cells = build_cells(exp)
    d = tmp_path_factory.mktemp("lab")
    with LabStore(d / "lab.duckdb") as store:
        store.register(experiment_hash(exp, cells), exp, cells)
    return TestClient(create_app(experiments_dir=d))


@pytest.fixture(scope="module")
def lab_key(client: TestClient) -> str:
    return str(client.get("/api/experiments").json()["experiments"][0]["id"])


@pytest.fixture(scope="module")
def game_key(client: TestClient) -> str:
    r = client.get("/play/new", params={"seed": 2, "table": "open"}, follow_redirects=False)
    return str(r.headers["location"].rsplit("/", 1)[1])


def _query_names(op: dict[str, Any]) -> list[str]:
    return [p["name"] for p in op.get("parameters", []) if p["in"] == "query"]


@pytest.mark.parametrize(
    ("path", "method", "op"), OPERATIONS, ids=[f"{m} {p}" for p, m, _ in OPERATIONS]
)
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_500_on_generated_requests(
    client: TestClient,
    game_key: str,
    lab_key: str,
    monkeypatch: pytest.MonkeyPatch,
    path: str,
    method: str,
    op: dict[str, Any],
    data: st.DataObject,
) -> None:
    monkeypatch.setattr(engine, "GAME_SECONDS", 0.02)
    names = _query_names(op)
    chosen = data.draw(st.lists(st.sampled_from(names), unique=True) if names else st.just([]))
    query = [(n, data.draw(VALUES)) for n in chosen]
    keys = st.sampled_from([game_key, lab_key, "opened", "nope"]) | st.text(
        alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=20
    )
    url = re.sub(r"\{[^}]+\}", lambda _: data.draw(keys), path)
    if method == "get":
        r = client.get(url, params=query, follow_redirects=False)
    elif path == "/api/play/{key}":
        body = data.draw(
            st.fixed_dictionaries({"step": st.integers(-2, 400) | SCALARS, "action": ACTIONS})
            | JSON
        )
        r = client.post(url, params=query, json=body)
    else:
        body = data.draw(
            st.fixed_dictionaries({"setup": JSON, "actions": st.lists(ACTIONS, max_size=3)}) | JSON
        )
        r = client.post(url, params=query, json=body)
    assert r.status_code < 500, (url, query, r.text[:500])
