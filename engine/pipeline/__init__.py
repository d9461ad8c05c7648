"""The answering pipeline: pure stages folded over a request state (see runner.py)."""
