import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { orgsVisibleTo } from "@/lib/tenancy/scopes";
import { asConnectorAuth } from "@/lib/connectors/upstream-auth/auth-settings";
import { pendingStepUp } from "@/lib/connectors/upstream-auth/step-up";

/**
 * What the console's Connections page shows a person (issue 24 point 3): every connector of
 * their organizations that uses OAuth, each with the connection that serves them — their own
 * for a `per_user` connector, the connector's one for a `shared` connector (with who made it) —
 * and what they may do about it. Never a token.
 */

export interface ConnectionSlot {
  connector: { id: string; name: string; orgId: string; orgName: string; connection: "per_user" | "shared" };
  /** Connect/reconnect/disconnect: always for one's own account; a shared connector: owners and admins. */
  mayManage: boolean;
  connection: {
    id: string;
    status: "connected" | "needs_reconnect";
    scopes: string[];
    /** A step-up pending (the upstream asked for more access): the scopes the next connect asks for. */
    stepUpScopes?: string[];
    expiresAt: Date | null;
    createdAt: Date;
    madeBy: { id: string; email: string; name: string | null } | null;
  } | null;
}

/** The OAuth connectors of the person's organizations, by organization then name, with the connection each uses for them. */
export async function listMyConnectionSlots(caller: Caller): Promise<ConnectionSlot[]> {
  assertCredentialMay(caller, "connections.own");
  if (caller.kind !== "user") return [];
  const connectors = await db().connector.findMany({
    where: { org: orgsVisibleTo(caller), auth: { path: ["type"], equals: "oauth" } },
    orderBy: [{ org: { name: "asc" } }, { name: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      orgId: true,
      auth: true,
      org: { select: { name: true, members: { where: { userId: caller.userId }, select: { role: true } } } },
      connections: {
        where: { OR: [{ slot: caller.userId }, { slot: "shared" }] },
        select: { id: true, slot: true, status: true, scopes: true, tokens: true, expiresAt: true, createdAt: true, madeBy: { select: { id: true, email: true, name: true } } },
      },
    },
  });
  return connectors.flatMap((row) => {
    const auth = asConnectorAuth(row.auth);
    if (auth.type !== "oauth") return [];
    const slot = auth.connection === "shared" ? "shared" : caller.userId;
    const found = row.connections.find((c) => c.slot === slot);
    const role = row.org.members[0]?.role;
    const stepUp = found ? pendingStepUp(found) : undefined;
    return [
      {
        connector: { id: row.id, name: row.name, orgId: row.orgId, orgName: row.org.name, connection: auth.connection },
        mayManage: auth.connection === "per_user" || role === "owner" || role === "admin",
        connection: found
          ? {
              id: found.id,
              status: found.status === "connected" ? "connected" : "needs_reconnect",
              scopes: Array.isArray(found.scopes) ? (found.scopes as string[]) : [],
              ...(stepUp ? { stepUpScopes: stepUp.split(" ") } : {}),
              expiresAt: found.expiresAt,
              createdAt: found.createdAt,
              madeBy: found.madeBy,
            }
          : null,
      },
    ];
  });
}
