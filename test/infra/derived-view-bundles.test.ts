import { readdirSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledInputsOf, externalImportsOf } from '../support/lambda-bundle-inputs';

/*
 * Issue 17: the search index and the WebSocket events follow the table's stream, so the OpenSearch client is
 * bundled only by the functions that search, keep the index in step, set it up or erase a workspace, and the
 * @connections client only by the functions that push to or close connections. What keeps them out of the others
 * is that each function's entry (functions/<group>/index.ts) builds only what its handler declares, from the kit
 * of shared/container/kit/ (docs/architecture.md, Composition); this reads each bundle's contents, as the CDK
 * bundles it (lib/bundling/lambda-bundle.ts). The WebDAV client likewise stays in the two functions that check and
 * sync sources, the sources' repositories in the functions that manage, sync, schedule, count or carry sources,
 * and the X-Ray SDK and OpenTelemetry's auto-instrumentation in none (the functions make their spans themselves:
 * shared/adapters/otel/). The rate limits stay in the functions that serve requests, the password hasher in those
 * that check or set passwords, the host probe in those that report the system metrics, the adoption of
 * pre-workspace items in the bootstrap. No bundle loads `node:process` (or `process`) as a module, which costs a
 * cold start some 6 ms (shared/adapters/node/process-exports.ts).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const GROUPS = readdirSync(path.join(ROOT, 'functions')).filter((group) => existsSync(path.join(ROOT, 'functions', group, 'index.ts')));

const OPENSEARCH_CODE = /node_modules\/@opensearch-project\/opensearch\//u;
const CONNECTIONS_CODE = /node_modules\/@aws-sdk\/client-apigatewaymanagementapi\//u;
const OPENSEARCH_USERS = ['eraser', 'indexer', 'search', 'search-index-setup'];
const CONNECTION_USERS = ['eraser', 'events', 'realtime'];
/** The S3 client: only the entries of the functions that use the bucket build a file store (or load one on first use). */
const S3_CODE = /node_modules\/@aws-sdk\/client-s3\//u;
const S3_USERS = ['documents', 'eraser', 'health', 'indexer', 'ingest', 'ocr-worker', 'portability', 'portability-worker', 'rule-jobs', 'source-sync'];
/**
 * The WebDAV client, which only the sources and source-sync entries build. Its address policy (the guard against
 * private, loopback and link-local addresses) is not the client: the webhook sender uses it too (issue 36).
 */
const WEBDAV_CODE = /shared\/adapters\/webdav\/(?!address-policy\.ts$)/u;
const WEBDAV_USERS = ['sources', 'source-sync'];
/** The SDK's default credential chain beyond the environment: profiles, SSO, STS web identity and their clients. */
const CREDENTIAL_CHAIN_CODE = /node_modules\/@aws-sdk\/(credential-provider-(node|ini|sso|web-identity|process)|nested-clients)\//u;
/** The sources' stores: only the entries of what manages, syncs, schedules, counts or carries sources build them. */
const SOURCE_STORES_CODE = /shared\/adapters\/aws\/dynamodb\/(source-repository|sync-state-store|source-schedule)\.ts$/u;
const SOURCE_STORES_USERS = ['portability', 'portability-worker', 'sources', 'source-sync', 'source-scheduler', 'workspaces'];
/**
 * What only serving requests needs: the rate limits (every HTTP function's gate, shared/container/kit/request-gate.ts),
 * the password hasher (what checks or sets passwords) and the host probe (what reports the system metrics).
 */
const RATE_LIMITS_CODE = /shared\/adapters\/aws\/dynamodb\/rate-limit-store\.ts$/u;
const RATE_LIMITS_USERS = ['audit', 'auth', 'documents', 'labels', 'notifications', 'ocr', 'portability', 'realtime', 'search', 'settings', 'sources', 'users', 'webhooks', 'workspaces'];
const PASSWORDS_CODE = /shared\/adapters\/crypto\/argon2id-password-hasher\.ts$/u;
const PASSWORDS_USERS = ['auth', 'bootstrap', 'users'];
const HOST_PROBE_CODE = /shared\/adapters\/node\/host-probe\.ts$/u;
const HOST_PROBE_USERS = ['ocr'];
const LEGACY_ADOPTION_CODE = /shared\/adapters\/aws\/dynamodb\/legacy-item-adoption\.ts$/u;
/**
 * The X-Ray SDK and what it brings (cls-hooked and its async hook, semver), and OpenTelemetry's auto-instrumentation
 * (which patches modules as they load): shared/adapters/otel/ does without either.
 */
