/**
 * Whether Electron's safeStorage really protects a token on this computer. Pure (Electron's
 * safeStorage is passed in), so it is unit-tested with a fake.
 *
 * On Linux, safeStorage uses a keyring (GNOME Keyring/libsecret or KDE Wallet). Where there is
 * none it falls back to the `basic_text` backend — a key written into Chromium itself — and
 * `isEncryptionAvailable()` still says true, so the token would be only obfuscated. Electron's docs
 * say to detect this with `getSelectedStorageBackend()`, which is Linux-only and answers `unknown`
 * before the app is ready. vendesk stores a token only with a backend known to be a keyring.
 */
import type { AppErrorShape } from '../../shared/contract/define';

/** The part of Electron's safeStorage this decision reads. */
export interface KeyringProbe {
  isEncryptionAvailable(): boolean;
  /** Linux only. */
  getSelectedStorageBackend(): string;
}

/** Linux backends that keep the key in a real keyring (Electron 41's values). */
export const KEYRING_BACKENDS = ['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6'] as const;

export type KeyringVerdict = { ok: true } | { ok: false; refusal: AppErrorShape };

/** Linux without a keyring (or with one vendesk cannot reach). */
export const NO_KEYRING: AppErrorShape = {
  code: 'no_keyring',
  message: 'This computer has no keyring, so vendesk will not store the API token here: without one the token would only be scrambled with a key anyone can look up.',
  hint: 'Install and unlock a keyring — GNOME Keyring (the gnome-keyring package) or KDE Wallet — and restart vendesk; or start vendesk with the token in the VENDESK_TOKEN environment variable and the service address in VENDESK_BASE_URL instead of saving it.',
};

/** macOS or Windows whose keychain cannot be used. */
export const NO_KEYCHAIN: AppErrorShape = {
  code: 'no_keyring',
  message: "This computer's keychain cannot be used, so vendesk will not store the API token here.",
  hint: 'Unlock the system keychain and restart vendesk, or start vendesk with the token in the VENDESK_TOKEN environment variable and the service address in VENDESK_BASE_URL instead of saving it.',
};

export function keyringVerdict(probe: KeyringProbe, platform: NodeJS.Platform): KeyringVerdict {
  if (platform !== 'linux') return probe.isEncryptionAvailable() ? { ok: true } : { ok: false, refusal: NO_KEYCHAIN };
  const backend = probe.getSelectedStorageBackend();
  if (!probe.isEncryptionAvailable() || !(KEYRING_BACKENDS as readonly string[]).includes(backend)) return { ok: false, refusal: NO_KEYRING };
  return { ok: true };
}
