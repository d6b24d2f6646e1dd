/** The host side of the ai.nimblebrain/host-resources extension: request handlers, their errors, and the serving of them. */
export { handleHostResourcesRead, type HostResourcesReadResult } from "@/lib/host-resources/read";
export { handleHostResourcesList, type HostResourcesListResult, type HostResource } from "@/lib/host-resources/list";
export { HostResourcesError, isHostResourcesError } from "@/lib/host-resources/errors";
export { attachHostResources, type HostResourcesAttachment, type HostResourcesHandlers } from "@/lib/host-resources/serve-on-connection";
export type { HostResourcesContext } from "@/lib/host-resources/context";
