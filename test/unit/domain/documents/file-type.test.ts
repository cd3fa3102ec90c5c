import { describe, expect, it } from 'vitest';
import { detectMimeType } from '../../../../shared/domain/documents/file-type';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)));

describe('detectMimeType', () => {
  it.each([
    ['application/pdf', bytes('%PDF-1.7\n')],
    ['image/png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0])],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['image/tiff', bytes([0x49, 0x49, 0x2a, 0x00])],
    ['image/tiff', bytes([0x4d, 0x4d, 0x00, 0x2a])],
    ['image/webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')],
  ])('knows %s from its first bytes', (type, head) => {
    // Act
    const detected = detectMimeType(head);

    // Assert
    expect(detected).toBe(type);
  });

  it('finds a PDF header after some junk within the first kilobyte', () => {
    // Act
    const detected = detectMimeType(bytes('x'.repeat(500), '%PDF-1.4'));

    // Assert
    expect(detected).toBe('application/pdf');
  });

  it('does not look for a PDF header beyond the first kilobyte', () => {
    // Act
    const detected = detectMimeType(bytes('x'.repeat(1024), '%PDF-1.4'));

    // Assert
    expect(detected).toBeNull();
  });

  it('knows an executable as nothing it accepts, whatever it is named', () => {
    // Act
    const detected = detectMimeType(bytes('MZ', [0x90, 0x00]));

    // Assert
    expect(detected).toBeNull();
  });

  it('does not take any RIFF file for a WebP image', () => {
    // Act
    const detected = detectMimeType(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '));

    // Assert
    expect(detected).toBeNull();
  });
});
