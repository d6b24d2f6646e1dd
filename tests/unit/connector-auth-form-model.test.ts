import { describe, expect, it } from "vitest";
import { asksToReconnect, authFieldsOf, authForm, type AuthFieldsInput } from "@/components/connectors/auth-form-model";
import { formPathOf } from "@/components/connectors/connector-form-model";
import { ConnectorAuthInput } from "@/lib/connectors/upstream-auth/auth-schemas";

/** The console's Authentication section (issue 24 point 1): what it sends and what it refuses, in the form's words. */

const blank = authFieldsOf(undefined);
const fields = (over: Partial<AuthFieldsInput>): AuthFieldsInput => ({ ...blank, ...over });
const problems = (connectorType: "http" | "mcp", values: AuthFieldsInput, stored?: Parameters<typeof authForm>[1]) => {
  const parsed = authForm(connectorType, stored).safeParse(values);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("the connector forms' auth", () => {
  it("sends exactly the API's auth: only the chosen type's fields, empty ones left out, scopes split on spaces", () => {
    expect(authForm("http").parse(blank)).toEqual({ type: "headers" });
    // Fields typed under another choice are not sent.
    const oauth = authForm("mcp").parse(fields({ type: "oauth", connection: "shared", scopes: "  repo  read:user ", tokenUrl: "https://left.over/token" }));
    expect(oauth).toEqual({ type: "oauth", connection: "shared", scopes: ["repo", "read:user"] });
    const machine = authForm("http").parse(fields({ type: "client_credentials", tokenUrl: "https://auth.example/token", clientId: "m", clientSecret: "s", audience: "https://api.example" }));
    expect(machine).toEqual({ type: "client_credentials", tokenUrl: "https://auth.example/token", clientId: "m", clientSecret: "s", audience: "https://api.example" });
    expect(ConnectorAuthInput.parse(machine)).toEqual(machine);
  });

  it("says what is missing or wrong at each field, in the form's words", () => {
    expect(problems("http", fields({ type: "client_credentials", tokenUrl: "not a url" }))).toEqual({ tokenUrl: "Must be an absolute http(s) URL.", clientId: "Enter the client ID." });
    expect(problems("http", fields({ type: "client_credentials", tokenUrl: "https://auth.example/token", clientId: "m" }))).toEqual({ clientSecret: "Enter the client secret: client credentials need one." });
    expect(problems("http", fields({ type: "oauth" }))).toEqual({ authorizationServer: "Name the authorization server: its issuer URL (with metadata), or both its authorization and token endpoints." });
    // An mcp connector discovers its authorization server.
    expect(problems("mcp", fields({ type: "oauth" }))).toEqual({});
    expect(problems("mcp", fields({ type: "oauth", clientSecret: "s" }))).toEqual({ clientId: "A client secret needs its client ID." });
    expect(Object.keys(problems("mcp", fields({ type: "oauth", scopes: 'read "quoted"' })))).toEqual(["scopes"]);
  });

  it("on edit, an empty secret is kept only where one is stored for the chosen type", () => {
    const stored = { type: "client_credentials" as const, tokenUrl: "https://auth.example/token", clientId: "m", hasClientSecret: true };
    const values = fields({ ...authFieldsOf(stored), type: "client_credentials" });
    expect(values.clientSecret).toBe("");
    expect(problems("http", values, stored)).toEqual({});
    expect(authForm("http", stored).parse(values)).not.toHaveProperty("clientSecret");
    expect(problems("http", values, { type: "headers" })).toHaveProperty("clientSecret");
  });

  it("asks before a change that sends connected people to reconnect: client, scopes, server or a new secret", () => {
    const stored = { type: "oauth" as const, connection: "per_user" as const, clientId: "app", scopes: ["a", "b"], hasClientSecret: true };
    expect(asksToReconnect(stored, { type: "oauth", connection: "per_user", clientId: "app", scopes: ["b", "a"] })).toBe(false);
    expect(asksToReconnect(stored, { type: "oauth", connection: "shared", clientId: "app", scopes: ["a", "b"] })).toBe(false);
    expect(asksToReconnect(stored, { type: "oauth", connection: "per_user", clientId: "app", scopes: ["a"] })).toBe(true);
    expect(asksToReconnect(stored, { type: "oauth", connection: "per_user", clientId: "other", scopes: ["a", "b"] })).toBe(true);
    expect(asksToReconnect(stored, { type: "oauth", connection: "per_user", clientId: "app", clientSecret: "new", scopes: ["a", "b"] })).toBe(true);
    expect(asksToReconnect({ type: "headers" }, { type: "oauth", connection: "per_user" })).toBe(false);
  });

  it("places the API's auth errors at the form's fields", () => {
    expect(formPathOf("auth.scopes.3")).toBe("auth.scopes");
    expect(formPathOf("auth.tokenUrl")).toBe("auth.tokenUrl");
    expect(formPathOf("auth.clientSecret")).toBe("auth.clientSecret");
  });
});
