/**
 * The sandbox's own log, read over HTTP (GET /logEntries, every page). Kept free of Vitest so the
 * end-to-end tests (Playwright) can read the service's records too.
 */
export interface LogRow {
  transaction_id: string;
  description: string;
  phone_number: string;
  amount: string;
  status: string;
  type: string;
  network: string;
}

/** Every entry of the sandbox's log for this organisation, all pages, over HTTP (`T`: the fields a test reads). */
export async function allLogEntries<T extends LogRow = LogRow>(baseUrl: string, token: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}/logEntries?page=${page}&perPage=100`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: { Items: T[]; TotalPages: number } };
    out.push(...body.data.Items);
    if (page >= body.data.TotalPages || body.data.Items.length === 0) return out;
  }
}
