import { apiRoute } from "@/lib/api/handler";
import { fileEndpoints as e } from "@/lib/files/endpoints";
import { fileNotReady } from "@/lib/files/files-placeholder";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getFile, ({ caller, params }) => fileNotReady(caller, params.fileId));
export const PATCH = apiRoute(e.updateFile, ({ caller, params }) => fileNotReady(caller, params.fileId));
export const DELETE = apiRoute(e.deleteFile, ({ caller, params }) => fileNotReady(caller, params.fileId));
