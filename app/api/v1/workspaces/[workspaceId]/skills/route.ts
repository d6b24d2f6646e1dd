import { apiRoute } from "@/lib/api/handler";
import { skillEndpoints as e } from "@/lib/skills/endpoints";
import { createSkill, listSkills } from "@/lib/skills/skills";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listSkills, ({ caller, params, query }) => listSkills(caller, params.workspaceId, query));
export const POST = apiRoute(e.createSkill, ({ caller, params, body }) => createSkill(caller, params.workspaceId, body));
