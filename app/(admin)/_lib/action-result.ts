/**
 * What every admin server action answers. Types only: client components import this file.
 * `fieldErrors` are keyed by the same dotted paths as the API's problem `errors[].path`
 * (e.g. `config.baseUrl`, `tools.0.name`), which are also react-hook-form field names.
 */
export type ActionResult<T = null> =
  | { ok: true; data: T }
  | { ok: false; error: string; fieldErrors?: Record<string, string> };
