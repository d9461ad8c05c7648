"""The knowledge-base store: tables, repositories and the pack loader.

tables.py       SQLModel tables (source, evidence, concept, rule, rule_pointer, faq, kb_meta)
convert.py      rows <-> frozen domain types
repository.py   KnowledgeRepository protocol
sql.py          SqlRepository        memory.py  MemoryRepository (fake for tests)
packs.py        read_packs / verify_packs / load_packs, pack folders
pack_parse.py   one pack folder -> records     pack_checks.py  checks across packs
pack_records.py one record of each kind        pack_fields.py  YAML and typed field access
coverage.py     which figure-bearing evidence sentences the rules cite (`navod kb coverage`)
"""
