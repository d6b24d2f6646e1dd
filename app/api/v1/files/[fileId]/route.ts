import { apiRoute } from "@/lib/api/handler";
import { fileEndpoints as e } from "@/lib/files/endpoints";
import { deleteFile, getFile, updateFile } from "@/lib/files/files";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getFile, ({ caller, params }) => getFile(caller, params.fileId));
export const PATCH = apiRoute(e.updateFile, ({ caller, params, body, ifMatch }) => updateFile(caller, params.fileId, body, ifMatch));
export const DELETE = apiRoute(e.deleteFile, ({ caller, params, ifMatch }) => deleteFile(caller, params.fileId, ifMatch));
