import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { signInWithPassword } from "@/lib/auth/password-sign-in";
import { TOO_MANY_ATTEMPTS_ERROR } from "@/lib/auth/sign-in-messages";
import { SESSION_MAX_AGE_SEC, authSecret, usesSecureCookies } from "@/lib/auth/session-token";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";
import { setting } from "@/lib/config/settings";

function headersFromRecord(record: Record<string, unknown> | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record ?? {})) {
    if (typeof value === "string") headers.set(name, value);
  }
  return headers;
}

const credentialsProvider = CredentialsProvider({
  id: "credentials",
  name: "Email and password",
  credentials: {
    email: { label: "Email", type: "email" },
    password: { label: "Password", type: "password" },
  },
  async authorize(credentials, request) {
    const result = await signInWithPassword({
      email: credentials?.email ?? "",
      password: credentials?.password ?? "",
      clientIp: clientIpFromHeaders(headersFromRecord(request?.headers)),
    });
    if (result.ok) return result.user;
    if (result.reason === "locked") {
      throw new Error(`${TOO_MANY_ATTEMPTS_ERROR}:${Math.ceil(result.retryAfterMs / 1000)}`);
    }
    return null;
  },
});

let cachedOptions: AuthOptions | null = null;

/**
 * next-auth's configuration, built on first use: the secret may have to be read from (or
 * written to) ./.data, which must not happen while `next build` imports the route.
 */
export function getAuthOptions(): AuthOptions {
  // NEXTAUTH_URL is optional: without it next-auth would build its redirects on
  // http://localhost:3000. Trusting the request's Host (and Next's x-forwarded-proto) instead
  // only shapes redirects back to that same requester.
  if (!setting("NEXTAUTH_URL")) process.env.AUTH_TRUST_HOST ??= "true";
  cachedOptions ??= {
    secret: authSecret(),
    providers: [credentialsProvider],
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SEC },
    jwt: { maxAge: SESSION_MAX_AGE_SEC },
    useSecureCookies: usesSecureCookies(),
    pages: { signIn: "/signin", error: "/signin" },
    callbacks: {
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        session.user = { id: token.sub ?? "", email: token.email ?? "", name: token.name ?? null };
        return session;
      },
    },
  };
  return cachedOptions;
}
