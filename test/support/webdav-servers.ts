import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chown, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '../../shared/local/emulators/ports';
import { spawnTiedToParent } from '../../shared/local/emulators/processes';
import { startRecordingProxy, type DavRequest } from './webdav-proxy';

/*
 * What the two servers do with ETags (probed by hand and pinned by test/integration/webdav-servers.test.ts;
 * Apache 2.4 mod_dav_fs and rclone v1.60 `serve webdav`, local disk, ext4/overlay with nanosecond mtimes):
 *
 * - Collections: Apache gives every collection a getetag ("<size hex>-<mtime µs hex>" of the directory), rclone
 *   gives collections none at all.
 * - Apache's collection ETag changes when a file directly in it is (a) added by PUT, (b) overwritten by PUT
 *   (mod_dav_fs writes a temporary file and renames it over the old one, which touches the directory), (c)
 *   deleted by DELETE. (d) A change in a sub-directory does NOT change it: only that sub-directory's ETag moves.
 *   So a collection ETag can prune unchanged directories one level at a time, never a whole subtree.
 * - Apache file ETags are "<size hex>-<mtime µs hex>"; they are WEAK (W/"…") while the mtime is less than a
 *   second old (Apache's rule for files that may still be changing; collections too) and strong after that, so
 *   an ETag turns from W/"x" into "x" with no change to the file: compare them with the W/ prefix removed.
 * - rclone file ETags are strong, `"<mtime ns hex><size hex>"`; an overwrite with the same size within the same
 *   second gives a new one on both servers (sub-second mtimes), so neither needs a content hash to see it.
 * - Depth: infinity: Apache answers 403 (with DavDepthInfinity Off, its default) and an HTML body, not the
 *   DAV:propfind-finite-depth XML of RFC 4918; rclone answers 207 with the whole tree.
 * - An overwrite by PUT answers 204 on Apache and 201 on rclone.
 * - Hrefs are path-only and percent-encoded on both, but Apache writes lower-case hex (M%c3%a4rz) and rclone
 *   upper-case (M%C3%A4rz): decode hrefs before comparing them with each other or with paths.
 */

/** A WebDAV server this process started on 127.0.0.1. */
export interface RunningDav {
  kind: 'apache' | 'rclone';
  /** The collection that serves `root`, ending in a slash: http://127.0.0.1:PORT/dav/ */
  url: string;
  root: string;
  username: string;
  password: string;
  /** The requests the server answered so far (see each start function for where they come from). */
  requestLog(): Promise<DavRequest[]>;
  /** Ends the server's process group and removes its temporary files; the served root is kept. */
  stop(): Promise<void>;
}

export interface DavServerOptions {
  /** The directory to serve (read and written through the server). */
  root: string;
  username: string;
  password: string;
}

const APACHE = '/usr/sbin/apache2';
const APACHE_MODULES = '/usr/lib/apache2/modules';
const MODULES = ['mpm_event', 'authn_core', 'authn_file', 'authz_core', 'authz_user', 'auth_basic', 'dav', 'dav_fs', 'alias', 'mime'];

/** The uid and gid of a local account, from /etc/passwd. */
const account = (name: string): { uid: number; gid: number } => {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`no local account ${name}`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
};

const chownTree = async (path: string, uid: number, gid: number): Promise<void> => {
  await chown(path, uid, gid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) await chownTree(child, uid, gid);
    else await chown(child, uid, gid);
  }
};

/**
 * Starts a process (its own process group), waits until its port accepts connections, and gives back a stop
 * that ends the whole group. A process.on('exit') hook ends it too when a test run ends without calling stop.
 */
async function startProcess(name: string, command: string, args: string[], port: number, ids?: { uid: number; gid: number }) {
  const child: ChildProcess = spawnTiedToParent(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...ids });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8192)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8192)));
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      // The group is gone already.
    }
  };
  const onExit = () => signal('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    }
  };
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`${name} could not be started: ${error.message}`)));
    void gone.then(() => reject(new Error(`${name} exited early: ${output.trim()}`)));
  });
  exited.catch(() => undefined);
  try {
    await Promise.race([waitForPort(port, 20_000), exited]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop, output: () => output };
}

/**
 * Starts Apache httpd with mod_dav (package apache2) in the foreground, single-process (`-X`), on a free port
 * of 127.0.0.1, serving `root` at /dav/ with Basic auth. As root it runs as www-data (Apache refuses to serve
 * as root) and `root` is handed to www-data with chown; as any other user it runs as that user.
 * `depthInfinity` (default false) allows PROPFIND with Depth: infinity, which Apache refuses by default.
 * The request log is Apache's access log, written once each response is sent (poll it).
 */
