// Plain text and Markdown arrive in whatever encoding the author's editor used: UTF-8 (with or without BOM),
// UTF-16 with a BOM, or a legacy single-byte code page (Windows editors in Germany: windows-1252, a superset of
// ISO-8859-1 in its printable range). Valid UTF-8 is taken as UTF-8; anything else is read as windows-1252, which
// decodes every byte, so no text is lost to a wrong guess.

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

function encodingOf(bytes: Uint8Array): { encoding: TextEncoding; bom: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bom: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bom: 2 };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { encoding: 'utf-8', bom: 0 };
  } catch {
    return { encoding: 'windows-1252', bom: 0 };
  }
}

/**
 * The text of a plain-text file and the encoding it was read in (the byte-order mark dropped).
 *
 * @example decodeText(Buffer.from([0xa7, 0x20, 0x38, 0x32, 0x33])) // { text: '§ 823', encoding: 'windows-1252' }
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  const { encoding, bom } = encodingOf(bytes);
  return { text: new TextDecoder(encoding).decode(bytes.subarray(bom)), encoding };
}
