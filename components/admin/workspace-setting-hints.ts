/** What the two workspace settings do, worded the same on every page that shows them. */
export const KNOWLEDGE_GRAPH_HINT =
  "Publish the knowledge graph of the usable connectors as the anythingmcp://server/<id>/knowledge-graph resource on this workspace's MCP servers.";
export const TOOL_WHITELISTS_HINT =
  "Members without an MCP role get no tools (fail closed). Off: they get every tool of the server. Owners and admins always get every tool.";
