"""Pure text helpers: folding, tokens, keywords, language detection, quantities and formatting.

Nothing here reads a clock, the environment or a database; every function is deterministic.
"""
