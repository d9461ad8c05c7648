"""What the OpenAPI document says each route returns: pydantic models of the bodies the routes
already send (they keep rendering plain dicts with orjson, so these models only document), the
one error shape, and the post-processing that makes the document match the wire (api/schemas/
document.py)."""
