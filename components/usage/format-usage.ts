/** How the usage pages write their numbers. */

export function formatCount(n: number): string {
  return new Intl.NumberFormat("en", { notation: n >= 100_000 ? "compact" : "standard" }).format(n);
}

export function formatRate(rate: number): string {
  if (rate === 0) return "0%";
  const percent = rate * 100;
  return `${percent < 1 ? percent.toFixed(2) : percent < 10 ? percent.toFixed(1) : Math.round(percent)}%`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return "–";
  return ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

/** "14:00" for hourly points, "Mon 12:00" for 6-hourly, "Dec 3" for daily (UTC). */
export function formatPointLabel(iso: string, stepSeconds: number): string {
  const d = new Date(iso);
  if (stepSeconds >= 86_400) return d.toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });
  const time = d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return stepSeconds > 3600 ? `${d.toLocaleDateString("en", { weekday: "short", timeZone: "UTC" })} ${time}` : time;
}
