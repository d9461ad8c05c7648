"""The guardrails' data store: fixtures/guardrails/*.yaml read into frozen configs.

config.py   GuardrailConfig: injection and abuse word lists, PII and FAQ thresholds
guards.py   intents and tone, and load_guards: everything a service's guarded flow runs with
"""
