import type { BareSurface } from "./serve-bare";
import { initializeParams, mcpCall, resultOf } from "./mcp-wire";

/**
 * What the bare server is to serve: the product's own answers for the benchmark member
 * (initialize, tools/list, resources/list and every resources/read), so both sides put the
 * same bytes on the wire and the comparison is of serving alone. For the shared endpoint only
 * initialize and tools/list: "The shared /mcp endpoint and the public /mcp/demo server publish
 * none" (resources), so its bare twin serves an empty resource list.
 */
export async function captureSurface(url: string, token: string, { resources: withResources = true } = {}): Promise<BareSurface> {
  const ask = (method: string, params: Record<string, unknown> = {}) => resultOf(mcpCall(url, "2025-11-25", method, params, token), `${method} on the product`);
  const init = await ask("initialize", initializeParams("2025-11-25"));
  const { tools } = await ask("tools/list");
  const info = init.serverInfo;
  const instructions = init.instructions ?? "";
  if (!withResources) return { info, instructions, tools, resources: [], contents: {} };
  const { resources } = await ask("resources/list");
  const contents: BareSurface["contents"] = {};
  const queue = resources.map((r: { uri: string }) => r.uri);
  // A few at a time: the product is being read, not measured.
  const reader = async () => {
    for (let uri = queue.shift(); uri; uri = queue.shift()) contents[uri] = await ask("resources/read", { uri });
  };
  await Promise.all(Array.from({ length: 4 }, reader));
  return { info, instructions, tools, resources, contents };
}
