import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import { NO_PROMPTS } from "@/lib/mcp/surface/publish-prompts";
import { lazy, NO_UPSTREAM_RESOURCES, SERVER_VERSION, type McpSurface, type ToolSet, type WireTool } from "@/lib/mcp/surface/surface-types";

/**
 * /mcp/demo: a public, anonymous server with a few built-in tools, for trying a client
 * against the platform without an account. It touches no tenant data, publishes no
 * resources, and never changes (no list_changed). Limited per client address by the route.
 */

interface DemoTool extends WireTool {
  run(args: Record<string, unknown>): ToolCallResult;
}

const text = (value: string): ToolCallResult => ({ content: [{ type: "text", text: value }] });
const invalid = (message: string): ToolCallResult => ({ content: [{ type: "text", text: message }], isError: true });

const MAX_ECHO = 10_000;

const DEMO_TOOLS: DemoTool[] = [
  {
    name: "echo",
    description: "Returns the text it is given.",
    inputSchema: { type: "object", properties: { text: { type: "string", description: "Text to echo back" } }, required: ["text"] },
    run: ({ text: value }) => {
      if (typeof value !== "string") return invalid("Invalid arguments: `text` must be a string.");
      return text(value.slice(0, MAX_ECHO));
    },
  },
  {
    name: "add",
    description: "Adds two numbers.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number", description: "First addend" }, b: { type: "number", description: "Second addend" } },
      required: ["a", "b"],
    },
    run: ({ a, b }) => {
      for (const [field, value] of [["a", a], ["b", b]] as const) {
        if (typeof value !== "number" || !Number.isFinite(value)) return invalid(`Invalid arguments: \`${field}\` must be a finite number.`);
      }
      const sum = (a as number) + (b as number);
      return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
    },
  },
  {
    name: "current_time",
    description: "The current date and time, in ISO 8601 (UTC) or in the given IANA time zone.",
    inputSchema: { type: "object", properties: { timeZone: { type: "string", description: "IANA time zone, e.g. Europe/Paris" } } },
    run: ({ timeZone }) => {
      const now = new Date();
      if (timeZone === undefined) return text(now.toISOString());
      if (typeof timeZone !== "string") return invalid("Invalid arguments: `timeZone` must be a string.");
      try {
        const local = now.toLocaleString("sv-SE", { timeZone, hour12: false }).replace(" ", "T");
        return text(`${local} (${timeZone})`);
      } catch {
        return invalid(`Invalid arguments: \`timeZone\` is not a known time zone: ${timeZone.slice(0, 100)}`);
      }
    },
  },
];

const demoTools: ToolSet = {
  list: DEMO_TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  call(name, args) {
    const tool = DEMO_TOOLS.find((t) => t.name === name);
    return tool ? Promise.resolve(tool.run(args)) : null;
  },
  definition(name) {
    return this.list.find((t) => t.name === name);
  },
  signature: () => "demo",
};

const INSTRUCTIONS =
  "Switchboard demo server: a public sandbox with three built-in tools (echo, add, current_time). " +
  "It reaches no external system. Connect to /mcp/<serverId> with an API key for your own tools.";

export function demoSurface(): McpSurface {
  return {
    info: { name: "Switchboard demo", version: SERVER_VERSION },
    instructions: lazy(() => INSTRUCTIONS),
    resources: () => null,
    tools: demoTools,
    prompts: NO_PROMPTS,
    complete: () => null,
    completions: false,
    upstreamResources: NO_UPSTREAM_RESOURCES,
    watch: null,
  };
}
