/**
 * BERT uncased WordPiece tokenisation, as Hugging Face `tokenizers` does it for
 * e5-small-v2's tokenizer.json (bert-base-uncased: BertNormalizer with lowercase and accent
 * stripping, BertPreTokenizer, WordPiece with "##" continuations, then
 * [CLS] … [SEP]). Pure functions: tested against the reference implementation's
 * ids in test/unit/embeddings-tokenizer.test.ts.
 */
import { readFileSync } from 'node:fs';

export interface WordPieceConfig {
  readonly vocab: ReadonlyMap<string, number>;
  readonly unkToken: string;
  readonly continuingSubwordPrefix: string;
  readonly maxInputCharsPerWord: number;
  readonly clsToken: string;
  readonly sepToken: string;
  readonly lowercase: boolean;
  readonly stripAccents: boolean;
}

export interface Encoding {
  readonly ids: number[];
  /** How many word pieces were dropped to fit the maximum length. */
  readonly truncated: number;
}

/** The sequence length the sentence-transformers model was configured with (sentence_bert_config.json). */
export const MAX_TOKENS = 256;

const isControl = (ch: string): boolean => ch !== '\t' && ch !== '\n' && ch !== '\r' && /\p{C}/u.test(ch);
const isWhitespace = (ch: string): boolean => /\p{White_Space}/u.test(ch);
const isPunctuation = (ch: string): boolean => /[!-/:-@[-`{-~]/.test(ch) || /\p{P}/u.test(ch);

/** CJK Unified Ideographs and their extensions, as BERT's `_is_chinese_char`. */
export function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b920 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/**
 * BertNormalizer: drops NUL, U+FFFD and control characters, turns whitespace
 * into spaces, puts spaces around CJK ideographs, strips accents (NFD, then no
 * nonspacing marks) and lowercases, character by character.
 */
export function normalizeBert(
  text: string,
  options: { lowercase: boolean; stripAccents: boolean } = { lowercase: true, stripAccents: true },
): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp === 0 || cp === 0xfffd || isControl(ch)) continue;
    if (isWhitespace(ch)) out += ' ';
    else if (isCjk(cp)) out += ` ${ch} `;
    else out += ch;
  }
  if (options.stripAccents) out = out.normalize('NFD').replace(/\p{Mn}/gu, '');
  if (options.lowercase) {
    let lower = '';
    for (const ch of out) lower += ch.toLowerCase();
    out = lower;
  }
  return out;
}

/** BertPreTokenizer: splits on whitespace and makes every punctuation character a word of its own. */
export function preTokenizeBert(text: string): string[] {
  const words: string[] = [];
  let current = '';
  for (const ch of text) {
    if (isWhitespace(ch)) {
      if (current) words.push(current);
      current = '';
    } else if (isPunctuation(ch)) {
      if (current) words.push(current);
      words.push(ch);
      current = '';
    } else current += ch;
  }
  if (current) words.push(current);
  return words;
}

/** Greedy longest-match-first WordPiece; a word with any unknown piece is one unknown token. */
export function wordPiece(word: string, config: WordPieceConfig): number[] {
  const chars = Array.from(word);
  const unk = config.vocab.get(config.unkToken) as number;
  if (chars.length > config.maxInputCharsPerWord) return [unk];
  const ids: number[] = [];
  let start = 0;
  while (start < chars.length) {
    let end = chars.length;
    let found: number | undefined;
    while (start < end) {
      const piece = (start > 0 ? config.continuingSubwordPrefix : '') + chars.slice(start, end).join('');
      found = config.vocab.get(piece);
      if (found !== undefined) break;
      end--;
    }
    if (found === undefined) return [unk];
    ids.push(found);
    start = end;
  }
  return ids;
}

export class WordPieceTokenizer {
  readonly clsId: number;
  readonly sepId: number;

  constructor(readonly config: WordPieceConfig) {
    const id = (token: string) => {
      const value = config.vocab.get(token);
      if (value === undefined) throw new Error(`tokenizer vocabulary lacks ${token}`);
      return value;
    };
    id(config.unkToken);
    this.clsId = id(config.clsToken);
    this.sepId = id(config.sepToken);
  }

  /** Reads a Hugging Face tokenizer.json of a BERT WordPiece model. */
  static fromJson(json: unknown): WordPieceTokenizer {
    const spec = json as {
      model?: {
        type?: string;
        vocab?: Record<string, number>;
        unk_token?: string;
        continuing_subword_prefix?: string;
        max_input_chars_per_word?: number;
      };
      normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null };
      pre_tokenizer?: { type?: string };
      post_processor?: { type?: string; special_tokens?: Record<string, { ids?: number[] }> };
    };
    const model = spec.model;
    if (model?.type !== 'WordPiece' || !model.vocab) throw new Error('tokenizer.json is not a WordPiece model');
    if (spec.normalizer?.type !== 'BertNormalizer') throw new Error(`unsupported normalizer ${spec.normalizer?.type}`);
    if (spec.pre_tokenizer?.type !== 'BertPreTokenizer')
      throw new Error(`unsupported pre-tokenizer ${spec.pre_tokenizer?.type}`);
    const lowercase = spec.normalizer.lowercase !== false;
    // strip_accents null means "follow lowercase" (as in BERT's original code).
    const stripAccents = spec.normalizer.strip_accents ?? lowercase;
    return new WordPieceTokenizer({
      vocab: new Map(Object.entries(model.vocab)),
      unkToken: model.unk_token ?? '[UNK]',
      continuingSubwordPrefix: model.continuing_subword_prefix ?? '##',
      maxInputCharsPerWord: model.max_input_chars_per_word ?? 100,
      clsToken: '[CLS]',
      sepToken: '[SEP]',
      lowercase,
      stripAccents,
    });
  }

  static fromFile(path: string): WordPieceTokenizer {
    return WordPieceTokenizer.fromJson(JSON.parse(readFileSync(path, 'utf8')));
  }

  /** Word pieces of a text, without special tokens. */
  pieces(text: string): number[] {
    const normalized = normalizeBert(text, this.config);
    return preTokenizeBert(normalized).flatMap((word) => wordPiece(word, this.config));
  }

  /** [CLS] pieces [SEP], cut to at most maxTokens ids in all. */
  encode(text: string, maxTokens = MAX_TOKENS): Encoding {
    if (maxTokens < 2) throw new Error('maxTokens must leave room for [CLS] and [SEP]');
    const pieces = this.pieces(text);
    const keep = Math.min(pieces.length, maxTokens - 2);
    return { ids: [this.clsId, ...pieces.slice(0, keep), this.sepId], truncated: pieces.length - keep };
  }
}
