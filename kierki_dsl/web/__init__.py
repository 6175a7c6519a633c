"""``kierki web``: a browser table on top of the transport-agnostic table core.

``app`` (Starlette routes and the WebSocket protocol), ``rooms`` (live tables, bots, resuming),
``snapshot`` (what one seat is shown), ``messages`` (validating what a browser sends),
``storage`` (SQLite by default, PostgreSQL by URL), ``catalogue`` (shipped and uploaded
rulesets), ``frames`` (stepping through a finished match). Needs the ``[web]`` extra.
"""
