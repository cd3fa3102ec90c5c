import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PART_MAX_RECORDS } from '../../../../shared/domain/portability/archive-format';
import { collect, HashingStream, PartBuilder, sha256Of } from '../../../../shared/domain/portability/json-lines';

const chunksOf = async function* (...chunks: string[]) {
  for (const chunk of chunks) yield new TextEncoder().encode(chunk);
};

describe('PartBuilder', () => {
  it('writes one JSON record per line', () => {
    // Arrange
    const builder = new PartBuilder();
    builder.push({ id: 'a' });
    builder.push({ id: 'b', n: 2 });

    // Act
    const part = new TextDecoder().decode(builder.take());

    // Assert
    expect(part).toBe('{"id":"a"}\n{"id":"b","n":2}\n');
  });

  it('says the part is full at its most records, and not before', () => {
    // Arrange
    const builder = new PartBuilder();
    for (let i = 0; i < PART_MAX_RECORDS - 1; i++) builder.push({ i });

    // Act
    const fullAtLast = builder.push({ i: 'last' });

    // Assert
    expect(fullAtLast).toBe(true);
    expect(builder.records).toBe(PART_MAX_RECORDS);
  });

  it('says the part is full once one record passes its most bytes', () => {
    // Arrange
    const builder = new PartBuilder();

    // Act
    const full = builder.push({ text: 'x'.repeat(8 * 1024 * 1024) });

    // Assert
    expect(full).toBe(true);
    expect(builder.records).toBe(1);
  });

  it('starts an empty part once one is taken', () => {
    // Arrange
    const builder = new PartBuilder();
    builder.push({ id: 'a' });
    builder.take();

    // Act
    builder.push({ id: 'b' });

    // Assert
    expect(builder.records).toBe(1);
    expect(new TextDecoder().decode(builder.take())).toBe('{"id":"b"}\n');
  });
});

describe('HashingStream', () => {
  it('passes the chunks on unchanged and counts their bytes and SHA-256', async () => {
    // Arrange
    const stream = new HashingStream(chunksOf('hello ', 'world'));

    // Act
    const passed: string[] = [];
    for await (const chunk of stream) passed.push(new TextDecoder().decode(chunk));

    // Assert
    expect(passed).toEqual(['hello ', 'world']);
    expect(stream.size).toBe(11);
    expect(stream.sha256()).toBe(createHash('sha256').update('hello world').digest('hex'));
  });
});

describe('sha256Of', () => {
  it('is the hex SHA-256 of the bytes', () => {
    // Arrange
    const bytes = new TextEncoder().encode('abc');

    // Act
    const digest = sha256Of(bytes);

    // Assert
    expect(digest).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('collect', () => {
  it('reads a stream whole within its bound', async () => {
    // Arrange
    const stream = chunksOf('ab', 'cd');

    // Act
    const bytes = await collect(stream, 4);

    // Assert
    expect(new TextDecoder().decode(bytes!)).toBe('abcd');
  });

  it('answers null for a stream of more bytes than its bound', async () => {
    // Arrange
    const stream = chunksOf('ab', 'cde');

    // Act
    const bytes = await collect(stream, 4);

    // Assert
    expect(bytes).toBeNull();
  });
});
