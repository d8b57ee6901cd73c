/**
 * Hostile values for the reliability suite: a fixed corpus of strings and JSON values known to break parsers,
 * databases and text handling, and fast-check arbitraries that mix them with random data. Seeds are fixed by the
 * tests (SEED), so a failure reproduces.
 */
import fc from 'fast-check';

/** Every property of the suite runs with this seed (a failure prints its path; rerun with the same seed). */
export const SEED = 20260110;

/** Strings that have broken some parser, database or text routine somewhere. */
export const NASTY_STRINGS: readonly string[] = [
  '', ' ', '\t\n\r', 'a', 'ab',
  // NUL and control characters
  '\u0000', 'a\u0000b', '\u0000'.repeat(64), '\u0007\u001b[31m\u007f',
  // lone surrogates (not valid UTF-16; not encodable as UTF-8)
  '\ud800', '\udc00abc', 'x\ud83dy', '\udfff\ud800',
  // bidi and invisible characters
  '\u202eRTL\u202c', '\u200f\u200e', '\ufeffBOM', '\u200b\u200c\u200d', '\u2028\u2029',
  // combining characters, normalization, case folding that changes length
  'e\u0301', 'a' + '\u0301'.repeat(200), 'Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357', 'ä\u0308ö', 'İ', 'ẞ', 'ﬁ', 'Straße',
  // astral plane, emoji sequences
  '𝔄𝔅', '👩‍👩‍👧‍👦', '💩'.repeat(300),
  // path traversal and URL tricks
  '../../etc/passwd', '..\\..\\windows\\win.ini', '/etc/passwd', '%2e%2e%2f', '..%2F..%2F', '%00', '%', '%ZZ', '?a=b#c',
  'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data/',
  // FTS5 query syntax
  'NEAR(', 'NEAR(a b, 3)', 'NEAR("a" "b", -1)', '"', '""', '"unclosed', '"a" "b"', '*', 'a*', '*a', '-', '-a', 'a - b', '+',
  '^a', 'col:', 'title:x', 'body:x', 'lead:x', '{title body}:x', 'a:b:c', ':', 'AND', 'OR', 'NOT', 'a OR b', 'a AND NOT b',
  '(a OR b) AND NOT c', '(', ')', '((((', 'a NEAR b', '"a"*', 'x*y', '§', '§§ 1 ff.',
  // SQL and JSON-ish
  "'; DROP TABLE decisions; --", "' OR 1=1 --", '\\', '\\\\\\', '{"$gt": 1}', 'null', 'undefined', 'NaN', 'Infinity',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  // numbers as strings
  '0', '-0', '-1', '1.5', '1e3', '1e309', '0x10', '9007199254740993', ' 500', '500 ', '+500',
  // XML and HTML
  '<script>alert(1)</script>', '<![CDATA[x]]>', '&lol9;', '<!DOCTYPE x [<!ENTITY y SYSTEM "file:///etc/passwd">]>',
  // long
  'x'.repeat(201), 'x'.repeat(501), 'ü'.repeat(600), 'a '.repeat(600),
];

/** JSON values of every type, with edge cases of each. */
export const NASTY_JSON: readonly unknown[] = [
  null, true, false, 0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 0.1, [], [null], [[[]]], {}, { a: 1 },
  JSON.parse('{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}'), Array.from({ length: 200 }, (_, i) => i), ...NASTY_STRINGS,
];

/** Lone surrogates cannot be UTF-8: what a client sends for them is U+FFFD or raw bytes; we send their bytes. */
function percentEncodeBytes(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path segment, percent-encoded from the string's UTF-8 (lone surrogates become U+FFFD, as in any client). */
export function encodeSegment(value: string): string {
  return percentEncodeBytes(Buffer.from(value, 'utf8'));
}

/** Path segments no string encodes to: invalid percent escapes and invalid UTF-8. */
export const RAW_SEGMENTS: readonly string[] = [
  '%', '%Z', '%ZZ', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF%FE', '%00', '..', '.', '%2e%2e', '%2E%2E%2F%2E%2E', '..%2f..%2f',
  '%252e%252e', 'a%2Fb', '%5C..%5C',
];

/** `arbitrary` in one case out of `every`, else undefined (fc.option's `freq` weighs the other way round). */
export function sometimes<T>(arbitrary: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: every - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

/** A string from the nasty corpus or random unicode (including lone surrogates via fc.string's full unit range). */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('"', '*', '-', ':', '(', ')', '^', '+', ' ', 'a', 'ö', '§', 'NEAR', 'OR', 'AND', 'NOT'), maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 30 }) },
);

/** Any JSON value: nasty corpus, random JSON, or a nasty string. */
export const nastyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_JSON) },
  { weight: 2, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: -2, max: 600 }) },
);

/**
 * An argument object for an operation: each known argument either absent, a plausible value or a nasty value, plus
 * sometimes an unknown key. `plausible` gives per-argument arbitraries of values that may well be valid.
 */
export function argumentsFor(names: readonly string[], plausible: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<Record<string, unknown>> {
  // Each argument present two times in three.
  const entry = (name: string) => fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: plausible[name] ?? nastyJson },
    { weight: 1, arbitrary: nastyJson },
  );
  const known = fc.record(Object.fromEntries(names.map((name) => [name, entry(name)])));
  const unknown = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'extra', 'a'.repeat(300), '\u0000', ''), nastyJson, { maxKeys: 2 });
  return fc.tuple(known, unknown).map(([values, extra]) => {
    const args: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(extra)) Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
    for (const [name, value] of Object.entries(values)) if (value !== undefined) args[name] = value;
    return args;
  });
}

/**
 * Arguments close to a valid call: `base` plus plausible values for some arguments, and at most one argument set to
 * a nasty value, so that most calls pass validation and the handlers meet hostile content.
 */
export function nearlyValidArguments(names: readonly string[], base: Record<string, unknown>, plausible: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  // Each optional argument with a plausible value one time in three.
  const chosen = fc.record(Object.fromEntries(names.filter((name) => plausible[name]).map((name) => [name, sometimes(plausible[name], 3)])));
  // An operation without arguments (get_account) gets none to spoil: its calls are the base alone.
  const mutation = names.length === 0 ? fc.constant(undefined)
    : sometimes(fc.tuple(fc.constantFrom(...names), fc.oneof(nastyString, nastyJson)), 2);
  return fc.tuple(chosen, mutation).map(([values, change]) => {
    const args: Record<string, unknown> = { ...base };
    for (const [name, value] of Object.entries(values)) if (value !== undefined) args[name] = value;
    if (change) args[change[0]] = change[1];
    return args;
  });
}

/** Query strings from plain values (arrays repeat the parameter); strings pass as their UTF-8 bytes. */
export function queryString(args: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = typeof item === 'string' ? item : JSON.stringify(item) ?? '';
      parts.push(`${encodeSegment(name)}=${encodeSegment(text)}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
