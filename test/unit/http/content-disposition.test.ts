import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../../../shared/http/content-disposition';

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('Résumé "1".pdf')).toBe(
      `attachment; filename="R_sum_ _1_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%221%22.pdf`,
    );
  });

  it('builds a header from a stored name that holds half a surrogate pair', () => {
    const header = attachmentDisposition(`${'a'.repeat(254)}\ud83d`);

    expect(header).toContain(`filename*=UTF-8''${'a'.repeat(254)}%EF%BF%BD`);
  });

  it('leaves controls and bidirectional formatting out of the header', () => {
    expect(attachmentDisposition('a\r\nb\u202ec.pdf')).toBe(`attachment; filename="abc.pdf"; filename*=UTF-8''abc.pdf`);
  });
});
