import type { Caller } from "@/lib/auth/caller";
import { exportAuditEvents } from "@/lib/audit/export-audit-events";
import type { AuditExportQuery } from "@/lib/audit/schemas";
import { contentDisposition } from "@/lib/files/http";

/** HTTP adapter of the audit export: the chunks streamed as a download, one page of events at a time. */
export async function auditExportResponse(caller: Caller, orgId: string, query: AuditExportQuery): Promise<Response> {
  const file = await exportAuditEvents(caller, orgId, query);
  const encoder = new TextEncoder();
  const iterator = file.chunks[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": file.contentType,
      "content-disposition": contentDisposition(file.filename),
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
}
