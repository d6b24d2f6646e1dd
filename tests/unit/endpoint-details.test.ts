import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EndpointDetails } from "@/components/servers/endpoint-card";
import { claudeCodeOauthCommand, claudeDesktopConfig, KEY_PLACEHOLDER } from "@/components/servers/client-config";

/**
 * The server page's (and My MCP servers') ways to connect: one component renders both the
 * URL-only (OAuth) way and the API-key way, each a tab per client with the first one open.
 */

const url = "https://sb.example.com/mcp/srv_1";
const render = (oauth: boolean) => renderToStaticMarkup(createElement(EndpointDetails, { url, serverName: "Support", oauth }));
const tabLists = (html: string) =>
  [...html.matchAll(/<div role="tablist"[^>]*aria-label="([^"]+)"[^>]*>(.*?)<\/div>/g)].map((m) => ({
    label: m[1],
    tabs: [...m[2].matchAll(/<button[^>]*role="tab"[^>]*>([^<]*)<\/button>/g)].map((t) => t[1]),
  }));
const unescape = (s: string) => s.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&#x27;", "'");

describe("EndpointDetails", () => {
  it("with OAuth on: the URL-only way first, its clients in tabs, Claude Code's command open; the key way one tab further", () => {
    const html = render(true);
    expect(tabLists(html)).toEqual([
      { label: "How to connect", tabs: ["By URL (sign in)", "With an API key"] },
      { label: "Connect by URL", tabs: ["Claude Code", "Cursor", "Claude Desktop"] },
    ]);
    expect(html).toContain("no key to copy");
    expect(unescape(html)).toContain(claudeCodeOauthCommand(url, "Support"));
    expect(html).not.toContain(KEY_PLACEHOLDER);
  });

  it("with OAuth off: only the key way, Claude Desktop's config open, and where the key comes from", () => {
    const html = render(false);
    expect(tabLists(html)).toEqual([{ label: "Client configuration with an API key", tabs: ["Claude Desktop", "Cursor", "curl"] }]);
    expect(unescape(html)).toContain(claudeDesktopConfig(url, "Support"));
    expect(html).toContain(`Replace <code class="font-mono">${KEY_PLACEHOLDER}</code> with an API key of this workspace`);
    expect(html).not.toContain("By URL (sign in)");
  });
});
