/** API tokens and webhooks (with their deliveries). */
import { useState } from 'preact/hooks';
import {
  createToken,
  createWebhook,
  deleteToken,
  deleteWebhook,
  deliveries,
  listTokens,
  listWebhooks,
  type WebhookCreate,
} from '../api';
import { ErrorNote, Field, formatDate, Page, StatusBadge, useAction, useLoad } from '../ui';

const SCOPES = ['read', 'write', 'admin'] as const;
const EVENTS: WebhookCreate['events'] = ['document.uploaded', 'document.updated', 'document.deleted', 'ocr.completed', 'ocr.failed', 'source.sync.completed', 'label.assigned'];

export function TokensPage() {
  const tokens = useLoad(listTokens, []);
  const action = useAction();
  const [created, setCreated] = useState<string | null>(null);
  return (
    <Page title="API tokens">
      <form
        class="inline-form"
        aria-label="New API token"
        onSubmit={(event) => {
          event.preventDefault();
          const formElement = event.currentTarget;
          const form = new FormData(formElement);
          const scopes = form.getAll('scopes').map(String) as (typeof SCOPES)[number][];
          void action.run(async () => {
            const token = await createToken({ name: String(form.get('name')), scopes });
            setCreated(token.token);
            formElement.reset();
            tokens.reload();
          });
        }}
      >
        <Field label="Name" name="name" required error={action.error} />
        <div role="group" aria-label="Scopes">
          {SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === 'read'} /> {scope}
            </label>
          ))}
        </div>
        <button type="submit" class="primary" disabled={action.busy}>
          Create token
        </button>
      </form>
      {created ? (
        <p role="status">
          The new token (shown once): <code class="secret">{created}</code>
        </p>
      ) : null}
      <ErrorNote error={action.error ?? tokens.error} />
      <ul class="cards">
        {(tokens.value ?? []).map((token) => (
          <li key={token.id} class="card">
            <h2>{token.name}</h2>
            <p class="sub">
              {token.prefix}… · {token.scopes.join(', ')} · expires {formatDate(token.expires_at)} · last used {formatDate(token.last_used_at)}
            </p>
            <button type="button" class="danger" onClick={() => void action.run(() => deleteToken(token.id)).then(() => tokens.reload())}>
              Revoke<span class="visually-hidden"> {token.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </Page>
  );
}

function Deliveries({ id }: { id: string }) {
  const list = useLoad(() => deliveries(id), [id]);
  return (
    <>
      <ErrorNote error={list.error} />
      <ul>
        {(list.value?.data ?? []).map((delivery) => (
          <li key={delivery.id}>
            {delivery.type} <StatusBadge status={delivery.state} /> {delivery.last_status_code ?? ''} · {formatDate(delivery.created_at)}
          </li>
        ))}
        {list.value && !list.value.data.length ? <li>No deliveries yet.</li> : null}
      </ul>
    </>
  );
}

export function WebhooksPage() {
  const hooks = useLoad(listWebhooks, []);
  const action = useAction();
  const [open, setOpen] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Page title="Webhooks">
      <form
        class="stack"
        aria-label="New webhook"
        onSubmit={(event) => {
          event.preventDefault();
          const formElement = event.currentTarget;
          const form = new FormData(formElement);
          void action.run(async () => {
            const hook = await createWebhook({ url: String(form.get('url')), events: form.getAll('events').map(String) as WebhookCreate['events'] });
            setSecret(hook.secret);
            formElement.reset();
            hooks.reload();
          });
        }}
      >
        <Field label="URL" name="url" type="url" required error={action.error} />
        <div role="group" aria-label="Events">
          {EVENTS.map((type) => (
            <label key={type} class="check">
              <input type="checkbox" name="events" value={type} defaultChecked={type === 'ocr.completed'} /> {type}
            </label>
          ))}
        </div>
        <button type="submit" class="primary" disabled={action.busy}>
          Create webhook
        </button>
      </form>
      {secret ? (
        <p role="status">
          Signing secret (shown once): <code class="secret">{secret}</code>
        </p>
      ) : null}
      <ErrorNote error={action.error ?? hooks.error} />
      <ul class="cards">
        {(hooks.value ?? []).map((hook) => (
          <li key={hook.id} class="card">
            <h2>{hook.url}</h2>
            <p class="sub">
              {hook.events.join(', ')} · {hook.active ? 'active' : `disabled${hook.disabled_reason ? ` (${hook.disabled_reason})` : ''}`}
            </p>
            <div class="actions">
              <button type="button" aria-expanded={open === hook.id} onClick={() => setOpen(open === hook.id ? null : hook.id)}>
                Deliveries
              </button>
              <button type="button" class="danger" onClick={() => void action.run(() => deleteWebhook(hook.id)).then(() => hooks.reload())}>
                Delete
              </button>
            </div>
            {open === hook.id ? <Deliveries id={hook.id} /> : null}
          </li>
        ))}
      </ul>
    </Page>
  );
}
