/** The host side of the ai.nimblebrain/host-resources extension: request handlers and their errors. */
export { handleHostResourcesRead, type HostResourcesReadResult } from "@/lib/host-resources/read";
export { handleHostResourcesList, type HostResourcesListResult, type HostResource } from "@/lib/host-resources/list";
export { HostResourcesError, isHostResourcesError } from "@/lib/host-resources/errors";
