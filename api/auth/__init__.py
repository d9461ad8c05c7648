"""Who is calling, and whether they may (issue 12): API keys, origins, rate limits.

hosts.py        the Host check before everything (NAVOD_ALLOWED_HOSTS: DNS rebinding refused)
guard.py        the ASGI middleware every HTTP request and WebSocket passes: origin, key, rate
credentials.py  the secret a request carries (Authorization: Bearer, or a bearer.* subprotocol)
origins.py      which Origin headers are allowed
ratelimit.py    token buckets per key or client address, bounded in memory
caller.py       Caller, what the routes get (CallerDep), and the 401 of a route needing a key
"""
