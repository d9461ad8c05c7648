"""The knowledge-base store: tables, migrations glue, repositories and the pack loader.

models.py       SQLModel tables (source, evidence, concept, rule, rule_pointer, kb_meta)
convert.py      rows <-> frozen domain types
db.py           engines (SQLite / PostgreSQL), alembic upgrade, revisions
repository.py   KnowledgeRepository protocol
sql.py          SqlRepository        memory.py  MemoryRepository (fake for tests)
packs.py        read_packs / verify_packs / load_packs, pack folders
pack_parse.py   one pack folder -> records     pack_checks.py  checks across packs
pack_fields.py  YAML loading and typed field access with problem collection
"""
