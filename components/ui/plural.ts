/** "1 tool", "2 tools", "1 entity", "3 entities": a count with its noun (regular English plurals). */
export function plural(count: number, noun: string, many?: string): string {
  if (count === 1) return `1 ${noun}`;
  return `${count} ${many ?? (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`)}`;
}
