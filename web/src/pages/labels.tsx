/** Labels: list with counts, create, rename, delete; each links to its documents. */
import { createLabel, deleteLabel, listLabels, updateLabel } from '../api';
import { can, session } from '../session';
import { ErrorNote, Field, Page, useAction, useLoad } from '../ui';

export function LabelsPage() {
  const labels = useLoad(listLabels, []);
  const action = useAction();
  const editor = can.edit(session()?.user);
  return (
    <Page title="Labels">
      {editor ? (
        <form
          class="inline-form"
          aria-label="New label"
          onSubmit={(event) => {
            event.preventDefault();
            const formElement = event.currentTarget;
            const form = new FormData(formElement);
            void action
              .run(() => createLabel({ name: String(form.get('name')), color: String(form.get('color')), description: String(form.get('description') ?? '') }))
              .then((ok) => ok && (formElement.reset(), labels.reload()));
          }}
        >
          <Field label="Name" name="name" required error={action.error} />
          <Field label="Colour" name="color" type="color" defaultValue="#3366cc" error={action.error} />
          <Field label="Description" name="description" error={action.error} />
          <button type="submit" class="primary" disabled={action.busy}>
            Create label
          </button>
        </form>
      ) : null}
      <ErrorNote error={action.error ?? labels.error} />
      <ul class="cards">
        {(labels.value ?? []).map((label) => (
          <li key={label.id} class="card">
            <span class="swatch" style={{ background: label.color }} aria-hidden="true" />
            <a href={`#/documents?label_ids=${label.id}`}>{label.name}</a> <span class="sub">{label.document_count} documents</span>
            {label.description ? <p class="sub">{label.description}</p> : null}
            {editor ? (
              <div class="actions">
                <button
                  type="button"
                  onClick={() => {
                    const name = prompt('New name', label.name);
                    if (name) void action.run(() => updateLabel(label.id, { name })).then((ok) => ok && labels.reload());
                  }}
                >
                  Rename<span class="visually-hidden"> {label.name}</span>
                </button>
                <button
                  type="button"
                  class="danger"
                  onClick={() => confirm(`Delete label "${label.name}"?`) && void action.run(() => deleteLabel(label.id)).then((ok) => ok && labels.reload())}
                >
                  Delete<span class="visually-hidden"> {label.name}</span>
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </Page>
  );
}
