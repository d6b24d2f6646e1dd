import { apiRoute } from "@/lib/api/handler";
import { fileEndpoints as e } from "@/lib/files/endpoints";
import { fileContentResponse } from "@/lib/files/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getFileContent, ({ caller, params }) => fileContentResponse(caller, params.fileId));
