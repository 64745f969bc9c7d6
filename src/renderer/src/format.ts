/** How the renderer shows money and time. Money arrives as integer kobo. */
import { APP_LOCALE, formatDate } from '../../shared/localDates';

export { formatNaira } from '../../shared/money';
export { formatDate, formatDateTime, formatDateTimeSeconds, formatDay, formatTime, localTimesIn } from '../../shared/localDates';

const count = new Intl.NumberFormat(APP_LOCALE);

export const formatCount = (n: number): string => count.format(n);

export function formatAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return formatDate(iso);
}