export async function startApacheDav(options: DavServerOptions & { depthInfinity?: boolean }): Promise<RunningDav> {
  const dir = await mkdtemp(join(tmpdir(), 'docservice-dav-apache-'));
  const port = await freePort();
  const sha1 = createHash('sha1').update(options.password).digest('base64');
  await writeFile(join(dir, 'htpasswd'), `${options.username}:{SHA}${sha1}\n`);
  const config = [
    `ServerName 127.0.0.1`,
    `ServerRoot ${dir}`,
    `Listen 127.0.0.1:${port}`,
    ...MODULES.map((module) => `LoadModule ${module}_module ${APACHE_MODULES}/mod_${module}.so`),
    `TypesConfig /etc/mime.types`,
    `PidFile ${dir}/httpd.pid`,
    `DefaultRuntimeDir ${dir}`,
    `Mutex file:${dir} default`,
    `ErrorLog ${dir}/error.log`,
    `LogLevel warn`,
    `LogFormat "%>s %{Depth}i %r" dav`,
    `CustomLog ${dir}/access.log dav`,
    `DavLockDB ${dir}/davlock`,
    `DavDepthInfinity ${options.depthInfinity ? 'On' : 'Off'}`,
    `Alias /dav ${JSON.stringify(options.root)}`,
    `<Directory ${JSON.stringify(options.root)}>`,
    `  Dav On`,
    `  AuthType Basic`,
    `  AuthName dav`,
    `  AuthUserFile ${dir}/htpasswd`,
    `  Require valid-user`,
    `</Directory>`,
  ].join('\n');
  await writeFile(join(dir, 'httpd.conf'), `${config}\n`);
  const ids = process.getuid?.() === 0 ? account('www-data') : undefined;
  if (ids) {
    await chownTree(dir, ids.uid, ids.gid);
    await chownTree(options.root, ids.uid, ids.gid);
  }
  let server: Awaited<ReturnType<typeof startProcess>>;
  try {
    server = await startProcess('apache2', APACHE, ['-X', '-f', join(dir, 'httpd.conf')], port, ids);
  } catch (error) {
    const log = await readFile(join(dir, 'error.log'), 'utf8').catch(() => '');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  return {
    kind: 'apache',
    url: `http://127.0.0.1:${port}/dav/`,
    root: options.root,
    username: options.username,
    password: options.password,
    requestLog: async () => {
      const lines = (await readFile(join(dir, 'access.log'), 'utf8').catch(() => '')).split('\n');
      return lines.flatMap((line) => {
        const match = /^(\d{3}) (\S+) (\S+) (\S+)/.exec(line);
        if (!match) return [];
        const [, status, depth, method, target] = match;
        return [{ method: method!, path: target!.split('?')[0]!, depth: depth === '-' ? null : depth!, status: Number(status) }];
      });
    },
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts `rclone serve webdav` (package rclone) on a free port of 127.0.0.1, serving `root` at /dav/
 * (`--baseurl`) with Basic auth, an empty throwaway config, no VFS file cache (the default `--vfs-cache-mode
 * off`) and no directory cache (`--dir-cache-time 0s`), so files written straight to `root` show at once.
 * rclone's own log has no response statuses, so `url` is a recording proxy (./webdav-proxy.ts) in front of
 * rclone, and the request log is that proxy's. With `tls` it serves HTTPS and `url` is rclone's own: nothing is
 * recorded.
 */
export async function startRcloneDav(options: DavServerOptions & { tls?: RcloneTls }): Promise<RunningDav> {
  const dir = await mkdtemp(join(tmpdir(), 'docservice-dav-rclone-'));
  const config = join(dir, 'rclone.conf');
  await writeFile(config, '');
  const port = await freePort();
  const args = ['serve', 'webdav', options.root, '--addr', `127.0.0.1:${port}`, '--baseurl', '/dav'];
  args.push('--user', options.username, '--pass', options.password, '--config', config, '--dir-cache-time', '0s');
  if (options.tls) args.push('--cert', options.tls.certFile, '--key', options.tls.keyFile);
  let rclone: Awaited<ReturnType<typeof startProcess>>;
  try {
    rclone = await startProcess('rclone', 'rclone', args, port);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // A recording proxy cannot stand in front of TLS: over HTTPS the URL is rclone's own and nothing is recorded.
  const proxy = options.tls ? null : await startRecordingProxy(`http://127.0.0.1:${port}/dav/`);
  return {
    kind: 'rclone',
    url: proxy?.url ?? `https://127.0.0.1:${port}/dav/`,
    root: options.root,
    username: options.username,
    password: options.password,
    requestLog: () => (proxy ? Promise.resolve(proxy.requests()) : Promise.reject(new Error('the requests of a server over TLS are not recorded'))),
    stop: async () => {
      await proxy?.stop();
      await rclone.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The certificate and key files rclone serves HTTPS with (`--cert`, `--key`), PEM. */
export interface RcloneTls {
  certFile: string;
  keyFile: string;
}

/** Basic credentials for a server's user, as an Authorization header value. */
export const basicAuth = (dav: Pick<RunningDav, 'username' | 'password'>): string =>
  `Basic ${Buffer.from(`${dav.username}:${dav.password}`).toString('base64')}`;
