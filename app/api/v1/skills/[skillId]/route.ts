import { apiRoute } from "@/lib/api/handler";
import { skillEndpoints as e } from "@/lib/skills/endpoints";
import { deleteSkill, getSkill, updateSkill } from "@/lib/skills/skills";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getSkill, ({ caller, params }) => getSkill(caller, params.skillId));
export const PATCH = apiRoute(e.updateSkill, ({ caller, params, body, ifMatch }) => updateSkill(caller, params.skillId, body, ifMatch));
export const DELETE = apiRoute(e.deleteSkill, ({ caller, params, ifMatch }) => deleteSkill(caller, params.skillId, ifMatch));
