import { useOperation } from '../../hooks/useOperation';

/**
 * How a message's phonebook is named on screen: by the name the phonebook has in the service
 * (“Staff”), or by its number only while the list is loading or when it is gone.
 */
export function usePhonebookName(): (id: number | null) => string {
  const list = useOperation('messaging.phonebooks.list', {});
  const names = new Map((list.data ?? []).map((p) => [p.id, p.name]));
  return (id) => {
    if (id === null) return 'a phonebook';
    const name = names.get(id);
    return name ? `“${name}”` : `phonebook ${id}`;
  };
}
