import { apiRoute } from "@/lib/api/handler";
import { userEndpoints as e } from "@/lib/users/endpoints";
import { createUser } from "@/lib/users/users";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.createUser, ({ caller, body }) => createUser(caller, body));
