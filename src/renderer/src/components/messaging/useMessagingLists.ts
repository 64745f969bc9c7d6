/** The lists every messaging tab reads, re-read when the main side says they changed. */
import { useOperation } from '../../hooks/useOperation';

export function useSenderIds() {
  const senders = useOperation('messaging.senderIds', {});
  return senders;
}

export function useTemplates() {
  const templates = useOperation('messaging.templates.list', {});
  return templates;
}

export function usePhonebooks() {
  const phonebooks = useOperation('messaging.phonebooks.list', {});
  return phonebooks;
}
