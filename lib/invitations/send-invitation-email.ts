import nodemailer from "nodemailer";
import { setting } from "@/lib/config/settings";
import { logger } from "@/lib/log";
import type { InvitationView } from "@/lib/invitations/invitation-view";

/**
 * Emails an invitation's link when SMTP_URL is set ("email sent when SMTP is configured, the
 * link shown to copy otherwise"). True when the SMTP server took the message. A refused or
 * unreachable server is logged and answers false: the invitation exists either way, and the
 * admin is shown the link to pass on instead.
 */
export async function sendInvitationEmail(invitation: InvitationView, link: string): Promise<boolean> {
  const smtpUrl = setting("SMTP_URL");
  if (!smtpUrl) return false;
  const transport = nodemailer.createTransport(smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  const inviter = invitation.invitedBy ? (invitation.invitedBy.name ?? invitation.invitedBy.email) : "An administrator";
  try {
    await transport.sendMail({
      from: setting("MAIL_FROM") ?? "Switchboard <no-reply@localhost>",
      to: invitation.email,
      subject: `You are invited to ${invitation.orgName} on Switchboard`,
      text: [
        `${inviter} invited you to join ${invitation.orgName} on Switchboard as ${article(invitation.role)} ${invitation.role}.`,
        "",
        `Accept the invitation: ${link}`,
        "",
        `The link works once and until ${invitation.expiresAt.toUTCString()}. If you did not expect it, ignore this email.`,
      ].join("\n"),
    });
    return true;
  } catch (err) {
    logger.warn({ err: String(err), invitationId: invitation.id }, "invitation email not sent; the admin is shown the link instead");
    return false;
  } finally {
    transport.close();
  }
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}
