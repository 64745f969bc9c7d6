import { createContext, useContext } from 'react';
import type { AppInfo } from '../../../shared/contract/app';

export interface ConnectionState {
  info: AppInfo | null;
  online: boolean;
  refresh: () => Promise<void>;
}

export const ConnectionContext = createContext<ConnectionState>({ info: null, online: false, refresh: async () => {} });
export const useConnection = () => useContext(ConnectionContext);
