import { apiRoute } from "@/lib/api/handler";
import { fileEndpoints as e } from "@/lib/files/endpoints";
import { workspaceFilesNotReady } from "@/lib/files/files-placeholder";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listFiles, ({ caller, params }) => workspaceFilesNotReady(caller, params.workspaceId));
// The multipart body is the domain's to stream; the wrapper must not read it as JSON.
export const POST = apiRoute({ ...e.uploadFile, body: undefined }, ({ caller, params }) => workspaceFilesNotReady(caller, params.workspaceId));
