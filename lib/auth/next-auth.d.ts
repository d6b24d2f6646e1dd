import "next-auth";

declare module "next-auth" {
  /** Our sessions always carry the user's id (the JWT `sub`). */
  interface Session {
    user: { id: string; email: string; name: string | null };
  }
}
