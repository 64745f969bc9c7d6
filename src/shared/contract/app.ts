/** Operations of the app frame: who we are connected to, the wallet, profiles, settings. */
import { z } from 'zod';
import { op, type AppErrorShape } from './define';

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
  | { reachable: true; checkedAt: string; latencyMs: number }
  | { reachable: false; checkedAt: string; code: string; message: string; hint: string | null };

export interface ProfileView {
  id: string;
  name: string;
  kind: 'sandbox' | 'live';
  baseUrl: string | null;
  hasToken: boolean;
  active: boolean;
}

const httpUrl = z
  .string()
  .trim()
  .url('Enter the service address as a full URL, like https://api.example.com')
  .refine((u) => /^https?:\/\//i.test(u), 'The service address must start with http:// or https://');

export const appOperations = {
  'app.info': op(z.object({}), 'Version, shell, data folder and the connection in use').returns<AppInfo>(),
  'account.balance': op(z.object({}), "The organisation's wallet balance, read live").returns<BalanceView>(),
  'profiles.list': op(z.object({}), 'Connection profiles').returns<ProfileView[]>(),
  'profiles.save': op(
    z.object({
      id: z.string().min(1).optional(),
      name: z.string().trim().min(1, 'Give the profile a name'),
      baseUrl: httpUrl,
      token: z.string().trim().min(1).optional(),
    }),
    'Create or update a live profile; the token goes to the protected store only',
  ).returns<ProfileView>(),
  'connection.check': op(z.object({}), 'Whether the service of the connection in use answers now (reads the wallet; buys nothing)').returns<ConnectionCheck>(),
  'profiles.activate': op(
    z.object({
      id: z.string().min(1),
      /** A LIVE profile spends real money: the user confirmed switching to it. */
      confirmLive: z.boolean().optional(),
    }),
    'Connect to a profile; a LIVE one only with confirmLive',
  ).returns<ConnectionInfo>(),
  'profiles.delete': op(z.object({ id: z.string().min(1) }), 'Delete a live profile and its token').returns<{ deleted: true }>(),
} as const;
