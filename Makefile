# oprlab: `make demo` and `make test` work on a fresh machine with only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench monitor clean install serve web-shots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The table's C kernel is built here where a C compiler is found (setup.py); an edited kernel
# is rebuilt by the next install, test or demo (the old build removed first: if the new one
# fails, numpy runs, and the line after the install says so).
$(STAMP): pyproject.toml setup.py src/oprlab/table/_kernels.c src/oprlab/table/_astar.c | $(BIN)/python
	rm -f src/oprlab/table/_kernels.*.so
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -c "from oprlab.table import kernels; print('table tests:', kernels.IN_USE)"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/oprlab demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# The web app on http://127.0.0.1:8765/ (docs/web.md).
serve: $(STAMP)
	$(BIN)/oprlab serve

# The browser tests, saving each page's screenshot into docs/web/ (needs chromium).
web-shots: $(STAMP)
	OPRLAB_WEB_SHOTS=docs/web $(BIN)/python -m pytest -p no:xdist tests/web/test_browser.py

pytest: $(STAMP)
	$(BIN)/python -m pytest -n 2

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m bench

# The rules monitor over many random-commander games of GFF and Riverside (tests/game/monitor.py).
MONITOR_GAMES ?= 1000
monitor: $(STAMP)
	MONITOR_GAMES=$(MONITOR_GAMES) $(BIN)/python -m pytest -n 2 -m slow -s tests/game/test_monitor.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
