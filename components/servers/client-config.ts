/**
 * Ready-to-paste client configuration for one MCP server endpoint. Pure: the admin UI shows
 * these strings; the API key is a placeholder the admin replaces with a key from API keys.
 */

export const KEY_PLACEHOLDER = "YOUR_API_KEY";

/** A config key for the server: lowercase letters, digits and hyphens. */
export function configKey(serverName: string): string {
  return serverName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "switchboard";
}

/** claude_desktop_config.json: Claude Desktop reaches remote servers through `mcp-remote`. */
export function claudeDesktopConfig(url: string, serverName: string): string {
  const config = {
    mcpServers: {
      [configKey(serverName)]: {
        command: "npx",
        // mcp-remote splits --header on spaces inside args on some platforms; the env var avoids it.
        args: ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}"],
        env: { AUTH_HEADER: `Bearer ${KEY_PLACEHOLDER}` },
      },
    },
  };
  return JSON.stringify(config, null, 2);
}

/** .cursor/mcp.json (Cursor speaks Streamable HTTP with headers itself). */
export function cursorConfig(url: string, serverName: string): string {
  const config = { mcpServers: { [configKey(serverName)]: { url, headers: { Authorization: `Bearer ${KEY_PLACEHOLDER}` } } } };
  return JSON.stringify(config, null, 2);
}

/**
 * The revision the example asks for: the current stable 2025-era revision, the one the
 * gateway's `initialize` serves by default (docs/gateway.md) and README's walkthrough sends.
 */
export const CURL_PROTOCOL_VERSION = "2025-11-25";

/** A plain `initialize` over Streamable HTTP: proves the URL and the key work. */
export function curlInitialize(url: string): string {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: CURL_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "curl", version: "1.0" } },
  });
  return [
    `curl -sS '${url.replace(/'/g, "'\\''")}' \\`,
    `  -H 'Authorization: Bearer ${KEY_PLACEHOLDER}' \\`,
    "  -H 'Content-Type: application/json' \\",
    "  -H 'Accept: application/json, text/event-stream' \\",
    `  -d '${body}'`,
  ].join("\n");
}

/*
 * The OAuth way (when the instance runs its authorization server): the URL is all a client
 * needs. It finds the authorization server from the endpoint's 401, registers itself, and
 * sends the person through sign-in and consent; no key is pasted anywhere.
 */

/** Claude Code: one command; it opens the browser for sign-in on first use (`/mcp` in a session). */
export function claudeCodeOauthCommand(url: string, serverName: string): string {
  return `claude mcp add --transport http ${configKey(serverName)} '${url.replace(/'/g, "'\\''")}'`;
}

/** .cursor/mcp.json with the URL alone: Cursor signs in by OAuth when the server asks it to. */
export function cursorOauthConfig(url: string, serverName: string): string {
  return JSON.stringify({ mcpServers: { [configKey(serverName)]: { url } } }, null, 2);
}

/** claude_desktop_config.json through mcp-remote, which does the OAuth flow in the browser. */
export function claudeDesktopOauthConfig(url: string, serverName: string): string {
  return JSON.stringify({ mcpServers: { [configKey(serverName)]: { command: "npx", args: ["-y", "mcp-remote", url] } } }, null, 2);
}