const XRAY_SDK_CODE =
  /node_modules\/(aws-xray-sdk-core|cls-hooked|semver|@aws-lambda-powertools\/tracer|@opentelemetry\/instrumentation[^/]*|require-in-the-middle|import-in-the-middle)\//u;

describe('the search, @connections and WebDAV clients in the Lambda bundles', () => {
  it('finds a bundle for each of the stream consumers', () => {
    // Arrange
    const consumers = ['indexer', 'events'];

    // Act
    const missing = consumers.filter((group) => !GROUPS.includes(group));

    // Assert
    expect(missing).toEqual([]);
  });

  it.each(GROUPS)('puts the OpenSearch client and the @connections client only where the %s function uses them', async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const carries = { openSearch: inputs.some((input) => OPENSEARCH_CODE.test(input)), connections: inputs.some((input) => CONNECTIONS_CODE.test(input)) };

    // Assert
    expect(carries).toEqual({ openSearch: OPENSEARCH_USERS.includes(group), connections: CONNECTION_USERS.includes(group) });
  });

  it.each(GROUPS)('puts the S3 client only where the %s function uses the bucket', async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const carries = inputs.some((input) => S3_CODE.test(input));

    // Assert
    expect(carries).toBe(S3_USERS.includes(group));
  });

  it.each(GROUPS)('puts the WebDAV client only where the %s function checks or syncs sources', async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const carries = inputs.some((input) => WEBDAV_CODE.test(input));

    // Assert
    expect(carries).toBe(WEBDAV_USERS.includes(group));
  });

  it.each(GROUPS)('leaves the SDK credential chain that Lambda never uses out of the %s function', async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const chain = inputs.filter((input) => CREDENTIAL_CHAIN_CODE.test(input));

    // Assert
    expect(chain).toEqual([]);
  });

  it.each(GROUPS)("leaves the X-Ray SDK and OpenTelemetry's auto-instrumentation out of the %s function, which makes its spans itself", async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const xraySdk = inputs.filter((input) => XRAY_SDK_CODE.test(input));

    // Assert
    expect(xraySdk).toEqual([]);
  });

  it.each(GROUPS)("puts the sources' stores only where the %s function manages, syncs, schedules, counts or carries sources", async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const carries = inputs.some((input) => SOURCE_STORES_CODE.test(input));

    // Assert
    expect(carries).toBe(SOURCE_STORES_USERS.includes(group));
  });

  it.each(GROUPS)('has the %s function read process from the global rather than load node:process', async (group) => {
    // Arrange
    const imports = await externalImportsOf(group);

    // Act
    const processModule = imports.filter((imported) => imported === 'node:process' || imported === 'process');

    // Assert
    expect(processModule).toEqual([]);
  });

  it.each(GROUPS)('puts the rate limits only where the %s function serves requests', async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const carries = inputs.some((input) => RATE_LIMITS_CODE.test(input));

    // Assert
    expect(carries).toBe(RATE_LIMITS_USERS.includes(group));
  });

  it.each(GROUPS)('puts the password hasher only where the %s function checks or sets passwords', async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const carries = inputs.some((input) => PASSWORDS_CODE.test(input));

    // Assert
    expect(carries).toBe(PASSWORDS_USERS.includes(group));
  });

  it.each(GROUPS)('puts the host probe only where the %s function reports the system metrics', async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const carries = inputs.some((input) => HOST_PROBE_CODE.test(input));

    // Assert
    expect(carries).toBe(HOST_PROBE_USERS.includes(group));
  });

  it.each(GROUPS)('puts the adoption of pre-workspace items in the %s function only if it is the bootstrap', async (group) => {
    // Arrange
    const inputs = await bundledInputsOf(group);

    // Act
    const carries = inputs.some((input) => LEGACY_ADOPTION_CODE.test(input));

    // Assert
    expect(carries).toBe(group === 'bootstrap');
  });
});
