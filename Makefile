# The two commands a newcomer needs: `make run` and `make test`.
# Each sets everything up from a clean clone (a .venv with an editable install).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: run test lint bench clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	# serve creates or upgrades the database first.
	$(BIN)/scorekeeper serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Every benchmark in one run (about 4 minutes on 2 cores): one table, printed and written
# to bench/results.md. The page benchmark seeds BENCH_SCALE_GAMES games once, into instance/bench/.
BENCH_SCALE_GAMES ?= 10000
bench: $(STAMP)
	$(BIN)/python bench/run.py --scale-games $(BENCH_SCALE_GAMES) $(BENCH_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/ruff format --check scorekeeper tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
