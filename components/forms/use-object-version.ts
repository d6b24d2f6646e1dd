"use client";

import { useMemo, useState } from "react";

/**
 * The version (ETag) of an object an edit form saves, sent with each save so that a save over
 * somebody else's newer change is refused rather than silently overwriting it. Shared by every
 * form of the page that edits the same object (`key`, e.g. "server:<id>"): after one of them
 * saves, the others send the new version, not the one the page loaded. Mounting — a fresh load
 * of the page — starts again from the version the page loaded.
 */

const versions = new Map<string, string>();

export interface ObjectVersion {
  /** The version to send with the next save. */
  current(): string;
  /** Notes the version a successful save answered. */
  track(result: { ok: boolean; version?: string }): void;
}

export function useObjectVersion(key: string, loaded: string): ObjectVersion {
  useState(() => versions.set(key, loaded));
  return useMemo(
    () => ({
      current: () => versions.get(key) ?? loaded,
      track: (result) => {
        if (result.ok && result.version) versions.set(key, result.version);
      },
    }),
    [key, loaded],
  );
}
