"""The memory tools as an MCP server over stdio.

The server lives in :mod:`recollect_graph.mcp.server`, the tool bodies in
:mod:`recollect_graph.mcp.tools`; the ``recollect-graph mcp`` command that starts it is
:mod:`recollect_graph.cli.mcp_cmd`. Nothing here imports the CLI.
"""
