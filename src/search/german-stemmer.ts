// The Snowball German stemmer (snowballstem.org/algorithms/german/stemmer.html), written out for juralite: a few
// dozen lines do not justify a dependency. Input: one lower-case word; output: its stem, with ä/ö/ü folded to a/o/u
// and ß to ss, so that "Kündigungen", "kündigt" and "Kuendigung" meet where the algorithm lets them.

const VOWELS = 'aeiouyäöü';
const isVowel = (c: string | undefined) => c !== undefined && VOWELS.includes(c);
const S_ENDING = 'bdfghklmnrt';
const ST_ENDING = 'bdfghklmnt';

/** Start of the region after the first non-vowel that follows a vowel, searching from `from`. */
function regionAfter(word: string, from: number): number {
  for (let i = from + 1; i < word.length; i++) {
    if (!isVowel(word[i]) && isVowel(word[i - 1])) return i + 1;
  }
  return word.length;
}

/**
 * Stems one German word (lower case) by the Snowball German algorithm, then folds umlauts.
 *
 * @example
 * stemGerman('kündigungen') // 'kundig'
 * stemGerman('mieterhöhung') // 'mieterhoh'
 */
export function stemGerman(input: string): string {
  let word = input.replace(/ß/gu, 'ss');
  // u and y between vowels are consonants: mark them upper case so the vowel tests skip them.
  word = word.replace(/(?<=[aeiouyäöü])([uy])(?=[aeiouyäöü])/gu, (c) => c.toUpperCase());
  let r1 = regionAfter(word, 0);
  if (r1 < 3) r1 = Math.min(3, word.length);
  const r2 = regionAfter(word, r1);
  word = step1(word, r1);
  word = step2(word, r1);
  word = step3(word, r1, r2);
  return word.replace(/U/gu, 'u').replace(/Y/gu, 'y').replace(/ä/gu, 'a').replace(/ö/gu, 'o').replace(/ü/gu, 'u');
}

function step1(word: string, r1: number): string {
  for (const suffix of ['ern', 'em', 'er']) {
    if (word.endsWith(suffix)) return word.length - suffix.length >= r1 ? word.slice(0, -suffix.length) : word;
  }
  for (const suffix of ['en', 'es', 'e']) {
    if (word.endsWith(suffix)) {
      if (word.length - suffix.length < r1) return word;
      const cut = word.slice(0, -suffix.length);
      return cut.endsWith('niss') ? cut.slice(0, -1) : cut;
    }
  }
  if (word.endsWith('s') && word.length - 1 >= r1 && S_ENDING.includes(word[word.length - 2])) return word.slice(0, -1);
  return word;
}

function step2(word: string, r1: number): string {
  for (const suffix of ['est', 'en', 'er']) {
    if (word.endsWith(suffix)) return word.length - suffix.length >= r1 ? word.slice(0, -suffix.length) : word;
  }
  if (word.endsWith('st') && word.length - 2 >= r1 && word.length - 2 > 3 && ST_ENDING.includes(word[word.length - 3])) {
    return word.slice(0, -2);
  }
  return word;
}

function step3(word: string, r1: number, r2: number): string {
  const inR2 = (suffix: string) => word.length - suffix.length >= r2;
  for (const suffix of ['end', 'ung']) {
    if (!word.endsWith(suffix)) continue;
    if (!inR2(suffix)) return word;
    const cut = word.slice(0, -suffix.length);
    if (cut.endsWith('ig') && !cut.endsWith('eig') && cut.length - 2 >= r2) return cut.slice(0, -2);
    return cut;
  }
  for (const suffix of ['isch', 'ig', 'ik']) {
    if (!word.endsWith(suffix)) continue;
    const before = word[word.length - suffix.length - 1];
    return inR2(suffix) && before !== 'e' ? word.slice(0, -suffix.length) : word;
  }
  for (const suffix of ['lich', 'heit']) {
    if (!word.endsWith(suffix)) continue;
    if (!inR2(suffix)) return word;
    const cut = word.slice(0, -suffix.length);
    if ((cut.endsWith('er') || cut.endsWith('en')) && cut.length - 2 >= r1) return cut.slice(0, -2);
    return cut;
  }
  if (word.endsWith('keit') && inR2('keit')) {
    const cut = word.slice(0, -4);
    if (cut.endsWith('lich') && cut.length - 4 >= r2) return cut.slice(0, -4);
    if (cut.endsWith('ig') && cut.length - 2 >= r2) return cut.slice(0, -2);
    return cut;
  }
  return word;
}
