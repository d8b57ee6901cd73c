import { createHash } from 'node:crypto';

/**
 * Project namespaces for UUID v5 identifiers. Each is itself uuidV5(URL namespace, 'https://juralite.invalid/ns/<kind>')
 * and must never change: every decision, law and law unit id in every corpus derives from them.
 */
export const NAMESPACES = {
  decision: 'b5edb29c-0b92-501b-be26-12dca4d16106',
  law: 'ae5309c8-1cc8-55ee-a04d-5c5e9ad2191c',
  lawUnit: '18606163-6064-54bb-813b-9105a255938b',
} as const;

/**
 * RFC 9562 name-based UUID (version 5, SHA-1).
 *
 * @example
 * uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com') // '2ed6657d-e927-568b-95e1-2665a8aea6a2'
 */
export function uuidV5(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new Error(`not a UUID namespace: ${namespace}`);
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/**
 * Lookup key of an Aktenzeichen: case-folded, whitespace (incl. no-break spaces) collapsed, trimmed.
 *
 * @example
 * azKey('VI\u00a0ZR  496/18') // 'vi zr 496/18'
 */
export function azKey(aktenzeichen: string): string {
  return aktenzeichen.normalize('NFC').replace(/[\s\u00a0\u202f]+/gu, ' ').trim().toLowerCase();
}

export interface DecisionIdentity {
  doknr?: string | null;
  ecli?: string | null;
  court?: string | null;
  date?: string | null;
  aktenzeichen?: string | null;
}

/**
 * The decision id for a newly seen document: from the doknr, else the ECLI, else court + date + first Aktenzeichen.
 * (An already stored document keeps the id it was first given; see src/ingest/store-decision.ts.)
 */
export function decisionId(identity: DecisionIdentity): string {
  if (identity.doknr) return uuidV5(NAMESPACES.decision, `doknr:${identity.doknr.trim().toUpperCase()}`);
  if (identity.ecli) return uuidV5(NAMESPACES.decision, `ecli:${identity.ecli.trim().toUpperCase()}`);
  const parts = [identity.court ?? '', identity.date ?? '', azKey(identity.aktenzeichen ?? '')];
  if (!parts.some(Boolean)) throw new Error('a decision needs a doknr, an ECLI, or court, date and Aktenzeichen');
  return uuidV5(NAMESPACES.decision, `cda:${parts.join('|')}`);
}

/** Law id: UUID v5 of the cited abbreviation ('BGB', 'SGB V', 'DSGVO'). */
export function lawId(abbreviation: string): string {
  return uuidV5(NAMESPACES.law, abbreviation);
}

/** Law unit id: UUID v5 of abbreviation, kind and number ('BGB|§|823', 'GG|Art.|12'). */
export function lawUnitId(abbreviation: string, kind: string, number: string): string {
  return uuidV5(NAMESPACES.lawUnit, `${abbreviation}|${kind}|${number}`);
}
