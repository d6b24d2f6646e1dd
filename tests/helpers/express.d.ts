/** The few parts of express (a dependency of the MCP SDK v1, no bundled types) that tests/helpers/oauth-upstream.ts uses. */
declare module "express" {
  import type http from "node:http";
  export interface Request extends http.IncomingMessage {
    body: unknown;
    auth?: { token: string; clientId: string; scopes: string[]; expiresAt?: number; extra?: Record<string, unknown> };
  }
  export interface Response extends http.ServerResponse {
    status(code: number): Response;
    type(type: string): Response;
    send(body: string): Response;
    redirect(status: number, url: string): void;
  }
  export type RequestHandler = (req: Request, res: Response, next: (err?: unknown) => void) => void;
  interface Express {
    (req: http.IncomingMessage, res: http.ServerResponse): void;
    use(...handlers: unknown[]): Express;
    set(name: string, value: unknown): Express;
    post(path: string, ...handlers: RequestHandler[]): Express;
    get(path: string, ...handlers: RequestHandler[]): Express;
    listen(port: number, host: string, cb: () => void): http.Server;
  }
  interface ExpressFactory {
    (): Express;
    json(): RequestHandler;
    urlencoded(options: { extended: boolean }): RequestHandler;
  }
  const express: ExpressFactory;
  export default express;
}
