/** Operations of the app frame: who we are connected to, the wallet, profiles, settings. */
import { z } from 'zod';
import { op, type AppErrorShape } from './define';
import { CONNECTION_SWITCH_TOPICS } from './topics';
import { checkServiceAddress } from '../serviceAddress';

export interface ConnectionInfo {
  profileId: string;
  profileName: string;
  kind: 'sandbox' | 'live';
  baseUrl: string;
}

export interface AppInfo {
  version: string;
  shell: 'electron' | 'web' | 'cli' | 'test';
  dataDir: string;
  connection: ConnectionInfo;
  /** Why a live token cannot be saved on this computer (the desktop app without a keyring); null when it can. */
  tokenRefusal: AppErrorShape | null;
  /**
   * Today as a Lagos day (YYYY-MM-DD) on the service's clock, as the connection in use last told it
   * (the day the Dashboard's "today" and the log's times are on), for the days a form proposes.
   */
  today: string;
}

export interface BalanceView {
  accountName: string;
  balanceKobo: number;
  currency: string;
  accountNumber: string;
  readAt: string;
}

/** Whether the service of the connection in use answers (the header shows it). */
export type ConnectionCheck =
  { reachable: true; checkedAt: string; latencyMs: number } | { reachable: false; checkedAt: string; code: string; message: string; hint: string | null };

export interface ProfileView {
  id: string;
  name: string;
  kind: 'sandbox' | 'live';
  baseUrl: string | null;
  hasToken: boolean;
  active: boolean;
  /** Something to know about the address (plain http:// on this computer), or null. */
  warning: string | null;
}

/** What `profiles.save` did with the token: kept, stored, or cleared because the address changed. */
export type SavedProfileView = ProfileView & { tokenCleared: boolean };

const serviceAddress = z
  .string()
  .trim()
  .superRefine((u, ctx) => {
    const check = checkServiceAddress(u);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.reason });
  });

export const appOperations = {
  'app.info': op(z.object({}), 'Version, shell, data folder and the connection in use').returns<AppInfo>(),
  'account.balance': op(z.object({}), "The organisation's wallet balance, read live").returns<BalanceView>(),
  'profiles.list': op(z.object({}), 'Connection profiles').returns<ProfileView[]>(),
  'profiles.save': op(
    z.object({
      id: z.string().min(1).optional(),
      name: z.string().trim().min(1, 'Give the profile a name'),
      baseUrl: serviceAddress,
      token: z.string().trim().min(1).optional(),
    }),
    'Create or update a live profile; the token goes to the protected store only, bound to the address (a new address clears it)',
    // Settings re-reads the list itself; no other view shows profiles.
    { invalidates: [] },
  ).returns<SavedProfileView>(),
  'connection.check': op(z.object({}), 'Whether the service of the connection in use answers now (reads the wallet; buys nothing)').returns<ConnectionCheck>(),
  'profiles.activate': op(
    z.object({
      id: z.string().min(1),
      /** A LIVE profile spends real money: the user confirmed switching to it. */
      confirmLive: z.boolean().optional(),
    }),
    'Connect to a profile; a LIVE one only with confirmLive',
    { invalidates: CONNECTION_SWITCH_TOPICS },
  ).returns<ConnectionInfo>(),
  // Deleting the profile in use switches to the sandbox: its handler announces that switch (the
  // one change here that depends on the input); deleting another profile changes no view but Settings.
  'profiles.delete': op(z.object({ id: z.string().min(1) }), 'Delete a live profile and its token', { invalidates: [] }).returns<{ deleted: true }>(),
} as const;
