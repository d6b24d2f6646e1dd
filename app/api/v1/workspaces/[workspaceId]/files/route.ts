import { apiRoute } from "@/lib/api/handler";
import { fileEndpoints as e } from "@/lib/files/endpoints";
import { listFiles } from "@/lib/files/files";
import { uploadFromRequest } from "@/lib/files/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listFiles, ({ caller, params, query }) => listFiles(caller, params.workspaceId, query));
// The multipart body is the domain's to stream; the wrapper must not read it as JSON.
export const POST = apiRoute({ ...e.uploadFile, body: undefined }, ({ caller, params, request }) => uploadFromRequest(caller, params.workspaceId, request));
