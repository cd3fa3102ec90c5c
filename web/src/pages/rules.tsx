/** Labelling rules: create, edit and delete (the match, its conditions, the labels to add), and runs over existing documents with their progress. */
import { useEffect, useState } from 'preact/hooks';
import { applyRule, createRule, deleteRule, listLabels, listRules, listSources, updateRule, type Label, type Rule, type RuleCreate, type Source } from '../api';
import { can, session } from '../session';
import { ErrorNote, Field, fieldError, formatDate, Page, StatusBadge, useAction, useLoad } from '../ui';

const FIELDS: [RuleCreate['match']['field'], string][] = [
  ['content', 'Text'],
  ['filename', 'Filename'],
  ['title', 'Title'],
];
const ALGORITHMS: [RuleCreate['match']['algorithm'], string][] = [
  ['any', 'Any of the words'],
  ['all', 'All of the words'],
  ['exact', 'The exact phrase'],
  ['regex', 'A regular expression'],
  ['fuzzy', 'The words, allowing typos'],
];
type MimeType = NonNullable<NonNullable<RuleCreate['when']>['mime_types']>[number];
const MIME_TYPES: MimeType[] = ['application/pdf', 'image/png', 'image/jpeg', 'image/tiff', 'image/webp'];

/** How often the page asks for a running apply's progress (the API sends no event for it). */
const PROGRESS_POLL_MS = 1_000;

const running = (rule: Rule): boolean => rule.apply?.state === 'queued' || rule.apply?.state === 'running';

/** The rule a form holds, as the API takes it. */
function ruleOf(form: FormData): RuleCreate {
  const source = String(form.get('source_id') ?? '');
  return {
    name: String(form.get('name') ?? '').trim(),
    match: {
      field: String(form.get('field')) as RuleCreate['match']['field'],
      algorithm: String(form.get('algorithm')) as RuleCreate['match']['algorithm'],
      pattern: String(form.get('pattern') ?? ''),
      case_sensitive: form.get('case_sensitive') === 'on',
    },
    when: { source_id: source || null, mime_types: form.getAll('mime_types').map(String) as MimeType[] },
    add_labels: form.getAll('add_labels').map(String),
    order: Number(form.get('order') || 0),
  };
}

/** A server's refusal of one field of a group (fieldset), shown under its legend. */
function GroupError({ error, field, id }: { error: unknown; field: string; id: string }) {
  const reason = fieldError(error, field);
  return reason ? (
    <span class="field-error" id={id}>
      {reason}
    </span>
  ) : null;
}

interface RuleFormProps {
  /** Keeps the form's ids apart from another form's on the page. */
  prefix: string;
  title: string;
  rule?: Rule;
  labels: Label[];
  sources: Source[];
  submitLabel: string;
  onSave: (body: RuleCreate) => Promise<unknown>;
  onCancel?: () => void;
}

