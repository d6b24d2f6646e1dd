"use server";

import { z } from "zod";
import { runAction, runAnonymousAction } from "@/app/(admin)/_lib/run-action";
import { acceptInvitationLink, joinWithNewAccount } from "@/lib/invitations/answer-invitation-link";
import { JoinWithNewAccountBody } from "@/lib/invitations/schemas";

const Token = z.string().max(200);

/** The signed-in person accepts the invitation the link names (theirs only). */
export async function acceptInvitationLinkAction(token: string) {
  return runAction((caller) => acceptInvitationLink(caller, Token.parse(token)));
}

/** Nobody has the invited email yet: make the account and join (the link's secret authorizes). */
export async function joinWithNewAccountAction(token: string, input: unknown) {
  return runAnonymousAction(() => joinWithNewAccount(Token.parse(token), JoinWithNewAccountBody.parse(input)));
}
