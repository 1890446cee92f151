/** Reads the archive's public API (docs/archive.md) and checks each answer against its schema. */
import { useEffect, useState } from 'react';
import type { z } from 'zod';

export type Loaded<T> = { state: 'loading' } | { state: 'missing' } | { state: 'failed'; message: string } | { state: 'ready'; data: T };

async function fetchChecked<S extends z.ZodType>(path: string, schema: S, signal: AbortSignal, token: string | null): Promise<Loaded<z.infer<S>>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { signal, headers });
  if (res.status === 404) return { state: 'missing' };
  if (!res.ok) return { state: 'failed', message: `The server answered ${res.status}.` };
  const parsed = schema.safeParse(await res.json());
  return parsed.success ? { state: 'ready', data: parsed.data } : { state: 'failed', message: 'The server sent an answer this page cannot read.' };
}

/** The archive resource at `path`, reloaded when the path (or the access token sent with it) changes. */
export function useArchive<S extends z.ZodType>(path: string, schema: S, token: string | null = null): Loaded<z.infer<S>> {
  const [loaded, setLoaded] = useState<Loaded<z.infer<S>>>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    fetchChecked(path, schema, controller.signal, token).then(setLoaded, (err: unknown) => {
      if (!controller.signal.aborted) setLoaded({ state: 'failed', message: err instanceof Error ? err.message : String(err) });
    });
    return () => controller.abort();
  }, [path, schema, token]);
  return loaded;
}
