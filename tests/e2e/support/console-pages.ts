/**
 * Every page file of the console and the URLs that open it in a browser sweep ("Playwright +
 * axe in light and dark on every page (the graph included), plus a 390 px pass over every page
 * asserting no horizontal scroll"). tests/unit/console-pages-covered.test.ts fails when a
 * page.tsx is added under app/ without an entry here, so the sweep stays complete.
 */

/** The objects a sweep's test seeded, whose pages it opens. */
export interface SeededIds {
  org: string;
  workspace: string;
  connector: string;
  server: string;
  role: string;
  skill: string;
}

export interface ConsolePage {
  /** The URLs that show this page file (empty only with `none`). */
  urls: (ids: SeededIds) => string[];
  /** Opened without a session (the sign-in and invitation pages). */
  signedOut?: true;
  /** Why the page has no URL of its own to sweep. */
  none?: string;
}

const org = (ids: SeededIds) => `/orgs/${ids.org}`;
const ws = (ids: SeededIds) => `/w/${ids.workspace}`;
const connector = (ids: SeededIds) => `${org(ids)}/connectors/${ids.connector}`;

export const CONSOLE_PAGES: Record<string, ConsolePage> = {
  "app/(admin)/page.tsx": { urls: () => ["/"] },
  // The short links redirect to the section of the place used last: swept where they land.
  "app/(admin)/api-keys/page.tsx": { urls: () => ["/api-keys"] },
  "app/(admin)/audit/page.tsx": { urls: () => ["/audit"] },
  "app/(admin)/connectors/page.tsx": { urls: () => ["/connectors"] },
  "app/(admin)/files/page.tsx": { urls: () => ["/files"] },
  "app/(admin)/roles/page.tsx": { urls: () => ["/roles"] },
  "app/(admin)/servers/page.tsx": { urls: () => ["/servers"] },
  "app/(admin)/skills/page.tsx": { urls: () => ["/skills"] },
  "app/(admin)/invitations/page.tsx": { urls: () => ["/invitations"] },
  "app/(admin)/me/account/page.tsx": { urls: () => ["/me/account"] },
  "app/(admin)/me/api-keys/page.tsx": { urls: () => ["/me/api-keys"] },
  "app/(admin)/me/connected-apps/page.tsx": { urls: () => ["/me/connected-apps"] },
  "app/(admin)/me/connections/page.tsx": { urls: () => ["/me/connections"] },
  "app/(admin)/me/servers/page.tsx": { urls: () => ["/me/servers"] },
  "app/(admin)/orgs/new/page.tsx": { urls: () => ["/orgs/new"] },
  "app/(admin)/orgs/[orgId]/page.tsx": { urls: (ids) => [org(ids)] },
  "app/(admin)/orgs/[orgId]/audit/page.tsx": { urls: (ids) => [`${org(ids)}/audit`] },
  "app/(admin)/orgs/[orgId]/connected-apps/page.tsx": { urls: (ids) => [`${org(ids)}/connected-apps`] },
  "app/(admin)/orgs/[orgId]/connectors/page.tsx": { urls: (ids) => [`${org(ids)}/connectors`] },
  "app/(admin)/orgs/[orgId]/connectors/new/page.tsx": { urls: (ids) => [`${org(ids)}/connectors/new?type=http`, `${org(ids)}/connectors/new?type=mcp`] },
  "app/(admin)/orgs/[orgId]/connectors/[connectorId]/page.tsx": { urls: (ids) => [connector(ids)] },
  "app/(admin)/orgs/[orgId]/connectors/[connectorId]/health/page.tsx": { urls: (ids) => [`${connector(ids)}/health`] },
  "app/(admin)/orgs/[orgId]/connectors/[connectorId]/instructions/page.tsx": { urls: (ids) => [`${connector(ids)}/instructions`] },
  "app/(admin)/orgs/[orgId]/connectors/[connectorId]/resources/page.tsx": { urls: (ids) => [`${connector(ids)}/resources`] },
  "app/(admin)/orgs/[orgId]/connectors/[connectorId]/tools/page.tsx": { urls: (ids) => [`${connector(ids)}/tools`] },
  "app/(admin)/orgs/[orgId]/graph/page.tsx": { urls: (ids) => [`${org(ids)}/graph`] },
  "app/(admin)/orgs/[orgId]/members/page.tsx": { urls: (ids) => [`${org(ids)}/members`] },
  "app/(admin)/orgs/[orgId]/roles/page.tsx": { urls: (ids) => [`${org(ids)}/roles`] },
  "app/(admin)/orgs/[orgId]/roles/[roleId]/page.tsx": { urls: (ids) => [`${org(ids)}/roles/${ids.role}`] },
  "app/(admin)/orgs/[orgId]/settings/page.tsx": { urls: (ids) => [`${org(ids)}/settings`] },
  "app/(admin)/orgs/[orgId]/usage/page.tsx": { urls: (ids) => [`${org(ids)}/usage`] },
  "app/(admin)/orgs/[orgId]/workspaces/page.tsx": { urls: (ids) => [`${org(ids)}/workspaces`] },
  "app/(admin)/w/[workspaceId]/page.tsx": { urls: (ids) => [ws(ids)] },
  "app/(admin)/w/[workspaceId]/api-keys/page.tsx": { urls: (ids) => [`${ws(ids)}/api-keys`] },
  "app/(admin)/w/[workspaceId]/files/page.tsx": { urls: (ids) => [`${ws(ids)}/files`] },
  "app/(admin)/w/[workspaceId]/members/page.tsx": { urls: (ids) => [`${ws(ids)}/members`] },
  "app/(admin)/w/[workspaceId]/preview/page.tsx": { urls: (ids) => [`${ws(ids)}/preview`] },
  "app/(admin)/w/[workspaceId]/servers/page.tsx": { urls: (ids) => [`${ws(ids)}/servers`] },
  "app/(admin)/w/[workspaceId]/servers/[serverId]/page.tsx": { urls: (ids) => [`${ws(ids)}/servers/${ids.server}`] },
  "app/(admin)/w/[workspaceId]/settings/page.tsx": { urls: (ids) => [`${ws(ids)}/settings`] },
  "app/(admin)/w/[workspaceId]/skills/page.tsx": { urls: (ids) => [`${ws(ids)}/skills`] },
  "app/(admin)/w/[workspaceId]/skills/new/page.tsx": { urls: (ids) => [`${ws(ids)}/skills/new`] },
  "app/(admin)/w/[workspaceId]/skills/[skillId]/page.tsx": { urls: (ids) => [`${ws(ids)}/skills/${ids.skill}`] },
  "app/(admin)/w/[workspaceId]/usage/page.tsx": { urls: (ids) => [`${ws(ids)}/usage`] },
  // A consent request the app cannot read is answered by the page itself ("not valid").
  "app/oauth/consent/page.tsx": { urls: () => ["/oauth/consent"] },
  "app/signin/page.tsx": { urls: () => ["/signin"], signedOut: true },
  // With an owner already set up (every test database has users) it leads to sign-in.
  "app/setup/page.tsx": { urls: () => ["/setup"], signedOut: true },
  "app/invite/[token]/page.tsx": { urls: () => ["/invite/not-a-real-link"], signedOut: true },
};

/** The URLs to sweep, signed in and signed out, in the order of the table. */
export function consoleUrls(ids: SeededIds): { signedIn: string[]; signedOut: string[] } {
  const pages = Object.values(CONSOLE_PAGES);
  return {
    signedIn: pages.filter((p) => !p.signedOut).flatMap((p) => p.urls(ids)),
    signedOut: pages.filter((p) => p.signedOut).flatMap((p) => p.urls(ids)),
  };
}
