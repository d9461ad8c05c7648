"""The dossier store: conversations as a row and its append-only events.

tables.py       SQLModel tables (dossier, dossier_event)
repository.py   DossierRepository protocol (update: a turn locks its dossier, so writers wait)
sql.py          SqlDossierRepository   memory.py  MemoryDossierRepository (fake for tests)
convert.py      events <-> JSON payloads, a dossier's summary
cache.py        KnownDossiers: the events this process already read
"""
