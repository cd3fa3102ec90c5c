/**
 * Characters that change how a text reads without being seen: C0 and C1 controls, DEL, and the bidirectional
 * formatting characters (an RLO in `invoice\u202Efdp.png` shows it as `invoicegnp.pdf`). Names people read
 * (filenames, titles, label, source and display names) hold none of them.
 */
const INVISIBLE_CLASS = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]';
const INVISIBLE_CONTROLS = new RegExp(INVISIBLE_CLASS, 'g');
const ANY_INVISIBLE_CONTROL = new RegExp(INVISIBLE_CLASS);

// In a `u` regex a surrogate range matches only a surrogate that is not part of a pair.
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

/** Why a name cannot be shown as given, or null: for names a client types, which are refused rather than changed. */
export function displayTextProblem(text: string): string | null {
  return ANY_INVISIBLE_CONTROL.test(text) ? 'must not contain control or bidirectional formatting characters' : null;
}

/**
 * A name as it may be stored and shown: well-formed Unicode (an unpaired surrogate becomes U+FFFD) without
 * controls or bidirectional formatting characters. For names that arrive with files, which are cleaned rather
 * than refused.
 */
export function withoutControls(text: string): string {
  return text.replace(LONE_SURROGATES, '\uFFFD').replace(INVISIBLE_CONTROLS, '');
}
