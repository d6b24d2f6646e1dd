import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { db } from "@/lib/db/client";
import type { GrantScope } from "@/lib/oauth/consent-choice";

/**
 * Stores what the user chose on the consent page with the grant of (client, user, endpoint),
 * replacing an earlier choice for the same endpoint (and lifting its revocation). The org's
 * version moves with it: a cached resolution of the earlier choice must not outlive it.
 */
export async function saveGrant(input: { userId: string; clientId: string; clientName: string; resource: string; scope: GrantScope }): Promise<void> {
  const { userId, clientId, resource, scope } = input;
  await configVersion.withAnnouncedChanges(() =>
    db().$transaction(async (tx) => {
      const previous = await tx.oauthGrant.findFirst({ where: { clientId, userId, resource }, select: { id: true, orgId: true } });
      const data = { orgId: scope.orgId, workspaceId: scope.workspaceId, serverId: scope.serverId, serverIds: scope.serverIds, revokedAt: null };
      if (previous) {
        await tx.oauthGrant.updateMany({ where: { id: previous.id, orgId: previous.orgId }, data: { ...data, createdAt: new Date(), lastUsedAt: null } });
        if (previous.orgId !== scope.orgId) await configVersion.bump(tx, previous.orgId);
      } else {
        await tx.oauthGrant.create({ data: { ...data, userId, clientId, resource } });
      }
      await configVersion.bump(tx, scope.orgId);
      await recordAuditEvent({ kind: "user", userId, apiKey: null }, {
        orgId: scope.orgId,
        workspaceId: scope.workspaceId,
        action: "oauth_app.allow",
        targetType: "oauth_client",
        targetId: clientId,
        data: { clientName: input.clientName, resource, serverIds: scope.serverIds },
      }, tx);
    }),
  );
}
