/**
 * The composition root: one App per process, shared by every shell. It owns the database, the
 * settings, the connection (embedded sandbox or a live profile), the event bus and the services,
 * which are built on first use from their own modules (`app.service(createX)`), so adding a
 * service never means editing this file.
 */
import { normalizeBaseUrl } from '../shared/baseUrl';
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { startSandbox, type SandboxHandle } from '../sandbox';
import { AppError } from '../shared/appError';
import { checkServiceAddress } from '../shared/serviceAddress';
import type { DataTopic } from '../shared/contract/events';
import type { App, Connection, ServiceFactory, Session, ShellKind, SwitchRefused } from './appContext';
import { ServiceAnswers } from './api/serviceAnswers';
import { VendingClient } from './api/vendingClient';
import type { RetryOptions } from './api/retryBackoff';
import { EventBus } from './eventBus';
import { namedPathsPolicy, type FilePolicy } from './filePolicy';
import { secureDataFolder } from './privateFiles';
import { registerSecret } from './redact';
import { openDatabase, type Db } from './store/database';
import { ProfileStore, SANDBOX_PROFILE_ID, type Profile } from './store/profiles';
import { Settings } from './store/settings';
import { EnvFirstTokenStore, FileTokenStore, type TokenStore } from './store/tokenStore';
import { startBackgroundLoops } from './backgroundLoops';
import { purchaseFollower } from './purchases/purchaseFollower';
import { bulkPurchaseFollower } from './buying/jobFollowUp';
import { teamGate } from './buying/teamGate';
import { teamGates } from './team/teamGates';
import { standingTeam } from './standing/standingTeam';
import { teamStanding } from './team/teamStanding';

/**
 * The embedded sandbox's one organisation (its name in the sandbox's own database, kept across
 * starts). It is not a bearer token: each start of vendesk gives it a new random secret, so no
 * other local user can call the embedded sandbox and change its demo wallet.
 */
export const EMBEDDED_SANDBOX_ORG = 'vendesk-embedded-sandbox';
/** Demo history a new user sees on first start. */
export const EMBEDDED_SANDBOX_HISTORY = 1500;

export interface AppOptions {
  dataDir: string;
  shell: ShellKind;
  tokenStore?: TokenStore;
  /**
   * Where the team database password is kept (`team/teamLink.ts`): the Electron shell passes its
   * safeStorage store (`shell/teamPasswordStore.ts`); default `<data folder>/team/password.token`, 0600.
   */
  teamPasswordStore?: TokenStore;
  /** Which files a FileRef may name: the shell decides (default: paths, for the CLI and tests). */
  filePolicy?: FilePolicy;
  nativeBinding?: string;
  env?: NodeJS.ProcessEnv;
  /** Use this saved profile (name or id) instead of the active one, for this process only (CLI `--profile`). */
  profile?: string;
  /** Use this service instead of the saved profile (CLI `--base-url`, tests). Not saved. */
  connection?: { baseUrl: string; token: string; kind?: 'sandbox' | 'live'; name?: string };
  /** Embedded sandbox: demo entries created on first start (default EMBEDDED_SANDBOX_HISTORY). */
  sandboxSeedHistory?: number;
  /** The shell keeps the app open (desktop, browser): its background loops start with it (`backgroundLoops.ts`). */
  background?: boolean;
  /** The client's retries of calls safe to repeat (default `DEFAULT_RETRY`): tests not about the backoff shorten its delays. */
  clientRetry?: RetryOptions;
}

export type { App, Connection, Session, ShellKind } from './appContext';

/**
 * What fills each slot a lower folder declares (serviceSlot.ts): the team workspace answers the
 * one gate every purchase asks before it is bought and the claims of standing orders, and bulk
 * follows what purchases settle.
 */
const PLUGS = new Map<ServiceFactory<unknown>, ServiceFactory<unknown>>([
  [teamGate, teamGates],
  [purchaseFollower, bulkPurchaseFollower],
  [standingTeam, teamStanding],
]);

