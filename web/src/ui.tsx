/** Small shared pieces of the pages: errors in words, labelled fields, a pager, thumbnails, formats. */
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, thumbnailUrl } from './api';
import { snippetRuns } from './highlight';

/** An error as the page shows it: the P message, the refused fields, when to retry. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const apiError = error instanceof ApiError ? error : null;
  const message = apiError?.message ?? (error instanceof Error ? error.message : String(error));
  return (
    <div class="error" role="alert">
      <p>{message}</p>
      {apiError?.fields.length ? (
        <ul>
          {apiError.fields.map((field) => (
            <li key={field.field}>
              <code>{field.field}</code> {field.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The reason the server gave for one field, to show beside it. */
export const fieldError = (error: unknown, field: string): string | undefined =>
  error instanceof ApiError ? error.fields.find((problem) => problem.field === field || problem.field.endsWith(`.${field}`))?.reason : undefined;

type InputProps = JSX.InputHTMLAttributes<HTMLInputElement> & { label: string; error?: unknown; name: string; idPrefix?: string };

/**
 * An input with its label and, when the server refused it, the reason (tied by aria-describedby). `idPrefix`
 * keeps ids apart when two forms on one page have a field of the same name.
 */
export function Field({ label, error, name, idPrefix = 'field', ...input }: InputProps) {
  const id = `${idPrefix}-${name}`;
  const reason = fieldError(error, name);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={name} aria-invalid={reason ? 'true' : undefined} aria-describedby={reason ? `${id}-error` : undefined} {...input} />
      {reason ? (
        <span class="field-error" id={`${id}-error`}>
          {reason}
        </span>
      ) : null}
    </div>
  );
}

/** Runs `load` now and whenever `deps` change; `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { value: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({ value: undefined, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (value) => live && setState({ value, error: null, loading: false }),
      (error: unknown) => live && setState((previous) => ({ value: previous.value, error, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

/** Runs an action, keeping its error and whether it runs, for a button's `disabled` and an ErrorNote. */
export function useAction(): { busy: boolean; error: unknown; run: (action: () => Promise<unknown>) => Promise<boolean>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}

export function Pager({ page, totalPages, total, onPage }: { page: number; totalPages: number; total: number; onPage: (page: number) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {Math.max(1, totalPages)} ({total} in all)
      </span>
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status}`}>{status}</span>;
}

/** A snippet with its `<mark>` runs: text nodes and mark elements only. */
export function Snippet({ text }: { text: string }) {
  return (
    <>
      {snippetRuns(text).map((run, index) => (run.marked ? <mark key={index}>{run.text}</mark> : <span key={index}>{run.text}</span>))}
    </>
  );
}

/** Thumbnails already fetched, by document id and version, so that paging back costs no request. */
const thumbnails = new Map<string, Promise<string | null>>();

/** A document's thumbnail, fetched once it scrolls into view. */
export function Thumbnail({ id, version, alt, size = 96 }: { id: string; version: string; alt: string; size?: number }) {
  const holder = useRef<HTMLDivElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    let live = true;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      const key = `${id}:${version}:${size}`;
      let pending = thumbnails.get(key);
      if (!pending) {
        pending = thumbnailUrl(id, size * 2).catch(() => null);
        thumbnails.set(key, pending);
      }
      void pending.then((value) => live && setUrl(value));
    });
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [id, version, size]);
  return (
    <div class="thumb" ref={holder} style={{ width: `${size}px`, height: `${size}px` }}>
      {url ? <img src={url} alt={alt} width={size} height={size} /> : null}
    </div>
  );
}

export function Page({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · docservice`;
  }, [title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          {title}
        </h1>
        {actions}
      </header>
      {children}
    </section>
  );
}

export const formatBytes = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const formatDate = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
