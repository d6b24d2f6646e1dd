import { LogOut } from "lucide-react";
import { Button } from "@/components/ui/button";
import { signOutAction } from "@/components/shell/session-actions";

/** A form, not a link: signing out changes state, and it works without JavaScript. */
export function SignOutButton() {
  return (
    <form action={signOutAction}>
      <Button type="submit" variant="outline" size="sm">
        <LogOut aria-hidden />
        Sign out
      </Button>
    </form>
  );
}
