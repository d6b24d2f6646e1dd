import type { Metadata } from "next";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { AuthPage } from "@/components/shell/auth-page";

export const metadata: Metadata = { title: "Page not found" };

/**
 * Any address the app has no page for (a mistyped section such as /connectorz). Shown outside
 * the console's shell, to the signed-out too, so it is the sign-in page's single card; a
 * missing object inside the console gets app/(admin)/not-found.tsx, in the shell.
 */
export default function NotFound() {
  return (
    <AuthPage title="Page not found" description="There is nothing at this address. The link may be mistyped, or the page may have moved.">
      <Link href="/" className={buttonVariants({ variant: "primary", className: "w-full" })}>
        Go to the overview
      </Link>
    </AuthPage>
  );
}
