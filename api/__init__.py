"""Navod's entrypoints: the FastAPI app and the `navod` CLI. Thin: they call engine.service."""
