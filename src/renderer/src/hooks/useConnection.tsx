import { createContext, useContext } from 'react';
import type { AppInfo, ConnectionCheck } from '../../../shared/contract/app';

export interface ConnectionState {
  info: AppInfo | null;
  /** vendesk's own main side answers the window. */
  online: boolean;
  /** Whether the service of the connection in use answered its last check (null: not checked yet). */
  service: ConnectionCheck | null;
  refresh: () => Promise<void>;
}

export const ConnectionContext = createContext<ConnectionState>({ info: null, online: false, service: null, refresh: async () => {} });
export const useConnection = () => useContext(ConnectionContext);
