"""HTTP routes: each translates a request to a service call and back, nothing more."""
