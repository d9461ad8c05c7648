"""The turn flow: the spine that the guardrail steps and the conversation steps plug into.

turn.py     Turn (the state a turn folds over), Settings, Guards, StepResult and the Step shape
runner.py   STEPS in order and run_turn, which folds them over a turn
cards.py    cited_cards: the source cards a response shows
report.py   the triage, redaction and validation blocks a guarded response carries
"""
