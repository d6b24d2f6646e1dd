import { apiRoute } from "@/lib/api/handler";
import { fileEndpoints as e } from "@/lib/files/endpoints";
import { fileNotReady } from "@/lib/files/files-placeholder";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getFileContent, ({ caller, params }) => fileNotReady(caller, params.fileId));
