/** The lists every messaging tab reads, re-read when the main side says they changed. */
import { useDataChanged, useOperation } from '../../hooks/useOperation';

export function useSenderIds() {
  const senders = useOperation('messaging.senderIds', {});
  useDataChanged(['connection'], () => void senders.reload());
  return senders;
}

export function useTemplates() {
  const templates = useOperation('messaging.templates.list', {});
  useDataChanged(['templates', 'connection'], () => void templates.reload());
  return templates;
}

export function usePhonebooks() {
  const phonebooks = useOperation('messaging.phonebooks.list', {});
  useDataChanged(['phonebooks', 'connection'], () => void phonebooks.reload());
  return phonebooks;
}
