import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * "Every query on tenant-owned data carries its organization or workspace in its `where`"
 * (reads and writes alike; a write by bare id after a scoped read is not enough). This walks
 * the source of lib/ and the route handlers and lists every Prisma call on a tenant-owned
 * model whose literal `where` names neither the tenant (`orgId`, `workspaceId`, `org`,
 * `workspace`, a scope under `AND`, or — for stored resources, which have no org column — the
 * `connector` relation). A `where` built elsewhere (a scope helper, a variable) is that
 * helper's business and is not judged here.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const DIRS = ["lib", "app/api", "app/mcp"];

/** Prisma delegate names of the models that belong to an organization. */
const TENANT_MODELS = new Set([
  "workspace", "orgMember", "workspaceMember", "connector", "tool", "mcpRole", "mcpRoleTool", "mcpServer",
  "mcpRolePrompt", "mcpServerConnector", "skill", "storedResource", "graphEntity", "graphRelation", "file", "apiKey", "auditEvent",
  "orgInvitation", "usageBucket", "connectorHealth", "oauthGrant", "ssoConnection", "ssoDomain", "upstreamConnection", "upstreamConnectionStart",
]);
const QUERY_METHODS = new Set([
  "findUnique", "findUniqueOrThrow", "findFirst", "findFirstOrThrow", "findMany", "count", "aggregate", "groupBy",
  "update", "updateMany", "upsert", "delete", "deleteMany",
]);
const TENANT_KEYS = new Set(["orgId", "workspaceId", "org", "workspace", "AND", "connector"]);

/**
 * Calls judged and found fine, each with its reason. Keyed by "file: model.method".
 * Keep this list short: the reason must say why no tenant can be named in the query.
 */
const ALLOWED = new Map<string, string>([
  ["lib/connectors/upstream-auth/complete.ts: upstreamConnectionStart.findFirst", "the upstream's callback: the hash of the single-use state this server issued is what decides the tenant (like an API key's); the row names its org"],
  ["lib/connectors/upstream-auth/connect.ts: upstreamConnectionStart.deleteMany", "sweep of expired connection attempts of every organization; answers nobody"],
  ["lib/sso/start-sso-sign-in.ts: ssoDomain.findFirst", "sign-in by email domain, before anyone is signed in: the verified domain (one org's only) is what decides the tenant"],
  ["lib/sso/finish-sso-sign-in.ts: ssoConnection.findUnique", "the callback's connection id comes from the state this server stored at sign-in start; the row names its org"],
  ["lib/auth/resolve-bearer.ts: apiKey.findFirst", "authentication: the presented key's hash is what decides the tenant"],
  ["lib/mcp/visibility/resolve-view.ts: mcpServer.findFirst", "which organization a server id belongs to, to check that org's configuration version; answers nobody (reach is findServerHead's scoped query)"],
  ["lib/mcp/serve/connection-state/live-watch.ts: apiKey.findMany", "revocation sweep of this process's own live sessions (ids it holds); answers nobody"],
  ["lib/oauth/resolve-grant.ts: oauthGrant.findFirst", "authentication: the verified access token's client, user and audience are what decide the tenant"],
  ["lib/oauth/resolve-grant.ts: oauthGrant.findMany", "revocation sweep of this process's own live sessions (grant ids it holds); answers nobody"],
  ["lib/oauth/connected-apps.ts: oauthGrant.findMany", "a person's own grants in every organization, revoked when their password changes (userId from the session); the writes then name each org"],
  ["lib/oauth/save-grant.ts: oauthGrant.findFirst", "the consenting user's own grant for this client and endpoint (user from the session), wherever it was before"],
  ["lib/files/delete-queued-blobs.ts: file.findMany", "blob clean-up asks whether any row still references a storage key (the blob must then stay); answers nobody"],
  ["lib/shell/overview.ts: orgMember.findMany", "a signed-in user's own memberships (userId from the session) are what decide their tenants"],
  ["lib/invitations/answer-invitation.ts: orgInvitation.findFirst", "the invited person's own invitation: their account's email (from the session) decides, in any organization"],
  ["lib/invitations/answer-invitation.ts: orgInvitation.count", "the invited person's own invitations: their account's email (from the session) decides, across organizations"],
  ["lib/invitations/answer-invitation-link.ts: orgInvitation.findUnique", "an invitation link: the hash of its secret is what decides the tenant (like an API key's)"],
  ["lib/invitations/answer-invitation.ts: orgInvitation.findMany", "the invited person's own invitations: their account's email (from the session) decides, across organizations"],
]);

function sourceFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return (fs.readdirSync(abs, { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f) && !f.includes("generated"))
    .map((f) => path.join(dir, f));
}

function propertyName(p: ts.ObjectLiteralElementLike): string | null {
  if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  return null;
}

/** "file: model.method (line)" for every tenant-owned query whose literal where names no tenant. */
function unscopedQueries(file: string, text = fs.readFileSync(path.join(ROOT, file), "utf8")): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isPropertyAccessExpression(node.expression.expression)) {
      const method = node.expression.name.text;
      const model = node.expression.expression.name.text;
      const arg = node.arguments[0];
      if (TENANT_MODELS.has(model) && QUERY_METHODS.has(method) && (!arg || ts.isObjectLiteralExpression(arg))) {
        const where = arg?.properties.find((p) => propertyName(p) === "where");
        const literal = where && ts.isPropertyAssignment(where) && ts.isObjectLiteralExpression(where.initializer) ? where.initializer : null;
        const judged = !where || literal !== null;
        const scoped = literal?.properties.some((p) => TENANT_KEYS.has(propertyName(p) ?? "")) ?? false;
        const key = `${file}: ${model}.${method}`;
        if (judged && !scoped && !ALLOWED.has(key)) {
          found.push(`${key} (line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1})`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("tenant scope inside every query", () => {
  it("no Prisma call on a tenant-owned model filters by id alone (or by nothing)", () => {
    const files = DIRS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => unscopedQueries(file))).toEqual([]);
  });

  it("the check itself notices a bare-id write and an unfiltered list, and accepts scoped ones", () => {
    const probe = [
      "tx.skill.update({ where: { id: skill.id }, data });",
      "tx.skill.update({ where: { id: skill.id, workspaceId }, data });",
      "db().file.findMany({ select: { id: true } });",
      "db().connector.findFirst({ where: managedConnectorWhere(caller, id) });",
      "db().mcpRole.findFirst({ where: { id, AND: [scope] } });",
    ].join("\n");
    expect(unscopedQueries("probe.ts", probe)).toEqual(["probe.ts: skill.update (line 1)", "probe.ts: file.findMany (line 3)"]);
  });
});
