import { readyResponse } from "@/lib/ops/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = (request: Request) => readyResponse(request);
