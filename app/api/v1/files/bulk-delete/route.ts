import { apiRoute } from "@/lib/api/handler";
import { fileEndpoints as e } from "@/lib/files/endpoints";
import { deleteFiles } from "@/lib/files/files";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.deleteFiles, ({ caller, body }) => deleteFiles(caller, body.ids));
