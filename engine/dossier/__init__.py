"""Dossiers: conversations kept as events, with the selection and memory derived from them."""
