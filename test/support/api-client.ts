import { assertKeepsContract } from './openapi-validator';
import { eventually } from './until';
/**
 * A minimal HTTP client for e2e tests: JSON in, JSON out, the way a real client calls the API. Every answer it
 * receives is checked against the API contract (see openapi-validator.ts): one that breaks it throws.
 */
// Response bodies are whatever the API sent: tests assert on their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null = null,
  ) {}

  withToken(token: string | null): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  get(path: string) {
    return this.request('GET', path);
  }

  post(path: string, body?: unknown) {
    return this.request('POST', path, body);
  }

  put(path: string, body?: unknown) {
    return this.request('PUT', path, body);
  }

  delete(path: string) {
    return this.request('DELETE', path);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    init: { headers?: Record<string, string>; rawBody?: string } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(init.rawBody !== undefined ? { body: init.rawBody } : body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the raw text is what the test gets.
    }
    assertKeepsContract({ method, path, status: response.status, contentType: response.headers.get('content-type'), body: parsed });
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  /** Sends a multipart/form-data body, as a browser form would. */
  async upload(path: string, form: FormData): Promise<ApiResponse> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
      body: form,
    });
    const text = await response.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    assertKeepsContract({ method: 'POST', path, status: response.status, contentType: response.headers.get('content-type'), body });
    return { status: response.status, headers: response.headers, body };
  }

  /**
   * Uploads one file, with form fields before it, through `POST /api/documents/upload` and resolves with the new
   * document's id: the arrange step of tests that need a document. Any answer but 201 throws.
   */
  async uploadDocument(name: string, bytes: Uint8Array, fields: Record<string, string> = {}): Promise<string> {
    const form = new FormData();
    for (const [field, value] of Object.entries(fields)) form.append(field, value);
    form.append('file', new Blob([bytes]), name);
    const response = await this.upload('/api/documents/upload', form);
    if (response.status !== 201) throw new Error(`upload failed: ${JSON.stringify(response.body)}`);
    return response.body.id as string;
  }

  /**
   * Waits until the search index holds the document's OCR outcome (its text and confidence): the index follows
   * the table's stream, a moment behind the document's `completed`. For documents whose OCR completed.
   */
  async searchable(id: string, timeoutMs = 10_000): Promise<void> {
    const { body: document } = await this.get(`/api/documents/${id}`);
    const query = { query: { must: [{ field: 'filename', value: document.filename, type: 'exact' }] }, filters: { min_confidence: 0 }, per_page: 100 };
    await eventually(
      () => this.post('/api/search/advanced', query),
      (response) => (response.body.results ?? []).some((hit: { document_id: string }) => hit.document_id === id),
      timeoutMs,
      `document ${id} searchable with its text`,
    );
  }

  /** The raw bytes of a response, for downloads and images. */
  async bytes(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get('content-type');
    const json = contentType?.includes('application/json');
    assertKeepsContract({ method: 'GET', path, status: response.status, contentType, body: json ? JSON.parse(bytes.toString('utf8')) : undefined, binary: !json });
    return { status: response.status, headers: response.headers, bytes };
  }

  /** Registers a user with a unique name (who gets a workspace of their own, as its admin) and logs in as them. */
  async signUp(prefix = 'user'): Promise<{ client: ApiClient; user: { id: string; username: string; email: string }; password: string }> {
    const suffix = Math.random().toString(36).slice(2, 10);
    const username = `${prefix}_${suffix}`;
    const password = `pw-${suffix}-secret`;
    const registered = await this.post('/api/auth/register', { username, email: `${username}@example.com`, password });
    if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
    return { client: await this.login(username, password), user: registered.body, password };
  }

  /** As a workspace admin: creates a member of the admin's workspace with a unique name, and logs in as them. */
  async addMember(
    role: 'admin' | 'editor' | 'viewer',
    prefix: string = role,
  ): Promise<{ client: ApiClient; user: { id: string; username: string; email: string }; password: string }> {
    const suffix = Math.random().toString(36).slice(2, 10);
    const username = `${prefix}_${suffix}`;
    const password = `pw-${suffix}-secret`;
    const created = await this.post('/api/users', { username, email: `${username}@example.com`, password, role });
    if (created.status !== 201) throw new Error(`creating a member failed: ${JSON.stringify(created.body)}`);
    return { client: await this.login(username, password), user: created.body, password };
  }

  async login(username: string, password: string): Promise<ApiClient> {
    const response = await this.post('/api/auth/login', { username, password });
    if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
    return this.withToken(response.body.token);
  }
}
