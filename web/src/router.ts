/** Hash routes (`#/documents/<id>`): the static host needs no fallback page and the API paths stay apart. */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  path: string;
  params: URLSearchParams;
}

export const parseRoute = (hash: string): Route => {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  return { path: path || '/documents', params: new URLSearchParams(query) };
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function navigate(path: string, params?: Record<string, string | undefined>): void {
  const query = new URLSearchParams(Object.entries(params ?? {}).filter((entry): entry is [string, string] => !!entry[1]));
  const text = query.toString();
  location.hash = `#${path}${text ? `?${text}` : ''}`;
}