/** What a session's `refuseIfSwitched` says, by what was refused (appContext.ts `Session`). */
const SWITCH_REFUSED = {
  purchase: { changed: 'The connection changed while the purchase was being prepared.', nothing: 'Nothing was bought.', again: 'buy again' },
  message: { changed: 'The connection changed while the message was being prepared.', nothing: 'Nothing was sent.', again: 'send it again' },
  file: { changed: 'The connection changed while the file was being checked.', nothing: 'Nothing was saved or bought.', again: 'check the file again' },
} as const satisfies Record<SwitchRefused, unknown>;

/** The App (appContext.ts) as this process builds it: only `createApp` makes one. */
class VendeskApp implements App {
  readonly events = new EventBus();
  readonly settings: Settings;
  /** Which files a FileRef may name, as the shell injected it. */
  readonly files: FilePolicy;
  readonly profiles: ProfileStore;
  /** The team database password's store (see `AppOptions.teamPasswordStore`). */
  readonly teamPasswords: TokenStore;
  private readonly services = new Map<ServiceFactory<unknown>, unknown>();
  private readonly closers: (() => void | Promise<void>)[] = [];
  private sandbox: SandboxHandle | null = null;
  /** This start's secret for the embedded sandbox. */
  private readonly sandboxBearer = randomBytes(32).toString('base64url');
  private current: Session | null = null;
  /** Each connection's recent service answers (for support), kept across switches while the app runs. */
  private readonly answerLogs = new Map<string, ServiceAnswers>();
  private closed = false;

  constructor(
    readonly dataDir: string,
    readonly shell: ShellKind,
    readonly db: Db,
    readonly tokens: TokenStore,
    private readonly options: AppOptions,
  ) {
    this.settings = new Settings(db);
    this.profiles = new ProfileStore(db);
    this.files = options.filePolicy ?? namedPathsPolicy;
    this.teamPasswords = options.teamPasswordStore ?? new FileTokenStore(path.join(dataDir, 'team'));
  }

  /** The connection in use and its client, as one value that a switch of connection does not change. */
  session(): Session {
    if (!this.current) throw new AppError('not_connected', 'vendesk is not connected to a service yet.');
    return this.current;
  }

  /** The connection in use. */
  get connection(): Connection {
    return this.session().connection;
  }

  /** The client for the connection in use. */
  client(): VendingClient {
    return this.session().client;
  }

  /** A service of this app, built on first use and kept for the app's life. */
  service<T>(factory: ServiceFactory<T>): T {
    let s = this.services.get(factory as ServiceFactory<unknown>) as T | undefined;
    if (s === undefined) {
      s = ((PLUGS.get(factory as ServiceFactory<unknown>) as ServiceFactory<T> | undefined) ?? factory)(this);
      this.services.set(factory as ServiceFactory<unknown>, s);
    }
    return s;
  }

  onClose(fn: () => void | Promise<void>): void {
    this.closers.push(fn);
  }

  /**
   * Tells the windows that `topics` changed, so the views that show them re-read: the one place
   * that emits `data.changed`. An operation never calls it for what it changes — it declares
   * that in the contract (`invalidates`) and dispatch calls this after it succeeds. Background
   * work (the requery loop, a sync, a bulk job's purchases) calls it itself; `reason` says which
   * (an operation's name, or the work), and travels with the event.
   */
  invalidate(topics: readonly DataTopic[], reason: string): void {
    if (topics.length > 0) this.events.emit('data.changed', { topics: [...topics], reason });
  }

  /** Connects to the active profile (or the override given at start). */
  async connect(): Promise<Connection> {
    const override = this.options.connection;
    if (override) {
      const address = checkServiceAddress(override.baseUrl);
      if (!address.ok) throw new AppError('unsafe_address', `vendesk will not send the token to ${override.baseUrl}: ${address.reason}`, 'Give the service’s https:// address.');
      this.useConnection(
        {
          profileId: this.adhocConnectionKey(override.baseUrl, override.token),
          profileName: override.name ?? override.baseUrl,
          kind: override.kind ?? 'live',
          baseUrl: override.baseUrl,
        },
        override.token,
      );
      return this.connection;
    }
    const named = this.options.profile;
    const profile = named ? this.profiles.byNameOrId(named) : this.profiles.active(this.settings);
    return this.connectProfile(profile);
  }

