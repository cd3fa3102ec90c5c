import { beforeAll, describe, expect, it } from 'vitest';
import { ocrLanguageFor, requireOcrLanguage } from '../../../../shared/domain/ocr/ocr-language';
import { domainStores, refusalOf } from '../workspace-stores';

/** Tesseract's languages as this machine has them (the project installs eng and deu). */
describe('requireOcrLanguage', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('lets through languages the engine has, alone or joined with +', async () => {
    // Act
    const outcome = await refusalOf(Promise.all([requireOcrLanguage(stores.inWorkspace(), 'eng'), requireOcrLanguage(stores.inWorkspace(), 'eng+deu')]));

    // Assert
    expect(outcome).toBeNull();
  });

  it('refuses with 400 naming the missing codes and those available', async () => {
    // Act
    const refused = await refusalOf(requireOcrLanguage(stores.inWorkspace(), 'eng+xyz+abc'));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'language', reason: expect.stringMatching(/^not available: xyz, abc \(available: .*eng.*\)$/) } });
  });

  it('names the field the caller gives', async () => {
    // Act
    const refused = await refusalOf(requireOcrLanguage(stores.inWorkspace(), 'xyz', 'ocr_default_language'));

    // Assert
    expect(refused).toMatchObject({ details: { field: 'ocr_default_language' } });
  });
});

describe('ocrLanguageFor', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('takes the language asked for', async () => {
    // Act
    const language = await ocrLanguageFor(stores.inWorkspace(), crypto.randomUUID(), 'deu');

    // Assert
    expect(language).toBe('deu');
  });

  it("takes the user's ocr_default_language when none is asked for", async () => {
    // Arrange
    const userId = crypto.randomUUID();
    await stores.settings.update(userId, { ocr_default_language: 'eng+deu' }, new Date().toISOString());

    // Act
    const language = await ocrLanguageFor(stores.inWorkspace(), userId, undefined);

    // Assert
    expect(language).toBe('eng+deu');
  });

  it('takes eng for a user who never saved settings', async () => {
    // Act
    const language = await ocrLanguageFor(stores.inWorkspace(), crypto.randomUUID(), undefined);

    // Assert
    expect(language).toBe('eng');
  });
});
