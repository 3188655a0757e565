# The two commands a newcomer needs: `make run` and `make test`.
# Each sets everything up from a clean clone (a .venv with an editable install).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: run test lint bench clean setup messages translations

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# The distribution was called scorekeeper (built by setuptools) before it was
	# pitch-scorekeeper: take the old one and its metadata away, so the package is there once.
	$(BIN)/python -m pip uninstall --quiet --yes scorekeeper 2>/dev/null || true
	rm -rf scorekeeper.egg-info
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	# serve creates or upgrades the database first.
	$(BIN)/scorekeeper serve --host $(HOST) --port $(PORT)

# The suite runs in one process per core (pytest-xdist); PYTEST_WORKERS=0 runs it in this one.
# It writes bytecode even where the environment says not to (PYTHONDONTWRITEBYTECODE, set on
# some machines and containers): otherwise every worker compiles the app and rewrites the
# tests' asserts afresh, and so does every server and command a test starts. The files go
# in __pycache__/, which git ignores and the wheel leaves out.
PYTEST_WORKERS ?= auto
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# Every benchmark in one run (about 5 minutes on 2 cores): one table, printed and written
# to bench/results.md. The page benchmark seeds BENCH_SCALE_GAMES games once, into instance/bench/.
# BENCH_DATABASE_URL=postgresql://user:password@host:5432/name also runs recording a hand and
# the pages on that PostgreSQL database (schemas bench_stack, made afresh, and
# bench_scale_<games>, seeded once), printed beside SQLite's rows.
BENCH_SCALE_GAMES ?= 10000
bench: $(STAMP)
	$(BIN)/python bench/run.py --scale-games $(BENCH_SCALE_GAMES) $(BENCH_ARGS)

# The message catalogue (scorekeeper/translations). `make messages` extracts every marked
# string into messages.pot and merges it into each language's .po, for the translator;
# `make translations` compiles the .po files into the .mo files the app reads (committed,
# and tests/i18n fails when they are behind the code or the .po).
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k _l -k lazy_gettext --add-location=file --sort-output \
		--project "Pitch Scorekeeper" --copyright-holder "Pitch Scorekeeper" \
		--msgid-bugs-address "" -o scorekeeper/translations/messages.pot scorekeeper templates
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete \
		-i scorekeeper/translations/messages.pot -d scorekeeper/translations

translations: $(STAMP)
	$(BIN)/pybabel compile --statistics -d scorekeeper/translations

lint: $(STAMP)
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/ruff format --check scorekeeper tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis dist
