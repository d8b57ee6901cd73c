// The words a page analyses are remembered for the process (src/search/analyze.ts); the texts they were cut from are
// not (Session 22).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tokensStartingWith } from '../../src/search/analyze.ts';

test('tokensStartingWith keeps no text alive through the words it remembers (a decision text is freed after its page)', () => {
  // A word of 13 characters or more cut from a text was a slice of it (so was its lower case where that changed
  // nothing), and kept as a key of the analyses it kept the whole text alive as long as it was remembered.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const used = () => {
    // V8 holds the subject of the last regular expression run (RegExp.input): another run lets it go.
    /b/u.test('a b');
    'a b'.search(/b/u);
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  // A word met for the first time in a text of 9.6 MB, made, read and dropped in a function of its own (no register of
  // this one holds it).
  const readOnce = (word: string) => {
    const text = `${'Die Kammer entscheidet. '.repeat(400_000)}${word} gilt.`;
    if (!tokensStartingWith(text, ['zqxw']).some((token) => token.word === word.toLowerCase())) assert.fail(`${word} not found`);
  };
  const before = used();
  readOnce('Zqxwunikatsverfahrensrecht');
  readOnce('zqxwlowerverfahrensrechte');
  const growth = used() - before;
  assert.ok(growth < 2_000_000, `a text of 9.6 MB still held: the heap grew by ${(growth / 1e6).toFixed(1)} MB`);
});
