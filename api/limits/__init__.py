"""Bounded work per request: what one client may make a worker read, wait for or hold open.

body.py      the request body limit and the stalled-body timeout (an ASGI middleware)
protocol.py  the request-header deadline and size limit (uvicorn's HTTP protocol, bounded)
server.py    the uvicorn options `navod serve` runs with (keep-alive, WebSocket size and pings)
"""
