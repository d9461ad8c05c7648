"""The stores: knowledge, conversations (dossiers) and guardrail data, each in its sub-package.

db.py         engines (SQLite / PostgreSQL), alembic upgrade, revisions, as_utc
bootstrap.py  open_store: migrate, and load the bundled packs on first start; attach_store
              for a server's workers (no migration, a schema not at head refused)
knowledge/    the knowledge base: tables, repository protocol, SQL and memory, the pack loader
dossiers/     conversations: tables, repository protocol, SQL and memory, event JSON
guardrails/   the guardrails' word lists, thresholds, intents and tone, read from YAML
"""
