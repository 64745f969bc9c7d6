/**
 * What a service may know of the app it runs in: the App contract, apart from the composition
 * root (`app.ts`) that builds it. Services, handlers and loops import their `App`, `Session` and
 * `Connection` types from here, never from `app.ts`, so no service depends on the module that
 * wires every service together (the lint rule `layers/no-composition-root` holds this).
 */
import type { DataTopic } from '../shared/contract/events';
import type { VendingClient } from './api/vendingClient';
import type { EventBus } from './eventBus';
import type { FilePolicy } from './filePolicy';
import type { Db } from './store/database';
import type { ProfileStore } from './store/profiles';
import type { Settings } from './store/settings';
import type { TokenStore } from './store/tokenStore';

export type ShellKind = 'electron' | 'web' | 'cli' | 'test';

export interface Connection {
  /**
   * The key every local record of this connection carries (`profile_id` columns): the built-in
   * sandbox's id, a saved live profile's id, or for a connection given on the command line
   * (`--base-url`) a key of its address and token (see `adhocConnectionKey` in app.ts).
   */
  profileId: string;
  profileName: string;
  kind: 'sandbox' | 'live';
  baseUrl: string;
}

/**
 * The connection in use and its client, taken together: code that must not ask one service
 * about another's purchase takes one session and uses only it, even if the app switches
 * connection meanwhile.
 */
export interface Session {
  readonly connection: Connection;
  readonly client: VendingClient;
  /**
   * Something that costs money is checked and done on one session: when vendesk was switched to
   * another connection meanwhile (while the service or the team database answered a check), this
   * throws `connection_changed` before anything is written or sent, so it is never done at a
   * service it was not checked with. `refused` names what was refused in the message: a purchase
   * (the default), a paid message, or a file checked for a bulk job.
   */
  refuseIfSwitched(refused?: SwitchRefused): void;
}

/** What a session's `refuseIfSwitched` says was refused. */
export type SwitchRefused = 'purchase' | 'message' | 'file';

/**
 * The parts of the App a function uses, by name: `AppPart<'db' | 'connection'>`. Functions take
 * what they use, so a reader sees at the signature what a function can reach, and a test can
 * hand it just that.
 */
export type AppPart<K extends keyof App> = Pick<App, K>;

/** Builds one service of an app; `app.service(factory)` builds it on first use and keeps it. */
export type ServiceFactory<T> = (app: App) => T;

/** One App per process, shared by every shell (built by `createApp` in app.ts). */
export interface App {
  readonly events: EventBus;
  readonly settings: Settings;
  /** Which files a FileRef may name, as the shell injected it. */
  readonly files: FilePolicy;
  readonly profiles: ProfileStore;
  /** The team database password's store (`AppOptions.teamPasswordStore`). */
  readonly teamPasswords: TokenStore;
  readonly dataDir: string;
  readonly shell: ShellKind;
  readonly db: Db;
  readonly tokens: TokenStore;
  /** The connection in use and its client, as one value that a switch of connection does not change. */
  session(): Session;
  /** The connection in use. */
  readonly connection: Connection;
  /** The client for the connection in use. */
  client(): VendingClient;
  /** A service of this app, built on first use and kept for the app's life. */
  service<T>(factory: ServiceFactory<T>): T;
  onClose(fn: () => void | Promise<void>): void;
  /**
   * Tells the windows that `topics` changed, so the views that show them re-read: the one place
   * that emits `data.changed` (see app.ts).
   */
  invalidate(topics: readonly DataTopic[], reason: string): void;
  /** Connects to the active profile (or the override given at start). */
  connect(): Promise<Connection>;
  switchProfile(profileId: string): Promise<Connection>;
  close(): Promise<void>;
}
