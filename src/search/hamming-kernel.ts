// Hamming distances of one query against many packed bit vectors, by a WebAssembly function of a few dozen
// instructions: scalar i64.popcnt, which V8 compiles to the CPU's POPCNT, is 8x faster than the best JavaScript
// popcount (bench/README "Session 17: vector arm"). The bytes are assembled below from named opcodes; the function
// in WebAssembly text:
//
//   (func $distances (param $query i32) (param $bits i32) (param $out i32) (param $count i32) (param $words i32)
//     (local $word i32) (local $sum i64)
//     block $done
//       loop $vector
//         (br_if $done (i32.eqz (local.get $count)))
//         (local.set $sum (i64.const 0))  (local.set $word (i32.const 0))
//         loop $words
//           (local.set $sum (i64.add (local.get $sum) (i64.popcnt (i64.xor
//             (i64.load (i32.add (local.get $bits) (i32.shl (local.get $word) (i32.const 3))))
//             (i64.load (i32.add (local.get $query) (i32.shl (local.get $word) (i32.const 3))))))))
//           (br_if $words (i32.lt_u (local.tee $word (i32.add (local.get $word) (i32.const 1))) (local.get $words)))
//         end
//         (i32.store16 (local.get $out) (i32.wrap_i64 (local.get $sum)))
//         (local.set $bits (i32.add (local.get $bits) (i32.shl (local.get $words) (i32.const 3))))
//         (local.set $out (i32.add (local.get $out) (i32.const 2)))
//         (local.set $count (i32.sub (local.get $count) (i32.const 1)))
//         br $vector
//       end
//     end)

/** The WebAssembly globals used here (TypeScript types them only in lib "dom", which this project leaves out). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
};

const I32 = 0x7f;
const I64 = 0x7e;
const op = {
  block: 0x02, loop: 0x03, end: 0x0b, br: 0x0c, brIf: 0x0d, void: 0x40,
  get: 0x20, set: 0x21, tee: 0x22,
  i32Const: 0x41, i64Const: 0x42, i32Eqz: 0x45, i32LtU: 0x49, i32Add: 0x6a, i32Sub: 0x6b, i32Shl: 0x74,
  i64Load: 0x29, i32Store16: 0x3b, i64Popcnt: 0x7b, i64Add: 0x7c, i64Xor: 0x85, i32WrapI64: 0xa7,
} as const;
// Parameters, then locals, by index.
const [query, bits, out, count, words, word, sum] = [0, 1, 2, 3, 4, 5, 6];

/** `base + word * 8`, then an aligned 8-byte load. */
const loadWord = (base: number) => [op.get, base, op.get, word, op.i32Const, 3, op.i32Shl, op.i32Add, op.i64Load, 3, 0];

const body = [
  2, 1, I32, 1, I64, // locals: one i32 ($word), one i64 ($sum)
  op.block, op.void,
  op.loop, op.void,
  op.get, count, op.i32Eqz, op.brIf, 1,
  op.i64Const, 0, op.set, sum, op.i32Const, 0, op.set, word,
  op.loop, op.void,
  op.get, sum, ...loadWord(bits), ...loadWord(query), op.i64Xor, op.i64Popcnt, op.i64Add, op.set, sum,
  op.get, word, op.i32Const, 1, op.i32Add, op.tee, word, op.get, words, op.i32LtU, op.brIf, 0,
  op.end,
  op.get, out, op.get, sum, op.i32WrapI64, op.i32Store16, 1, 0,
  op.get, bits, op.get, words, op.i32Const, 3, op.i32Shl, op.i32Add, op.set, bits,
  op.get, out, op.i32Const, 2, op.i32Add, op.set, out,
  op.get, count, op.i32Const, 1, op.i32Sub, op.set, count,
  op.br, 0,
  op.end,
  op.end,
  op.end,
];

const uleb = (value: number): number[] => {
  const bytes: number[] = [];
  do {
    const low = value & 0x7f;
    value >>>= 7;
    bytes.push(value ? low | 0x80 : low);
  } while (value);
  return bytes;
};
const name = (text: string) => [...uleb(text.length), ...Buffer.from(text, 'utf8')];
const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];

const MODULE = new WebAssembly.Module(new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]), // type: (i32 x 5) -> ()
  ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]), // import env.memory (min 0 pages)
  ...section(3, [1, 0]), // one function of type 0
  ...section(7, [1, ...name('distances'), 0x00, 0]), // export it
  ...section(10, [1, ...uleb(body.length), ...body]),
]));

const PAGE = 65_536;

type Kernel = (query: number, bits: number, out: number, count: number, words: number) => void;

/**
 * `count` bit vectors of `bytesPerVector` bytes each, held in WebAssembly memory (each padded with zero bits to whole
 * 8-byte words, which add nothing to a distance), and the distances of the last query to all of them.
 *
 * @example const held = new PackedBits(2, 32); held.vector(0).set(bitsA); held.vector(1).set(bitsB);
 *          held.distancesTo(queryBits)[1] // Hamming distance of queryBits to bitsB
 */
export class PackedBits {
  readonly count: number;
  /** 8-byte words per vector. */
  readonly words: number;
  readonly #bytes: Uint8Array;
  readonly #distances: Uint16Array;
  readonly #run: Kernel;

  constructor(count: number, bytesPerVector: number) {
    this.count = count;
    this.words = Math.ceil(bytesPerVector / 8);
    // Distances up to 65,535 bits (sqlite-vec's bit columns are far narrower).
    if (this.words * 64 > 0xffff) throw new RangeError(`bit vectors of ${bytesPerVector} bytes are too wide`);
    const stride = this.words * 8;
    // Layout: the query, the vectors, then one 16-bit distance per vector.
    const size = stride + count * stride + count * 2;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(size / PAGE)) });
    this.#bytes = new Uint8Array(memory.buffer);
    this.#distances = new Uint16Array(memory.buffer, stride + count * stride, count);
    const instance = new WebAssembly.Instance(MODULE, { env: { memory } });
    this.#run = instance.exports.distances as Kernel;
  }

  /** The bytes of vector `index` (write its bits here; the padding stays zero). */
  vector(index: number): Uint8Array {
    const stride = this.words * 8;
    return this.#bytes.subarray(stride + index * stride, stride + (index + 1) * stride);
  }

  /** The Hamming distance of `query` (sqlite-vec's bit layout, as many bytes as a vector) to every vector, in order. */
  distancesTo(query: Uint8Array): Uint16Array {
    const stride = this.words * 8;
    this.#bytes.fill(0, 0, stride);
    this.#bytes.set(query.subarray(0, stride), 0);
    this.#run(0, stride, stride + this.count * stride, this.count, this.words);
    return this.#distances;
  }

  /** Bytes held (the vectors, the query and the distances). */
  get byteLength(): number {
    return this.#bytes.byteLength;
  }
}
