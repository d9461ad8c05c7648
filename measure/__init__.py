"""Measuring Navod: the benchmark (`navod bench`) and the gold-set evaluation (`navod eval`).

bench.py                latency, snapshot build and memory on a large generated knowledge base
bench_data.py           the generated knowledge base and question mix, deterministic per seed
bench_guards.py         the guardrails' share of the benchmark
bench_understanding.py  the question reader on its own, and the worst 4,000-character questions
eval.py                 run the gold questions in process or against a server
eval_gold.py            the gold set's shape, checked on load
eval_judge.py           one gold question's verdict
eval_report.py          the report: accuracy per language and category, and the gate

The CLI (api/cli.py) calls it; it calls the engine and the stores as the API does.
"""
