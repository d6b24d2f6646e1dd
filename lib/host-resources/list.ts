import { db } from "@/lib/db/client";
import type { HostResourcesContext } from "@/lib/host-resources/context";
import { fileUri, filesVisibleToUser } from "@/lib/files/file-view";
import { parseListParams } from "@/lib/host-resources/params";
import { type AuditTarget, runHostRequest } from "@/lib/host-resources/guard";
import { storable } from "@/lib/connectors/runtime/audit-excerpt";
import { listTooLarge } from "@/lib/host-resources/errors";
import { setting } from "@/lib/config/settings";

/** One entry of the specification's ListResourcesResult. */
export interface HostResource {
  uri: string;
  name: string;
  mimeType: string;
  size: number;
}

export interface HostResourcesListResult {
  resources: HostResource[];
}

/**
 * `ai.nimblebrain/resources/list` (seed 000): every file the connection's user can see in the
 * connection's workspace, in one response (no pagination: a cursor fails with -32602).
 * `params._meta.filter` narrows it: `scheme` (only `files`), `mimeType` (exact), `tags`
 * (files carrying every listed tag). At most HOST_RESOURCES_LIST_MAX entries: past that the list
 * fails with -32005 (errors.ts says why), read no further than one row past the cap.
 */
export async function handleHostResourcesList(ctx: HostResourcesContext, params: unknown): Promise<HostResourcesListResult> {
  const target: AuditTarget = { targetType: "workspace", targetId: ctx.workspaceId, data: {} };
  return runHostRequest(ctx, "host_resources/list", target, async () => {
    const filter = parseListParams(params);
    // The upstream chose this text; PostgreSQL refuses U+0000 and lone surrogates, which no
    // stored MIME type or tag holds: such a filter matches nothing, and is audited cleaned.
    const clean = { ...(filter.mimeType !== undefined ? { mimeType: storable(filter.mimeType) } : {}), ...(filter.tags ? { tags: filter.tags.map(storable) } : {}) };
    target.data.filter = clean;
    const matchesNothing = clean.mimeType !== filter.mimeType || clean.tags?.some((t, i) => t !== filter.tags![i]);
    const maxResources = setting("HOST_RESOURCES_LIST_MAX");
    const rows = matchesNothing ? [] : await db().file.findMany({
      where: {
        orgId: ctx.orgId,
        workspaceId: ctx.workspaceId,
        AND: [filesVisibleToUser(ctx.userId)],
        ...(filter.mimeType !== undefined ? { mimeType: filter.mimeType } : {}),
        ...(filter.tags?.length ? { tags: { hasEvery: filter.tags } } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true, name: true, mimeType: true, size: true },
      take: maxResources + 1,
    });
    target.data.count = rows.length;
    if (rows.length > maxResources) throw listTooLarge(maxResources);
    return { resources: rows.map((r) => ({ uri: fileUri(r.id), name: r.name, mimeType: r.mimeType, size: r.size })) };
  });
}