/** The rule's form, for a new rule or one to change; the server's refusals are shown beside their fields. */
function RuleForm({ prefix, title, rule, labels, sources, submitLabel, onSave, onCancel }: RuleFormProps) {
  const action = useAction();
  const error = action.error;
  const id = (name: string) => `${prefix}-${name}`;
  const labelsError = fieldError(error, 'add_labels');
  return (
    <form
      class="stack rule-form"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        const formElement = event.currentTarget;
        void action.run(() => onSave(ruleOf(new FormData(formElement)))).then((ok) => ok && !rule && formElement.reset());
      }}
    >
      <h2>{title}</h2>
      <Field label="Name" name="name" idPrefix={prefix} required maxLength={100} defaultValue={rule?.name} error={error} />
      <fieldset>
        <legend>Match</legend>
        <div class="field">
          <label for={id('field')}>Look in</label>
          <select id={id('field')} name="field" defaultValue={rule?.match.field ?? 'content'}>
            {FIELDS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={id('algorithm')}>For</label>
          <select id={id('algorithm')} name="algorithm" defaultValue={rule?.match.algorithm ?? 'any'}>
            {ALGORITHMS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </div>
        <Field label="Pattern" name="pattern" idPrefix={prefix} required maxLength={1000} defaultValue={rule?.match.pattern} error={error} />
        <label class="check">
          <input type="checkbox" name="case_sensitive" defaultChecked={rule?.match.case_sensitive ?? false} /> Case sensitive
        </label>
      </fieldset>
      <fieldset>
        <legend>Only when</legend>
        <div class="field">
          <label for={id('source_id')}>From source</label>
          <select id={id('source_id')} name="source_id" defaultValue={rule?.when.source_id ?? ''}>
            <option value="">Any source or upload</option>
            {sources.map((source) => (
              <option key={source.id} value={source.id}>
                {source.name}
              </option>
            ))}
          </select>
        </div>
        <fieldset>
          <legend>Of type (none ticked: any)</legend>
          {MIME_TYPES.map((type) => (
            <label key={type} class="check">
              <input type="checkbox" name="mime_types" value={type} defaultChecked={rule?.when.mime_types?.includes(type) ?? false} /> {type}
            </label>
          ))}
        </fieldset>
      </fieldset>
      <fieldset aria-describedby={labelsError ? id('add_labels-error') : undefined} aria-invalid={labelsError ? 'true' : undefined}>
        <legend>Labels to add</legend>
        {labels.length ? (
          labels.map((label) => (
            <label key={label.id} class="check">
              <input type="checkbox" name="add_labels" value={label.id} defaultChecked={rule?.add_labels.includes(label.id) ?? false} />
              <span class="swatch" style={{ background: label.color }} aria-hidden="true" /> {label.name}
            </label>
          ))
        ) : (
          <p class="sub">
            No labels yet: <a href="#/labels">create one</a> first.
          </p>
        )}
        <GroupError error={error} field="add_labels" id={id('add_labels-error')} />
      </fieldset>
      <Field label="Order (lower runs first)" name="order" idPrefix={prefix} type="number" step={1} defaultValue={String(rule?.order ?? 0)} error={error} />
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={action.busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A run over existing documents: its state and how far it has read. */
function ApplyProgress({ rule }: { rule: Rule }) {
  const run = rule.apply;
  if (!run) return null;
  return (
    <div class="apply" role="status" aria-label={`Last run of ${rule.name}`}>
      <StatusBadge status={run.state} />{' '}
      <progress max={Math.max(1, run.total)} value={run.processed} aria-label={`Documents read by the run of ${rule.name}`} />{' '}
      <span class="apply-count">
        {run.processed} / {run.total}
      </span>{' '}
      <span class="sub">
        read, {run.labelled} labelled · started {formatDate(run.started_at)}
        {run.finished_at ? ` · finished ${formatDate(run.finished_at)}` : ''}
      </span>
    </div>
  );
}

export function RulesPage() {
  const rules = useLoad(listRules, []);
  const labels = useLoad(listLabels, []);
  const sources = useLoad(listSources, []);
  const action = useAction();
  const [editing, setEditing] = useState<string | null>(null);
  const editor = can.edit(session()?.user);
  const anyRunning = (rules.value ?? []).some(running);

  useEffect(() => {
    if (!anyRunning) return;
    const timer = setTimeout(rules.reload, PROGRESS_POLL_MS);
    return () => clearTimeout(timer);
  }, [rules.value, anyRunning]);

  const labelName = (id: string) => labels.value?.find((label) => label.id === id)?.name ?? id;
  const saved = () => (setEditing(null), rules.reload());

  return (
    <Page title="Rules">
      <p>Rules label documents as they arrive; a rule can also be run over the documents the workspace already has.</p>
      {editor ? (
        <RuleForm
          prefix="new-rule"
          title="New rule"
          labels={labels.value ?? []}
          sources={sources.value ?? []}
          submitLabel="Create rule"
          onSave={(body) => createRule(body).then(saved)}
        />
      ) : null}
      <ErrorNote error={action.error ?? rules.error ?? labels.error} />
      <ul class="cards">
        {(rules.value ?? []).map((rule) => (
          <li key={rule.id} class="card rule">
            {editing === rule.id ? (
              <RuleForm
                prefix={`rule-${rule.id}`}
                title={`Edit rule ${rule.name}`}
                rule={rule}
                labels={labels.value ?? []}
                sources={sources.value ?? []}
                submitLabel="Save rule"
                onSave={(body) => updateRule(rule.id, body).then(saved)}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <>
                <h2>{rule.name}</h2>
                <p class="sub">
                  {FIELDS.find(([value]) => value === rule.match.field)?.[1]} · {ALGORITHMS.find(([value]) => value === rule.match.algorithm)?.[1].toLowerCase()}:{' '}
                  <code>{rule.match.pattern}</code>
                  {rule.match.case_sensitive ? ' (case sensitive)' : ''} · order {rule.order}
                  {rule.when.mime_types?.length ? ` · only ${rule.when.mime_types.join(', ')}` : ''}
                  {rule.when.source_id ? ` · only from ${sources.value?.find((source) => source.id === rule.when.source_id)?.name ?? 'a source'}` : ''}
                </p>
                <ul class="chips" aria-label={`Labels ${rule.name} adds`}>
                  {rule.add_labels.map((id) => (
                    <li key={id} class="chip">
                      {labelName(id)}
                    </li>
                  ))}
                </ul>
                <ApplyProgress rule={rule} />
                {editor ? (
                  <div class="actions">
                    <button type="button" disabled={action.busy || running(rule)} onClick={() => void action.run(() => applyRule(rule.id)).then((ok) => ok && rules.reload())}>
                      Apply to existing documents<span class="visually-hidden"> ({rule.name})</span>
                    </button>
                    <button type="button" onClick={() => (action.clear(), setEditing(rule.id))}>
                      Edit<span class="visually-hidden"> {rule.name}</span>
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => confirm(`Delete rule "${rule.name}"?`) && void action.run(() => deleteRule(rule.id)).then((ok) => ok && rules.reload())}
                    >
                      Delete<span class="visually-hidden"> {rule.name}</span>
                    </button>
                  </div>
                ) : null}
              </>
            )}
          </li>
        ))}
        {rules.value && !rules.value.length ? <li class="sub">No rules yet.</li> : null}
      </ul>
    </Page>
  );
}
