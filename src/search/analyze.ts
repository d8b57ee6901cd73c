// German text analysis shared by the index and the query side, so both see the same terms: words are case-folded,
// stemmed (Snowball German, umlauts and ß folded) and stopwords dropped. The FTS5 tables hold these terms, never the
// raw text, which is why a query can never reach FTS5 with syntax of its own.
import { stemGerman } from './german-stemmer.ts';

/** A word of a text with its UTF-16 span (snippets cut the original text there). */
export interface Token {
  /** Case-folded, umlauts and ß folded, not stemmed: 'kundigungen'. */
  word: string;
  stem: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

// Function words that carry no search meaning in German legal or lay text; dropping them keeps "all terms required"
// (keyword mode) from failing on "der", "will", "mich".
const STOPWORDS = new Set(`
aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes anderm andern anders auch
auf aus bei beim bin bis bist da damit dann das dass dasselbe dazu dein deine deinem deinen deiner dem demselben den
denn denselben der derer derselbe derselben des desselben dessen dich die dies diese dieselbe dieselben diesem diesen
dieser dieses dir doch dort du durch ein eine einem einen einer eines einig einige einigem einigen einiger einiges
einmal er es etwas euch euer eure eurem euren eurer eures für gegen gewesen hab habe haben hat hatte hatten hier hin
hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im in indem ins ist jede jedem jeden jeder jedes jene jenem
jenen jener jenes jetzt kann kein keine keinem keinen keiner keines können könnte machen man manche manchem manchen
mancher manches mein meine meinem meinen meiner meines mich mir mit muss musste nach nicht nichts noch nun nur ob oder
ohne sehr sein seine seinem seinen seiner seines selbst sich sie sind so solche solchem solchen solcher solches soll
sollte sondern sonst über um und uns unsere unserem unseren unserer unseres unter viel vom von vor während war waren
warst was weg weil weiter welche welchem welchen welcher welches wenn werde werden wie wieder will wir wird wirst wo
wollen wollte würde würden zu zum zur zwar zwischen
wurde wurden worden wäre wären sei seien hätte hätten hast habt darf dürfen durfte konnte konnten müssen mussten
sollen sollten wollten jedoch sowie bzw vgl insoweit hierzu hiervon hierfür sodass
`.trim().split(/\s+/u));
const FOLDED_STOPWORDS = new Set([...STOPWORDS].map(foldWord));

/** Case folding with umlauts and ß folded: what compound lookups and snippets compare. */

export function foldWord(word: string): string {
  return word.toLowerCase().replace(/ß/gu, 'ss').replace(/ä/gu, 'a').replace(/ö/gu, 'o').replace(/ü/gu, 'u');
}

/** A function word (folded or not): never a term, nor the front of a compound worth finding by its last part. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word) || FOLDED_STOPWORDS.has(word);
}

/** True for words that are not worth a term: stopwords and single letters (a digit stays: '§ 1 KSchG'). */
function ignorable(lower: string): boolean {
  return STOPWORDS.has(lower) || (lower.length === 1 && !/\d/u.test(lower));
}

// Analysis is the import's hot loop; German text repeats its words, so a bounded cache of lower-case word ->
// folded word and stem (null: ignorable) pays many times over.
const analyses = new Map<string, { word: string; stem: string } | null>();
function analysisOf(lower: string): { word: string; stem: string } | null {
  let entry = analyses.get(lower);
  if (entry === undefined) {
    if (analyses.size >= 500_000) analyses.clear();
    entry = ignorable(lower) ? null : { word: foldWord(lower), stem: stemGerman(lower) };
    analyses.set(lower, entry);
  }
  return entry;
}

/**
 * The searchable words of a text, in order, with their spans.
 *
 * @example
 * tokenize('Die Kündigungen').map((t) => t.stem) // ['kundig']
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const entry = analysisOf(match[0].toLowerCase());
    if (entry) tokens.push({ word: entry.word, stem: entry.stem, start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/**
 * A regular expression source matching `stem` as the stored text may write it: any case, a, o, u also as umlauts, ss
 * also as ß (a stem is a prefix of its folded word, so a word answering a stem begins with this).
 */
function surfaceOf(stem: string): string {
  return stem.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&').replace(/ss/gu, '(?:ss|ß)')
    .replace(/a/gu, '[aä]').replace(/o/gu, '[oö]').replace(/u/gu, '[uü]');
}

/**
 * The pattern finding words that begin with one of a list of prefixes (global). No look-behind for the word start:
 * with one, V8 tried the pattern at every position of the text; without, it skips to where a prefix can begin, and the
 * word start is tested here. `wordsOnly`: every prefix is letters and digits (always, for stems); the pattern is then
 * the prefixes alone and a match's word is read on to its end here (wordEnd): a class of every letter and number
 * under the i and u flags costs V8 some 0.1 ms to parse and 0.2-0.5 ms to compile, once for every new query.
 */
interface StartingWith {
  scan: RegExp;
  wordsOnly: boolean;
  /** The prefixes with the word's rest, and its sticky form (compiled only where oddWordStart needs it). */
  source: string;
  at?: RegExp;
  /** The words met by the scan (knownToken), for the `keep` they were met with. */
  known?: KnownWord[];
  knownFor?: object;
}

const startingWith = new Map<string, StartingWith | null>();
/** The patterns of a prefix list already seen, by the list itself: a result page asks with one list for every chunk. */
const patternOfList = new WeakMap<readonly string[], StartingWith | null>();
const WORD_CHARS = /^[\p{L}\p{N}]+$/u;

/** The pattern for `prefixes` (null: none usable), compiled once per list. */
function startingWithPattern(prefixes: readonly string[]): StartingWith | null {
  let pattern = patternOfList.get(prefixes);
  if (pattern !== undefined) return pattern;
  const usable = [...new Set(prefixes)].filter((prefix) => prefix.length > 0).sort((a, b) => b.length - a.length);
  const key = usable.join('\u0000');
  pattern = startingWith.get(key);
  if (pattern === undefined) {
    if (startingWith.size >= 256) startingWith.clear();
    const wordsOnly = usable.every((prefix) => WORD_CHARS.test(prefix));
    const prefixed = `(?:${usable.map(surfaceOf).join('|')})`;
    const source = `${prefixed}[\\p{L}\\p{N}]*`;
    pattern = usable.length === 0 ? null : { scan: new RegExp(wordsOnly ? prefixed : source, 'giu'), wordsOnly, source };
    startingWith.set(key, pattern);
  }
  patternOfList.set(prefixes, pattern);
  return pattern;
}

// A word's rest as the scan's pattern read it with its class `[\p{L}\p{N}]*` (i and u flags: a little wider than
// WORD, e.g. U+0345 folds to a letter), compiled once for the process; Latin-1 by table.
const REST = /[\p{L}\p{N}]*/iuy;
const LATIN1_REST = Uint8Array.from({ length: 0x100 }, (_, unit) => (/^[\p{L}\p{N}]$/iu.test(String.fromCharCode(unit)) ? 1 : 0));
/** Set by wordEnd: whether the word it read holds letters and numbers only as WORD reads them (as good as always). */
let readAsWord = true;

/** Where the word beginning at `index` ends, read as `[\p{L}\p{N}]*` with the i and u flags; sets readAsWord. */
function wordEnd(text: string, index: number): number {
  readAsWord = true;
  let at = index;
  for (; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0x100) {
      REST.lastIndex = at;
      REST.test(text);
      const end = REST.lastIndex;
      if (end > at && !WORD_CHARS.test(text.slice(at, end))) readAsWord = false;
      return end;
    }
    if (LATIN1_REST[unit] === 0) break;
    if (LATIN1_WORD[unit] === 0) readAsWord = false;
  }
  return at;
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Whether each Latin-1 code unit is a letter or number as WORD reads them (German text is mostly these). */
const LATIN1_WORD = Uint8Array.from({ length: 0x100 }, (_, unit) => (WORD_CHAR.test(String.fromCharCode(unit)) ? 1 : 0));

/** The UTF-16 length of the letter or number (code point) before index `index`, as WORD reads them; 0 if none. */
function wordCharBefore(text: string, index: number): number {
  if (index === 0) return 0;
  const unit = text.charCodeAt(index - 1);
  if (unit < 0x100) return LATIN1_WORD[unit];
  const lead = index >= 2 ? text.charCodeAt(index - 2) : 0;
  const size = unit >= 0xdc00 && unit <= 0xdfff && lead >= 0xd800 && lead <= 0xdbff ? 2 : 1;
  return WORD_CHAR.test(text.slice(index - size, index)) ? size : 0;
}

// The analysis of a word as the text writes it (the page meets the same few forms again and again): no lower-case
// copy made for each. Each word kept as a copy of its own: cut from a decision's text it is a slice of it, and as a key
// here it kept the whole text alive as long as the word was remembered (Session 22; not a slice of a concatenation:
// V8 hands back the word itself where the slice is one side of it).
const surfaces = new Map<string, { word: string; stem: string } | null>();
function analysisOfSurface(surface: string): { word: string; stem: string } | null {
  let entry = surfaces.get(surface);
  if (entry === undefined) {
    if (surfaces.size >= 500_000) surfaces.clear();
    entry = analysisOf(surface.toLowerCase());
    surfaces.set(structuredClone(surface), entry);
  }
  return entry;
}

/** A word as a text writes it, and the token it makes for a `keep` (null: ignorable, or refused). */
interface KnownWord { surface: string; token: { word: string; stem: string } | null }
/** Surfaces remembered for a pattern and a `keep` (a page's words are a few forms met again and again, Session 25). */
const KNOWN_WORDS = 32;
/** The `keep` of callers without one. */
const keepAll = {};

/** The words `pattern` has met for `keep` (a new list when the pattern was last run for another). */
function knownWords(pattern: StartingWith, keep?: (stem: string) => boolean): KnownWord[] {
  if (pattern.knownFor !== (keep ?? keepAll)) {
    pattern.known = [];
    pattern.knownFor = keep ?? keepAll;
  }
  return pattern.known!;
}

/**
 * The token of the word text[start, end) for `keep`, from `known` where that holds the same surface (compared in place:
 * no slice, no hash of a new string, no second `keep` for the same stem); else analysed and, while there is room, added.
 */
function knownToken(text: string, start: number, end: number, known: KnownWord[], keep?: (stem: string) => boolean): KnownWord['token'] {
  const length = end - start;
  for (const word of known) if (word.surface.length === length && text.startsWith(word.surface, start)) return word.token;
  const surface = text.slice(start, end);
  const entry = analysisOfSurface(surface);
  const token = entry && (!keep || keep(entry.stem)) ? entry : null;
  // A copy: a slice would keep the whole text alive (analysisOfSurface's note).
  if (known.length < KNOWN_WORDS) known.push({ surface: structuredClone(surface), token });
  return token;
}

/**
 * The word start counted for a match whose word holds a character the pattern reads as a letter and WORD does not
 * (U+0345 and its like): as the scan always did it, the start of the WORD run ending at `end`, if a prefix begins
 * there; -1 if none. The sticky pattern is compiled only when such a word is met.
 */
function oddWordStart(text: string, pattern: StartingWith, end: number): number {
  let start = end;
  for (let size = wordCharBefore(text, start); size > 0; size = wordCharBefore(text, start)) start -= size;
  const at = pattern.at ??= new RegExp(pattern.source, 'yiu');
  at.lastIndex = start;
  return at.test(text) && at.lastIndex === end ? start : -1;
}

/**
 * The tokens of `text` whose folded words begin with one of `prefixes`: tokenize(text) without the words that cannot
 * answer them, found without analysing every word (snippets of a result page read some 60 passages). `keep`: only the
 * tokens whose stems it accepts (the caller's own test, without an array of the others).
 */
export function tokensStartingWith(text: string, prefixes: readonly string[], keep?: (stem: string) => boolean): Token[] {
  const pattern = startingWithPattern(prefixes);
  if (!pattern) return [];
  const { scan } = pattern;
  const tokens: Token[] = [];
  scan.lastIndex = 0;
  if (pattern.wordsOnly) {
    const known = knownWords(pattern, keep);
    // The scan goes on from the end of each match's word, so the first match in a word is at its start when a word
    // of the list begins there; one found inside a word is therefore none (no walk back to the word's start, no
    // second test there: those were half of a page's scan).
    // Each match found by search() in the rest of the text (the pattern has no anchor or look-behind, and the rest
    // begins at a code point): only its index is needed, and search() makes no match array (exec's were a tenth of
    // what a keyword search allocated, Session 21).
    for (let from = 0, found = text.search(scan); found >= 0; found = from < text.length ? text.slice(from).search(scan) : -1) {
      const index = from + found;
      const end = wordEnd(text, index);
      from = end;
      const start = readAsWord ? index : oddWordStart(text, pattern, end);
      if (start < 0 || (readAsWord && wordCharBefore(text, start) > 0)) continue;
      const token = knownToken(text, start, end, known, keep);
      if (token) tokens.push({ word: token.word, stem: token.stem, start, end });
    }
    return tokens;
  }
  for (let match = scan.exec(text); match !== null; match = scan.exec(text)) {
    if (wordCharBefore(text, match.index) > 0) {
      // Inside a word: the search goes on from the next character, as a look-behind would have.
      scan.lastIndex = match.index + (text.codePointAt(match.index)! > 0xffff ? 2 : 1);
      continue;
    }
    const entry = analysisOf(match[0].toLowerCase());
    if (entry && (!keep || keep(entry.stem))) tokens.push({ word: entry.word, stem: entry.stem, start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/** The text as the FTS5 tables hold it: stems separated by spaces. */
export function analyzedText(text: string | null | undefined): string {
  return text ? tokenize(text).map((token) => token.stem).join(' ') : '';
}
