/** Admins: the workspace's users; create, change role, delete. */
import { useState } from 'preact/hooks';
import { createUser, deleteUser, listUsers, setRole, type User } from '../api';
import { ErrorNote, Field, Page, Pager, useAction, useLoad } from '../ui';

const ROLES: User['role'][] = ['viewer', 'editor', 'admin'];

export function UsersPage() {
  const [page, setPage] = useState(1);
  const users = useLoad(() => listUsers(page), [page]);
  const action = useAction();
  return (
    <Page title="Users">
      <form
        class="inline-form"
        aria-label="New user"
        onSubmit={(event) => {
          event.preventDefault();
          const formElement = event.currentTarget;
          const form = new FormData(formElement);
          void action
            .run(() =>
              createUser({
                username: String(form.get('username')),
                email: String(form.get('email')),
                password: String(form.get('password')),
                role: String(form.get('role')) as User['role'],
              }),
            )
            .then((ok) => ok && (formElement.reset(), users.reload()));
        }}
      >
        <Field label="Username" name="username" required autocomplete="off" error={action.error} />
        <Field label="Email" name="email" type="email" required autocomplete="off" error={action.error} />
        <Field label="Password" name="password" type="password" required autocomplete="new-password" error={action.error} />
        <div class="field">
          <label for="field-role">Role</label>
          <select id="field-role" name="role">
            {ROLES.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        </div>
        <button type="submit" class="primary" disabled={action.busy}>
          Create user
        </button>
      </form>
      <ErrorNote error={action.error ?? users.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption class="visually-hidden">Users</caption>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col" class="wide">
                Email
              </th>
              <th scope="col">Role</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(users.value?.data ?? []).map((user) => (
              <tr key={user.id}>
                <td>{user.username}</td>
                <td class="wide">{user.email}</td>
                <td>
                  <select
                    aria-label={`Role of ${user.username}`}
                    value={user.role}
                    onChange={(event) => void action.run(() => setRole(user.id, event.currentTarget.value as User['role'])).then(() => users.reload())}
                  >
                    {ROLES.map((role) => (
                      <option key={role}>{role}</option>
                    ))}
                  </select>
                </td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => confirm(`Delete user "${user.username}"?`) && void action.run(() => deleteUser(user.id)).then((ok) => ok && users.reload())}
                  >
                    Delete<span class="visually-hidden"> {user.username}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {users.value ? <Pager page={page} totalPages={users.value.pagination.total_pages} total={users.value.pagination.total} onPage={setPage} /> : null}
    </Page>
  );
}
