/** How long ago a time was, as people say it: `just now`, `42 s ago`, `3 min ago`, `5 h ago`, `2 days ago`. */

/** `iso` relative to `nowMs`; a time over 30 days ago (or unreadable) is shown as its ISO date and time. */
export function formatRelativeTime(iso: string, nowMs: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((nowMs - then) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days <= 30) return `${days} days ago`;
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
