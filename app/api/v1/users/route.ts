import { Answer, apiRoute } from "@/lib/api/handler";
import { userEndpoints as e } from "@/lib/users/endpoints";
import { createUser } from "@/lib/users/users";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.createUser, async ({ caller, body }) => {
  const created = await createUser(caller, body);
  return created.kind === "user" ? created.user : new Answer(202, created.invitation);
});
