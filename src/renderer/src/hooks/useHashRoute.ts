import { useEffect, useState } from 'react';

/** `#/transactions` → `transactions`. Hash routing works the same from a file and from the web shell. */
export function useHashRoute(fallback: string): [string, (path: string) => void] {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('?')[0] || fallback;
  const [path, setPath] = useState(read);
  useEffect(() => {
    const onChange = () => setPath(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  });
  return [path, (p: string) => (window.location.hash = `/${p}`)];
}
