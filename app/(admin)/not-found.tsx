import type { Metadata } from "next";
import { NotFoundMessage } from "@/components/shell/not-found-message";

export const metadata: Metadata = { title: "Page not found" };

/**
 * An admin page whose object does not exist (notFound(): a deleted server, a mistyped id, an
 * organization the user is not in): the 404 page inside the console's shell, not Next's bare one.
 */
export default function AdminNotFound() {
  return <NotFoundMessage />;
}
