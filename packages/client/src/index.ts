import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

/**
 * The typed client of the Switchboard admin API (/api/v1). Paths, parameters, bodies and answers
 * are typed from the OpenAPI document the instance serves (src/schema.ts, generated); the calls
 * are openapi-fetch's: `client.GET("/orgs/{orgId}", { params: { path: { orgId } } })` answers
 * `{ data }` or `{ error }` (the problem+json) with the `response`.
 */

export type { components, operations, paths };

/** An error answer: RFC 9457 problem details; `errors` names each invalid field. */
export type Problem = components["schemas"]["Problem"];

export type SwitchboardClient = Client<paths>;

export interface SwitchboardClientOptions {
  /** The instance's address, e.g. `https://switchboard.example.com` (`/api/v1` is added unless it is there). */
  baseUrl: string;
  /** `INSTANCE_API_KEY` or a user API key (`sb_…`), sent as `Authorization: Bearer`. */
  token?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Another fetch (tests, proxies); defaults to the global one. */
  fetch?: ClientOptions["fetch"];
}

export function createSwitchboardClient(options: SwitchboardClientOptions): SwitchboardClient {
  const root = options.baseUrl.replace(/\/+$/, "");
  return createClient<paths>({
    baseUrl: root.endsWith("/api/v1") ? root : `${root}/api/v1`,
    // JSON, which the calls parse: the configuration document is YAML unless JSON is asked for
    // (pass `headers: { accept: "application/yaml" }` and `parseAs: "text"` for the YAML).
    headers: { accept: "application/json", ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** An answer that was not a success, with the problem+json the API sent (when it sent one). */
export class SwitchboardApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    readonly url: string,
  ) {
    super(`${status} from ${url}${problem ? `: ${problem.title}. ${problem.detail}` : ""}`);
    this.name = "SwitchboardApiError";
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

const isProblem = (value: unknown): value is Problem =>
  typeof value === "object" && value !== null && typeof (value as Problem).status === "number" && typeof (value as Problem).detail === "string";

/**
 * The data of a successful answer, or a thrown SwitchboardApiError, for scripts that stop at the
 * first unexpected answer: `const org = await ok(client.POST("/orgs", { body }))`. `tolerate`
 * lists statuses answered as `undefined` instead (e.g. 409: "it is there already").
 */
export async function ok<T>(call: Promise<Answer<T>>): Promise<T>;
export async function ok<T>(call: Promise<Answer<T>>, tolerate: number[]): Promise<T | undefined>;
export async function ok<T>(call: Promise<Answer<T>>, tolerate: number[] = []): Promise<T | undefined> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  if (tolerate.includes(response.status)) return undefined;
  throw new SwitchboardApiError(response.status, isProblem(error) ? error : undefined, response.url);
}
