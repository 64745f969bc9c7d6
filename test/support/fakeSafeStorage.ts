import type { SafeStorageApi } from '../../src/main/shell/safeTokenStore';

/**
 * Electron's safeStorage as a machine with this Linux backend reports it (the Electron runtime
 * cannot run under the tests). Like the real one on `basic_text`, it says encryption is available.
 */
export function fakeSafeStorage(backend: string, available = true): SafeStorageApi {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    // A reversible scramble stands in for the keyring's encryption.
    encryptString: (text) => Buffer.from(`sealed:${Buffer.from(text).toString('base64')}`),
    decryptString: (buffer) => {
      const text = buffer.toString();
      if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(text.slice('sealed:'.length), 'base64').toString();
    },
  };
}
