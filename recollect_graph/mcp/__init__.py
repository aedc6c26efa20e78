"""The memory tools as an MCP server over stdio or Streamable HTTP.

:mod:`recollect_graph.mcp.server` builds and serves it; :mod:`~recollect_graph.mcp.app` holds the
strict server and the tool registry, ``tools_lore``/``tools_recollect``/``tools_graph`` declare the
tools, :mod:`~recollect_graph.mcp.models` their typed items and answers, ``prompts`` and
``resources`` the rest, :mod:`~recollect_graph.mcp.http` the HTTP transport, and
:mod:`~recollect_graph.mcp.tools` the shared bodies. The ``recollect-graph mcp`` command that
starts it is :mod:`recollect_graph.cli.mcp_cmd`. Nothing here imports the CLI, and nothing here
imports the facade at import time (start-up stays light).
"""
