/**
 * The composition root: one App per process, shared by every shell. It owns the database, the
 * settings, the connection (embedded sandbox or a live profile), the event bus and the services,
 * which are built on first use from their own modules (`app.service(createX)`), so adding a
 * service never means editing this file.
 */
import path from 'node:path';
import { startSandbox, type SandboxHandle } from '../sandbox';
import { AppError } from '../shared/appError';
import { VendingClient } from './api/vendingClient';
import { EventBus } from './eventBus';
import { secureDataFolder } from './privateFiles';
import { registerSecret } from './redact';
import { openDatabase, type Db } from './store/database';
import { ProfileStore, SANDBOX_PROFILE_ID, type Profile } from './store/profiles';
import { Settings } from './store/settings';
import { EnvFirstTokenStore, FileTokenStore, type TokenStore } from './store/tokenStore';

export type ShellKind = 'electron' | 'web' | 'cli' | 'test';

/** The token of the embedded sandbox's one organisation: not a secret, it never leaves this machine. */
export const EMBEDDED_SANDBOX_TOKEN = 'vendesk-embedded-sandbox';
/** Demo history a new user sees on first start. */
export const EMBEDDED_SANDBOX_HISTORY = 1500;

export interface AppOptions {
  dataDir: string;
  shell: ShellKind;
  tokenStore?: TokenStore;
  nativeBinding?: string;
  env?: NodeJS.ProcessEnv;
  /** Use this service instead of the saved profile (CLI `--base-url`, tests). Not saved. */
  connection?: { baseUrl: string; token: string; kind?: 'sandbox' | 'live'; name?: string };
  /** Embedded sandbox: demo entries created on first start (default EMBEDDED_SANDBOX_HISTORY). */
  sandboxSeedHistory?: number;
}

export interface Connection {
  profileId: string;
  profileName: string;
  kind: 'sandbox' | 'live';
  baseUrl: string;
}

type ServiceFactory<T> = (app: App) => T;

export class App {
  readonly events = new EventBus();
  readonly settings: Settings;
  readonly profiles: ProfileStore;
  private readonly services = new Map<ServiceFactory<unknown>, unknown>();
  private readonly closers: (() => void | Promise<void>)[] = [];
  private sandbox: SandboxHandle | null = null;
  private currentClient: VendingClient | null = null;
  private currentConnection: Connection | null = null;
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
  }

  /** The connection in use. */
  get connection(): Connection {
    if (!this.currentConnection) throw new AppError('not_connected', 'vendesk is not connected to a service yet.');
    return this.currentConnection;
  }

  /** The client for the connection in use. */
  client(): VendingClient {
    if (!this.currentClient) throw new AppError('not_connected', 'vendesk is not connected to a service yet.');
    return this.currentClient;
  }

  /** A service of this app, built on first use and kept for the app's life. */
  service<T>(factory: ServiceFactory<T>): T {
    let s = this.services.get(factory as ServiceFactory<unknown>) as T | undefined;
    if (s === undefined) {
      s = factory(this);
      this.services.set(factory as ServiceFactory<unknown>, s);
    }
    return s;
  }

  onClose(fn: () => void | Promise<void>): void {
    this.closers.push(fn);
  }

  /** Connects to the active profile (or the override given at start). */
  async connect(): Promise<Connection> {
    const override = this.options.connection;
    if (override) {
      this.useConnection(
        { profileId: 'override', profileName: override.name ?? override.baseUrl, kind: override.kind ?? 'live', baseUrl: override.baseUrl },
        override.token,
      );
      return this.connection;
    }
    const profile = this.profiles.active(this.settings);
    return this.connectProfile(profile);
  }

  async switchProfile(profileId: string): Promise<Connection> {
    const profile = this.profiles.get(profileId);
    const connection = await this.connectProfile(profile);
    this.profiles.setActive(this.settings, profileId);
    this.events.emit('data.changed', { topics: ['connection', 'balance', 'mirror', 'catalog'] });
    return connection;
  }

  private async connectProfile(profile: Profile): Promise<Connection> {
    if (profile.kind === 'sandbox') {
      const sandbox = await this.embeddedSandbox();
      this.useConnection({ profileId: profile.id, profileName: profile.name, kind: 'sandbox', baseUrl: sandbox.url }, EMBEDDED_SANDBOX_TOKEN);
    } else {
      const token = this.tokens.get(profile.id);
      if (!token) {
        throw new AppError(
          'token_missing',
          `The live profile "${profile.name}" has no API token.`,
          'Open Settings and enter the token for this profile, or set VENDESK_TOKEN.',
        );
      }
      this.useConnection({ profileId: profile.id, profileName: profile.name, kind: 'live', baseUrl: profile.baseUrl ?? '' }, token);
    }
    return this.connection;
  }

  private useConnection(connection: Connection, token: string): void {
    registerSecret(token);
    this.currentConnection = connection;
    this.currentClient = new VendingClient({ baseUrl: connection.baseUrl, token });
  }

  /** The embedded sandbox, started on first need, its state kept in the data folder. */
  private async embeddedSandbox(): Promise<SandboxHandle> {
    if (!this.sandbox) {
      this.sandbox = await startSandbox({
        port: 0,
        dbPath: path.join(this.dataDir, 'sandbox.db'),
        tokens: [EMBEDDED_SANDBOX_TOKEN],
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

export async function createApp(options: AppOptions): Promise<App> {
  // Every file 600 and folder 700, whatever modes the folder came with; a token file others could
  // read is left for the token store to refuse (and say so) rather than quietly fixed.
  const tokensDir = path.join(options.dataDir, 'tokens');
  secureDataFolder(options.dataDir, (file, mode) => path.dirname(file) === tokensDir && (mode & 0o077) !== 0);
  const db = openDatabase(path.join(options.dataDir, 'vendesk.db'), { nativeBinding: options.nativeBinding });
  const env = options.env ?? process.env;
  const tokens = options.tokenStore ?? new EnvFirstTokenStore(new FileTokenStore(tokensDir), env.VENDESK_TOKEN);
  const app = new App(options.dataDir, options.shell, db, tokens, options);
  try {
    await app.connect();
  } catch (error) {
    // A live profile without a token still opens the app, so the user can fix it in Settings;
    // the embedded sandbox is used meanwhile.
    if (error instanceof AppError && error.code === 'token_missing' && !options.connection) {
      await app.switchProfile(SANDBOX_PROFILE_ID);
    } else {
      await app.close();
      throw error;
    }
  }
  return app;
}