  async switchProfile(profileId: string): Promise<Connection> {
    const profile = this.profiles.get(profileId);
    const connection = await this.connectProfile(profile);
    this.profiles.setActive(this.settings, profileId);
    return connection;
  }

  private async connectProfile(profile: Profile): Promise<Connection> {
    if (profile.kind === 'sandbox') {
      const sandbox = await this.embeddedSandbox();
      this.useConnection({ profileId: profile.id, profileName: profile.name, kind: 'sandbox', baseUrl: sandbox.url }, this.sandboxBearer);
    } else {
      const baseUrl = profile.baseUrl ?? '';
      const address = checkServiceAddress(baseUrl);
      if (!address.ok) {
        throw new AppError(
          'unsafe_address',
          `The live profile "${profile.name}" has an address vendesk will not send a token to: ${address.reason}`,
          'Open Settings, correct the address and enter the token again.',
        );
      }
      const token = this.tokens.get(profile.id, baseUrl);
      if (!token) {
        const withheld = this.tokens.withheldFrom?.(baseUrl);
        throw new AppError(
          'token_missing',
          withheld ? `The live profile "${profile.name}" has no API token: ${withheld}.` : `The live profile "${profile.name}" has no API token.`,
          withheld
            ? `If ${baseUrl} is your service's address, start vendesk with VENDESK_BASE_URL set to it (beside VENDESK_TOKEN); otherwise correct the profile's address in Settings.`
            : 'Open Settings and enter the token for this profile, or set VENDESK_TOKEN with VENDESK_BASE_URL (the service address it is for).',
        );
      }
      // A stored token goes only to the address it was entered for.
      if (profile.tokenAddress !== null && profile.tokenAddress !== normalizeBaseUrl(baseUrl)) {
        this.tokens.delete(profile.id);
        this.profiles.bindToken(profile.id, null);
        throw new AppError(
          'token_missing',
          `The address of the live profile "${profile.name}" changed since its token was entered; the token was cleared and not sent to ${baseUrl}.`,
          'Open Settings and enter the token for the new address.',
        );
      }
      if (profile.tokenAddress === null) this.profiles.bindToken(profile.id, normalizeBaseUrl(baseUrl));
      this.useConnection({ profileId: profile.id, profileName: profile.name, kind: 'live', baseUrl }, token);
    }
    return this.connection;
  }

  private useConnection(connection: Connection, token: string): void {
    registerSecret(token);
    const key = `${connection.profileId} ${normalizeBaseUrl(connection.baseUrl)}`;
    let answers = this.answerLogs.get(key);
    if (!answers) this.answerLogs.set(key, (answers = new ServiceAnswers()));
    const pinned = Object.freeze({ ...connection });
    this.current = Object.freeze({
      connection: pinned,
      client: new VendingClient({ baseUrl: connection.baseUrl, token, answers, retry: this.options.clientRetry }),
      refuseIfSwitched: (refused: SwitchRefused = 'purchase') => {
        if (this.current?.connection.profileId === pinned.profileId) return;
        const r = SWITCH_REFUSED[refused];
        throw new AppError('connection_changed', `${r.changed} ${r.nothing}`, `Check the connection shown at the top, then ${r.again}.`);
      },
    });
  }

