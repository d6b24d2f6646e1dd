import type { BareSurface } from "./serve-bare";
import { initializeParams, mcpCall, resultOf } from "./mcp-wire";

/**
 * What the bare server is to serve: the product's own answers for the benchmark member
 * (initialize, tools/list, resources/list and every resources/read), so both sides put the
 * same bytes on the wire and the comparison is of serving alone.
 */
export async function captureSurface(url: string, token: string): Promise<BareSurface> {
  const ask = (method: string, params: Record<string, unknown> = {}) => resultOf(mcpCall(url, "2025-11-25", method, params, token), `${method} on the product`);
  const init = await ask("initialize", initializeParams("2025-11-25"));
  const { tools } = await ask("tools/list");
  const { resources } = await ask("resources/list");
  const contents: BareSurface["contents"] = {};
  const queue = resources.map((r: { uri: string }) => r.uri);
  // A few at a time: the product is being read, not measured.
  const reader = async () => {
    for (let uri = queue.shift(); uri; uri = queue.shift()) contents[uri] = await ask("resources/read", { uri });
  };
  await Promise.all(Array.from({ length: 4 }, reader));
  return { info: init.serverInfo, instructions: init.instructions ?? "", tools, resources, contents };
}
