/**
 * Writes a tiny GGUF (format version 3) llama model with random weights and a SentencePiece vocabulary with byte
 * fallback, so any text tokenizes. Its output is nonsense, but real inference runs on it: grammar-constrained JSON
 * and real token probabilities. No model weights are downloaded or shipped.
 */
import {writeFile} from 'node:fs/promises';

const embedding = 32;
const feedForward = 64;
const heads = 2;
const alignment = 32;

/** Pieces beyond the control and byte tokens: JSON punctuation, labels, booleans and merged quote-label tokens. */
const pieces = [
  '▁',
  '{',
  '}',
  '"',
  ':',
  ',',
  '▁"',
  '":',
  '":"',
  '",',
  '"}',
  'true',
  'false',
  't',
  'f',
  'r',
  'u',
  'e',
  'a',
  'l',
  's',
  ...'ABCDEFGHIJKLMNOPQRST'.split(''),
  ...'ABCDEFGHIJ'.split('').map((letter) => `"${letter}`),
  ...'0123456789'.split(''),
  ...'0123456789'.split('').map((digit) => `"${digit}`),
];

export async function writeTinyGguf(path: string, seed = 7): Promise<void> {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  for (const piece of pieces) {
    tokens.push(piece);
    types.push(1);
  }
  const scores = tokens.map((token, index) => (types[index] === 1 ? -token.length * 0.1 : 0) - index * 1e-4);
  const vocabulary = tokens.length;
  const random = mulberry32(seed);
  const normal = () => {
    const u = Math.max(random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random()) * 0.5;
  };
  const tensor = (name: string, dims: number[], fill: 'ones' | 'random') => {
    const count = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(count);
    for (let i = 0; i < count; i++) data[i] = fill === 'ones' ? 1 : normal();
    return {name, dims, data};
  };
  const tensors = [
    tensor('token_embd.weight', [embedding, vocabulary], 'random'),
    tensor('output_norm.weight', [embedding], 'ones'),
    tensor('output.weight', [embedding, vocabulary], 'random'),
    tensor('blk.0.attn_norm.weight', [embedding], 'ones'),
    tensor('blk.0.attn_q.weight', [embedding, embedding], 'random'),
    tensor('blk.0.attn_k.weight', [embedding, embedding], 'random'),
    tensor('blk.0.attn_v.weight', [embedding, embedding], 'random'),
    tensor('blk.0.attn_output.weight', [embedding, embedding], 'random'),
    tensor('blk.0.ffn_norm.weight', [embedding], 'ones'),
    tensor('blk.0.ffn_gate.weight', [embedding, feedForward], 'random'),
    tensor('blk.0.ffn_up.weight', [embedding, feedForward], 'random'),
    tensor('blk.0.ffn_down.weight', [feedForward, embedding], 'random'),
  ];
  const metadata: [string, Value][] = [
    ['general.architecture', {string: 'llama'}],
    ['general.name', {string: 'stratos-tiny-random'}],
    ['general.alignment', {u32: alignment}],
    ['llama.context_length', {u32: 4096}],
    ['llama.embedding_length', {u32: embedding}],
    ['llama.block_count', {u32: 1}],
    ['llama.feed_forward_length', {u32: feedForward}],
    ['llama.attention.head_count', {u32: heads}],
    ['llama.attention.head_count_kv', {u32: heads}],
    ['llama.attention.layer_norm_rms_epsilon', {f32: 1e-5}],
    ['llama.rope.dimension_count', {u32: embedding / heads}],
    ['tokenizer.ggml.model', {string: 'llama'}],
    ['tokenizer.ggml.tokens', {strings: tokens}],
    ['tokenizer.ggml.scores', {f32s: scores}],
    ['tokenizer.ggml.token_type', {i32s: types}],
    ['tokenizer.ggml.unknown_token_id', {u32: 0}],
    ['tokenizer.ggml.bos_token_id', {u32: 1}],
    ['tokenizer.ggml.eos_token_id', {u32: 2}],
  ];
  const out = new Writer();
  out.bytes(Buffer.from('GGUF', 'latin1'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    out.value(value);
  }
  let offset = 0;
  for (const t of tensors) {
    out.string(t.name);
    out.u32(t.dims.length);
    for (const dim of t.dims) out.u64(dim);
    out.u32(0); // F32
    out.u64(offset);
    offset = align(offset + t.data.byteLength);
  }
  out.pad();
  for (const t of tensors) {
    out.bytes(Buffer.from(t.data.buffer));
    out.pad();
  }
  await writeFile(path, out.toBuffer());
}

type Value =
  | {string: string}
  | {u32: number}
  | {f32: number}
  | {strings: string[]}
  | {f32s: number[]}
  | {i32s: number[]};

class Writer {
  #chunks: Buffer[] = [];
  #length = 0;
  bytes(buffer: Buffer): void {
    this.#chunks.push(buffer);
    this.#length += buffer.length;
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.bytes(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.bytes(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.bytes(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.bytes(b);
  }
  string(text: string): void {
    const b = Buffer.from(text, 'utf8');
    this.u64(b.length);
    this.bytes(b);
  }
  value(value: Value): void {
    if ('string' in value) {
      this.u32(8);
      this.string(value.string);
    } else if ('u32' in value) {
      this.u32(4);
      this.u32(value.u32);
    } else if ('f32' in value) {
      this.u32(6);
      this.f32(value.f32);
    } else if ('strings' in value) {
      this.u32(9);
      this.u32(8);
      this.u64(value.strings.length);
      for (const s of value.strings) this.string(s);
    } else if ('f32s' in value) {
      this.u32(9);
      this.u32(6);
      this.u64(value.f32s.length);
      for (const f of value.f32s) this.f32(f);
    } else {
      this.u32(9);
      this.u32(5);
      this.u64(value.i32s.length);
      for (const i of value.i32s) this.i32(i);
    }
  }
  pad(): void {
    const padding = align(this.#length) - this.#length;
    if (padding > 0) this.bytes(Buffer.alloc(padding));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

function align(value: number): number {
  return Math.ceil(value / alignment) * alignment;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
