/** Command-line options of the example server. */
export interface ServerOptions {
  port: number;
  host: string;
  /** "v1": @modelcontextprotocol/sdk (2025-era only); "v2": @modelcontextprotocol/server (2026-07-28 and 2025-era). */
  sdk: "v1" | "v2";
  /** Also register host_info and host_request (for tests and debugging). */
  debugTools: boolean;
  sessionIdleMs: number;
}

export const USAGE = `Usage: npx tsx examples/summarize-server/server.ts [options]

An example upstream MCP server with a "summarize" tool that reads the host's files through the
ai.nimblebrain/host-resources extension (file_uri), or takes the text inline (text).
Serves Streamable HTTP on http://HOST:PORT/mcp with stateful sessions.

Options:
  --port N            port to listen on (default 3333; 0 picks a free port)
  --host ADDR         address to listen on (default 127.0.0.1)
  --sdk v1|v2         v1: @modelcontextprotocol/sdk, 2025-era only (default)
                      v2: @modelcontextprotocol/server, 2026-07-28 first, 2025-era sessions too
  --debug-tools       also register host_info (what the connection sees) and
                      host_request (send any method and params to the host)
  --session-idle-min  close sessions idle for this many minutes (default 30)
  -h, --help          show this help

Prints "summarize-server listening on http://HOST:PORT/mcp (sdk …)" once it accepts connections.`;

/** Parses argv; returns the options, or a message to print and exit with (help: code 0). */
export function parseArgs(argv: string[]): ServerOptions | { exit: number; message: string } {
  const options: ServerOptions = { port: 3333, host: "127.0.0.1", sdk: "v1", debugTools: false, sessionIdleMs: 30 * 60_000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "-h":
      case "--help":
        return { exit: 0, message: USAGE };
      case "--port": {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) return { exit: 2, message: `--port: not a port number\n\n${USAGE}` };
        options.port = port;
        break;
      }
      case "--host":
        options.host = value() ?? options.host;
        break;
      case "--sdk": {
        const sdk = value();
        if (sdk !== "v1" && sdk !== "v2") return { exit: 2, message: `--sdk: expected v1 or v2\n\n${USAGE}` };
        options.sdk = sdk;
        break;
      }
      case "--debug-tools":
        options.debugTools = true;
        break;
      case "--session-idle-min": {
        const minutes = Number(value());
        if (!(minutes > 0)) return { exit: 2, message: `--session-idle-min: expected a positive number\n\n${USAGE}` };
        options.sessionIdleMs = minutes * 60_000;
        break;
      }
      default:
        return { exit: 2, message: `Unknown option: ${arg}\n\n${USAGE}` };
    }
  }
  return options;
}
