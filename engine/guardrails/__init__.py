"""Input guardrails: PII detection and redaction, prompt-injection and abuse detection.

Pure functions over text and a frozen `GuardrailConfig`; the word lists and thresholds are data
in fixtures/guardrails/, read at the edge by engine/store/guardrails/config.py.
"""

from engine.guardrails.abuse import detect_abuse
from engine.guardrails.config import GuardrailConfig
from engine.guardrails.injection import InjectionVerdict, detect_injection
from engine.guardrails.pii import PiiFinding, detect_pii, redact

__all__ = [
    "GuardrailConfig",
    "InjectionVerdict",
    "PiiFinding",
    "detect_abuse",
    "detect_injection",
    "detect_pii",
    "redact",
]