  /**
   * The key of a connection given on the command line or by a test (not saved as a profile): the
   * saved live profile with the same address and token when there is one, else the address and a
   * keyed fingerprint of the token — two organisations at one address never share records, and
   * the token itself is never stored. Records made before keys existed (`url:<address>`) are
   * taken over by the first such connection to that address.
   */
  private adhocConnectionKey(baseUrl: string, token: string): string {
    const address = normalizeBaseUrl(baseUrl);
    const saved = this.profiles
      .list()
      .find((p) => p.kind === 'live' && p.baseUrl !== null && normalizeBaseUrl(p.baseUrl) === address && this.tokens.get(p.id, p.baseUrl) === token);
    if (saved) return saved.id;
    let salt = this.settings.get<string | null>(CONNECTION_KEY_SALT, null);
    if (!salt) {
      salt = randomBytes(32).toString('hex');
      this.settings.set(CONNECTION_KEY_SALT, salt);
    }
    const key = `url:${address}#${createHmac('sha256', salt).update(token).digest('hex').slice(0, 16)}`;
    adoptLegacyRecords(this.db, `url:${address}`, key);
    return key;
  }

  /** The embedded sandbox, started on first need, its state kept in the data folder. */
  private async embeddedSandbox(): Promise<SandboxHandle> {
    if (!this.sandbox) {
      this.sandbox = await startSandbox({
        port: 0,
        dbPath: path.join(this.dataDir, 'sandbox.db'),
        bearers: { [this.sandboxBearer]: EMBEDDED_SANDBOX_ORG },
        seedHistory: this.options.sandboxSeedHistory ?? EMBEDDED_SANDBOX_HISTORY,
        accountName: 'Demo Organisation (sandbox)',
        quiet: true,
      });
    }
    return this.sandbox;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const fn of this.closers.reverse()) await fn();
    if (this.sandbox) await this.sandbox.close();
    this.db.close();
  }
}

const CONNECTION_KEY_SALT = 'connections.keySalt';

/** Tables whose rows belong to a connection, and the column that says which. */
export const CONNECTION_SCOPED = [
  ['purchases', 'profile_id'],
  ['bulk_jobs', 'profile_id'],
  ['reconcile_runs', 'profile_id'],
  ['balance_snapshots', 'profile_id'],
  ['messaging_sends', 'service_key'],
  ['messaging_jobs', 'service_key'],
  ['messaging_imports', 'service_key'],
  ['messaging_contact_uploads', 'service_key'],
] as const;

function adoptLegacyRecords(db: Db, legacyKey: string, key: string): void {
  db.transaction(() => {
    for (const [table, column] of CONNECTION_SCOPED) {
      db.prepare(`UPDATE OR REPLACE ${table} SET ${column} = ? WHERE ${column} = ?`).run(key, legacyKey);
    }
  })();
}

export async function createApp(options: AppOptions): Promise<App> {
  // Every file 600 and folder 700, whatever modes the folder came with; a token file others could
  // read is left for the token store to refuse (and say so) rather than quietly fixed.
  const tokensDir = path.join(options.dataDir, 'tokens');
  secureDataFolder(options.dataDir, (file, mode) => path.dirname(file) === tokensDir && (mode & 0o077) !== 0);
  const db = openDatabase(path.join(options.dataDir, 'vendesk.db'), { nativeBinding: options.nativeBinding });
  const env = options.env ?? process.env;
  // VENDESK_TOKEN goes only to the address it is given with: the command line's --base-url when
  // that connection carries it, else VENDESK_BASE_URL.
  const envAddress = options.connection && options.connection.token === env.VENDESK_TOKEN ? options.connection.baseUrl : env.VENDESK_BASE_URL;
  const tokens = options.tokenStore ?? new EnvFirstTokenStore(new FileTokenStore(tokensDir), env.VENDESK_TOKEN, envAddress);
  const app = new VendeskApp(options.dataDir, options.shell, db, tokens, options);
  try {
    await app.connect();
  } catch (error) {
    // A live profile without a usable token (or with an address vendesk will not send one to)
    // still opens the app, so the user can fix it in Settings; the embedded sandbox is used meanwhile.
    if (error instanceof AppError && (error.code === 'token_missing' || error.code === 'unsafe_address') && !options.connection && !options.profile) {
      await app.switchProfile(SANDBOX_PROFILE_ID);
    } else {
      await app.close();
      throw error;
    }
  }
  startBackgroundLoops(app, options.background ?? false);
  return app;
}
