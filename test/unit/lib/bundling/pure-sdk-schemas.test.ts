import { describe, expect, it } from 'vitest';
import { inlineSchemaKeys, SDK_SCHEMA_MODULE } from '../../../../lib/bundling/pure-sdk-schemas';

describe('inlineSchemaKeys', () => {
  it('writes a computed key that names a string constant as that string', () => {
    const source = ['const _hH = "httpHeader";', 'const _xaebo = "x-amz-expected-bucket-owner";', 'export var A$ = [[0, { [_hH]: _xaebo }]];'].join('\n');

    const inlined = inlineSchemaKeys(source);

    expect(inlined).toContain('export var A$ = [[0, { "httpHeader": _xaebo }]];');
  });

  it('keeps the constants themselves, which the schemas still read as values', () => {
    const source = ['const _h = "http";', 'export var B$ = [9, "n", { [_h]: ["GET", "/", 200] }];'].join('\n');

    const inlined = inlineSchemaKeys(source);

    expect(inlined.split('\n')[0]).toBe('const _h = "http";');
  });

  it('leaves a computed key that names no string constant as it is', () => {
    const source = ['const _n = 5;', 'export var C$ = { [_n]: 1, [_other]: 2 };'].join('\n');

    const inlined = inlineSchemaKeys(source);

    expect(inlined).toBe(source);
  });

  it('keeps escapes in a constant as written', () => {
    const source = ['const _q = "a\\"b";', 'export var D$ = { [_q]: 1 };'].join('\n');

    const inlined = inlineSchemaKeys(source);

    expect(inlined).toContain('export var D$ = { "a\\"b": 1 };');
  });
});

describe('SDK_SCHEMA_MODULE', () => {
  it.each([
    '/repo/node_modules/@aws-sdk/client-s3/dist-es/schemas/schemas_0.js',
    'C:\\repo\\node_modules\\@aws-sdk\\client-dynamodb\\dist-es\\schemas\\schemas_12.js',
  ])('matches a client schema module: %s', (file) => {
    expect(SDK_SCHEMA_MODULE.test(file)).toBe(true);
  });

  it.each([
    '/repo/node_modules/@aws-sdk/client-s3/dist-cjs/schemas/schemas_0.js',
    '/repo/node_modules/@aws-sdk/client-s3/dist-es/commands/PutObjectCommand.js',
    '/repo/node_modules/@aws-sdk/lib-dynamodb/dist-es/schemas/schemas_0.js',
  ])('matches nothing else: %s', (file) => {
    expect(SDK_SCHEMA_MODULE.test(file)).toBe(false);
  });
});
