"use server";

import { cookies, headers } from "next/headers";
import { runAction } from "@/app/(admin)/_lib/run-action";
import { changePassword } from "@/lib/auth/change-password";
import type { ChangePasswordBody } from "@/lib/auth/change-password-schema";
import { sessionCookieName } from "@/lib/auth/session-token";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";

export async function changePasswordAction(body: ChangePasswordBody) {
  return runAction(async (caller) =>
    changePassword(caller, body, { clientIp: clientIpFromHeaders(await headers()), sessionCookie: (await cookies()).get(sessionCookieName())?.value }),
  );
}
