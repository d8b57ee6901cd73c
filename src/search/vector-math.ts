// Small numeric helpers of the vector arm: seeded hashing (training is deterministic: same corpus, same vectors),
// unit vectors, float32 blobs and the sign bits that the vec0 table holds.

/** FNV-1a over the string's UTF-16 units, mixed with a seed; 32 bits, unsigned. */
export function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // Final avalanche (murmur3 fmix32): FNV's low bits alone are poorly mixed.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

export function dot(a: Float32Array, b: Float32Array, bOffset = 0): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[bOffset + i];
  return sum;
}

/** Scales `v` to unit length in place; returns false (and leaves it) when it is all zeros. */
export function normalizeInPlace(v: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (sum === 0 || !Number.isFinite(sum)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] *= scale;
  return true;
}

/** `v` minus `center`, scaled to unit length (a copy); null when nothing is left. */
export function centeredUnit(v: Float32Array, center: Float32Array | null): Float32Array | null {
  const out = Float32Array.from(v);
  if (!normalizeInPlace(out)) return null;
  if (center) for (let i = 0; i < out.length; i++) out[i] -= center[i];
  return normalizeInPlace(out) ? out : null;
}

/** The float32 vector as a blob (little-endian, as sqlite-vec reads it). */
export function floatBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function blobFloats(blob: Buffer): Float32Array {
  // Copy: a blob's Buffer need not be 4-byte aligned.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}

/** Sign bits, first dimension in the lowest bit of the first byte (sqlite-vec's bit layout). */
export function signBits(v: Float32Array): Buffer {
  const bits = Buffer.alloc(Math.ceil(v.length / 8));
  for (let i = 0; i < v.length; i++) if (v[i] > 0) bits[i >> 3] |= 1 << (i & 7);
  return bits;
}
