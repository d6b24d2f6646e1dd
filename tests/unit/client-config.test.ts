import { describe, expect, it } from "vitest";
import { claudeCodeOauthCommand, claudeDesktopConfig, claudeDesktopOauthConfig, configKey, curlInitialize, cursorConfig, cursorOauthConfig } from "@/components/servers/client-config";

const URL_ = "https://mcp.example.com/mcp/srv_1";

describe("MCP client configuration snippets", () => {
  it("Claude Desktop runs mcp-remote with the URL and the bearer header from an env var", () => {
    const config = JSON.parse(claudeDesktopConfig(URL_, "Support Desk"));
    expect(config.mcpServers["support-desk"]).toEqual({
      command: "npx",
      args: ["-y", "mcp-remote", URL_, "--header", "Authorization:${AUTH_HEADER}"],
      env: { AUTH_HEADER: "Bearer YOUR_API_KEY" },
    });
  });

  it("Cursor gets the URL and the Authorization header", () => {
    expect(JSON.parse(cursorConfig(URL_, "CRM"))).toEqual({ mcpServers: { crm: { url: URL_, headers: { Authorization: "Bearer YOUR_API_KEY" } } } });
    expect(configKey("!!!")).toBe("switchboard");
  });

  it("curl sends a JSON-RPC initialize at the current stable revision with the Streamable HTTP Accept header", () => {
    const text = curlInitialize(URL_);
    expect(text).toContain(`curl -sS '${URL_}'`);
    expect(text).toContain("Accept: application/json, text/event-stream");
    const body = JSON.parse(/-d '(.*)'$/m.exec(text)![1]);
    expect(body).toMatchObject({ jsonrpc: "2.0", method: "initialize", params: { protocolVersion: "2025-11-25" } });
  });

  it("the OAuth way gives the URL alone, never a key or a header", () => {
    expect(claudeCodeOauthCommand(URL_, "Support Desk")).toBe(`claude mcp add --transport http support-desk '${URL_}'`);
    expect(JSON.parse(cursorOauthConfig(URL_, "CRM"))).toEqual({ mcpServers: { crm: { url: URL_ } } });
    expect(JSON.parse(claudeDesktopOauthConfig(URL_, "CRM"))).toEqual({ mcpServers: { crm: { command: "npx", args: ["-y", "mcp-remote", URL_] } } });
    for (const snippet of [claudeCodeOauthCommand(URL_, "x"), cursorOauthConfig(URL_, "x"), claudeDesktopOauthConfig(URL_, "x")]) expect(snippet).not.toMatch(/YOUR_API_KEY|Authorization/);
  });
});
