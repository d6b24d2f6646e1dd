/**
 * What every admin server action answers. Types only: client components import this file.
 * `fieldErrors` are keyed by the same dotted paths as the API's problem `errors[].path`
 * (e.g. `config.baseUrl`, `tools.0.name`), which are also react-hook-form field names.
 */
export type ActionResult<T = null> =
  /** `version`: the saved object's new version, for an edit that sent the one it loaded. */
  | { ok: true; data: T; version?: string }
  /** `stale`: somebody else changed the object after the form loaded it; nothing was saved. */
  | { ok: false; error: string; fieldErrors?: Record<string, string>; stale?: true };
