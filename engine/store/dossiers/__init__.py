"""The dossier store: conversations as a row and its append-only events.

tables.py       SQLModel tables (dossier, dossier_event)
repository.py   DossierRepository protocol, and update_dossier (retry on a version conflict)
sql.py          SqlDossierRepository   memory.py  MemoryDossierRepository (fake for tests)
convert.py      events <-> JSON payloads, a dossier's summary
cache.py        KnownDossiers: the events this process already read
"""
