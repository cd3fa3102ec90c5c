/**
 * The languages Textract's text detection reads (printed English, German, French, Spanish, Italian and
 * Portuguese, detected without being told), as the OCR language codes the API takes. A module of its own so
 * that the HTTP functions can validate requests without bundling the Textract client.
 */
export const TEXTRACT_LANGUAGES = ['eng', 'deu', 'fra', 'spa', 'ita', 'por'] as const;
