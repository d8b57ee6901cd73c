/**
 * A strict reader of the Prometheus text exposition format 0.0.4 (no installed package parses it; prom-client only
 * writes it): every line is a HELP, a TYPE or a sample of a declared family, label values in the format's escapes,
 * values as the format spells them; a histogram's buckets never fall and its +Inf bucket equals its count.
 */

export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Family { name: string; type: string; help: string; samples: Sample[] }

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*';
// As Prometheus reads values (Go's ParseFloat): Inf and NaN in any case (prom-client writes `Nan`).
const VALUE = '(?:[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?|[+-]?[Ii][Nn][Ff]|[Nn][Aa][Nn])';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL}="(?:[^"\\\\\\n]|\\\\[\\\\"n])*",?)*)\\})? (${VALUE})(?: -?\\d+)?$`, 'u');
const LABEL_PAIR = new RegExp(`(${LABEL})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`, 'gu');
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

const unescape = (text: string) => text.replace(/\\(.)/gu, (_, c: string) => (c === 'n' ? '\n' : c));

/** The families of an exposition text; throws naming the line that breaks the format. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const lines = text.split('\n');
  if (lines.pop() !== '') throw new Error('the text must end with a newline');
  for (const [index, line] of lines.entries()) {
    const fail = (why: string) => new Error(`line ${index + 1} (${JSON.stringify(line)}): ${why}`);
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/u.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (!new RegExp(`^${NAME}$`, 'u').test(name)) throw fail('bad metric name');
      const family = families.get(name) ?? { name, type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw fail('unknown type');
        if (family.samples.length) throw fail('TYPE after samples');
        family.type = rest;
      } else family.help = unescape(rest);
      families.set(name, family);
      continue;
    }
    if (line.startsWith('#') || line === '') continue;
    const match = SAMPLE.exec(line);
    if (!match) throw fail('not a sample');
    const [, name, labelText = '', valueText] = match;
    const labels = Object.fromEntries([...labelText.matchAll(LABEL_PAIR)].map(([, key, value]) => [key, unescape(value)]));
    const family = [...families.values()].find((candidate) =>
      (SUFFIXES[candidate.type] ?? ['']).some((suffix) => `${candidate.name}${suffix}` === name));
    if (!family) throw fail('a sample of no declared family');
    family.samples.push({ name, labels, value: Number(valueText.replace(/inf$/iu, 'Infinity').replace(/^nan$/iu, 'NaN')) });
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(rest);
    if (!series.has(key)) series.set(key, []);
    series.get(key)!.push(sample);
  }
  for (const [key, samples] of series) {
    const buckets = samples.filter((sample) => sample.name.endsWith('_bucket'));
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i].value < buckets[i - 1].value) throw new Error(`${family.name} ${key}: buckets fall`);
    }
    const count = samples.find((sample) => sample.name.endsWith('_count'))?.value;
    if (buckets.at(-1)?.labels.le !== '+Inf' || buckets.at(-1)?.value !== count) {
      throw new Error(`${family.name} ${key}: the +Inf bucket must equal the count`);
    }
  }
}

/** The value of the sample of `name` whose labels include `labels` (0 when there is none, as for an unused counter). */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const samples = [...families.values()].flatMap((family) => family.samples);
  const found = samples.find((sample) => sample.name === name
    && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return found?.value ?? 0;
}
