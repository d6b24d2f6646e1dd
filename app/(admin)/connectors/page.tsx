import { redirectToSection } from "@/app/(admin)/_lib/short-link";

export default async function Page() {
  return redirectToSection("org", "connectors");
}
