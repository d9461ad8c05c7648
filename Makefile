# Navod: `make run` serves the API, `make test` runs the whole suite. Both set everything up.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
HASH := $(shell cat pyproject.toml | sha256sum | cut -c1-12)
STAMP := $(VENV)/.installed-$(HASH)
# `make run` needs only what serving needs; `make test` adds the toolchain (the dev extras)
RUN_STAMP := $(VENV)/.runtime-$(HASH)
POSTGRES_URL ?= postgresql://postgres@127.0.0.1:5432/test

.PHONY: install run test lint typecheck browser test-sqlite test-postgres fuzz bench walk packs clean

$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	rm -f $(VENV)/.runtime-*
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* $(VENV)/.runtime-*
	touch $(STAMP) $(RUN_STAMP)

install: $(STAMP)

run: $(RUN_STAMP)
	$(BIN)/navod serve

lint: $(STAMP)
	$(BIN)/ruff check engine api measure tests migrations
	$(BIN)/ruff format --check engine api measure tests migrations

typecheck: $(STAMP)
	$(BIN)/mypy

# The whole suite on SQLite, then every database test again on PostgreSQL.
test: lint typecheck test-sqlite test-postgres

# Debian's chromium for tests/browser (installed with apt-get when missing; `run` needs none).
browser:
	sh tests/browser/ensure_chromium.sh

test-sqlite: $(STAMP) browser
	env -u DATABASE_URL $(BIN)/pytest

test-postgres: $(STAMP)
	@if $(BIN)/python -m tests.pg_available "$(POSTGRES_URL)"; then \
		DATABASE_URL="$(POSTGRES_URL)" $(BIN)/pytest -m db; \
	elif [ -n "$$REQUIRE_POSTGRES" ]; then \
		echo "PostgreSQL at $(POSTGRES_URL) is required but unreachable" >&2; exit 1; \
	else \
		echo "PostgreSQL at $(POSTGRES_URL) unreachable: database tests ran on SQLite only"; \
	fi

# The redaction properties with the "fuzz" hypothesis profile (tests/conftest.py): thousands of
# spellings of each identifier type and separator class, drawn at random (CI draws the same few).
fuzz: $(STAMP)
	env -u DATABASE_URL HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest tests/test_redaction_properties.py

bench: $(STAMP)
	$(BIN)/navod bench

# The 40-question walk of the page (tests/browser/walk.py) against a running `make run`;
# WALK_SCREENSHOTS=docs/screenshots redoes the README's screenshots.
walk: $(STAMP) browser
	$(BIN)/python -m tests.browser.walk --url http://127.0.0.1:$${PORT:-8000} $(if $(WALK_SCREENSHOTS),--screenshots $(WALK_SCREENSHOTS))

# Rebuild every pack's evidence from fixtures/sources (byte-exact) and audit the rules.
packs: $(STAMP)
	$(BIN)/python fixtures/tools/build_evidence.py --check
	$(BIN)/navod kb verify --quiet

clean:
	rm -rf $(VENV) data .pytest_cache .mypy_cache .ruff_cache
