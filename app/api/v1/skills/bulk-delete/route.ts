import { apiRoute } from "@/lib/api/handler";
import { skillEndpoints as e } from "@/lib/skills/endpoints";
import { deleteSkills } from "@/lib/skills/skills";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.deleteSkills, ({ caller, body }) => deleteSkills(caller, body.ids));
