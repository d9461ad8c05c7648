"""Navod engine: a deterministic, fail-closed pipeline over a knowledge snapshot."""
