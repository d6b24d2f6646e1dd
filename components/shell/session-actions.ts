"use server";

import { redirect } from "next/navigation";
import { endSession } from "@/lib/auth/session-cookie";

export async function signOutAction(): Promise<void> {
  await endSession();
  redirect("/signin");
}
