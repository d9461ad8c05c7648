"""The API key store: who may call Navod, kept as hashes (issue 12).

tables.py       the api_key table (SQLModel), revision 0009
repository.py   ApiKey, the KeyRepository protocol
secret.py       new secrets, their hash, and the constant-time check
sql.py          SqlKeyRepository   memory.py  MemoryKeyRepository (fake for tests)
"""
