/**
 * The BERT WordPiece tokenizer on a small hand-made vocabulary. (Its ids on the
 * real vocabulary (e5-small-v2, bert-base-uncased's) are checked against Hugging Face
 * `tokenizers` in test/integration/embedding-model.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import {
  WordPieceTokenizer,
  normalizeBert,
  preTokenizeBert,
  wordPiece,
} from '../../src/adapters/embeddings/testing.js';

const VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'un',
  '##aff',
  '##able',
  'aff',
  'able',
  'hello',
  ',',
  '!',
  'world',
  'cafe',
  'a',
  '##a',
  'naive',
  '北',
  '京',
  'x',
  '-',
  'σ',
];
const tokenizerJson = {
  version: '1.0',
  normalizer: {
    type: 'BertNormalizer',
    clean_text: true,
    handle_chinese_chars: true,
    strip_accents: null,
    lowercase: true,
  },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  model: {
    type: 'WordPiece',
    unk_token: '[UNK]',
    continuing_subword_prefix: '##',
    max_input_chars_per_word: 100,
    vocab: Object.fromEntries(VOCAB.map((t, i) => [t, i])),
  },
};
const tokenizer = WordPieceTokenizer.fromJson(tokenizerJson);
const id = (token: string) => VOCAB.indexOf(token);

describe('BertNormalizer', () => {
  it('lowercases and strips accents (strip_accents null follows lowercase)', () => {
    expect(normalizeBert('Café NAÏVE Ågström')).toBe('cafe naive agstrom');
  });

  it('keeps accents and case when told to', () => {
    expect(normalizeBert('Café', { lowercase: false, stripAccents: false })).toBe('Café');
  });

  it('drops control characters, NUL and U+FFFD, and turns every whitespace into a space', () => {
    expect(normalizeBert('a\u0000b\u0007c\ufffdd')).toBe('abcd');
    expect(normalizeBert('a\tb\nc\r\nd\u00a0e\u3000f')).toBe('a b c  d e f');
    expect(normalizeBert('zero\u200bwidth')).toBe('zerowidth'); // U+200B is a format character (Cf)
  });

  it('puts spaces around CJK ideographs', () => {
    expect(normalizeBert('北京x')).toBe(' 北  京 x');
  });

  it('lowercases one character at a time (no final-sigma rule)', () => {
    expect(normalizeBert('ΟΔΟΣ')).toBe('οδοσ');
  });
});

describe('BertPreTokenizer', () => {
  it('splits on whitespace and isolates each punctuation character', () => {
    expect(preTokenizeBert("hello, world! it's a-b")).toEqual([
      'hello',
      ',',
      'world',
      '!',
      'it',
      "'",
      's',
      'a',
      '-',
      'b',
    ]);
  });

  it('treats ASCII symbols as punctuation too ($ + < = > ^ ` | ~)', () => {
    expect(preTokenizeBert('$1+2<3=4>5^6`7|8~9')).toEqual([
      '$',
      '1',
      '+',
      '2',
      '<',
      '3',
      '=',
      '4',
      '>',
      '5',
      '^',
      '6',
      '`',
      '7',
      '|',
      '8',
      '~',
      '9',
    ]);
  });

  it('returns nothing for blank text', () => {
    expect(preTokenizeBert('   ')).toEqual([]);
  });
});

describe('WordPiece', () => {
  const config = tokenizer.config;

  it('takes the longest known prefix first, then ## continuations', () => {
    expect(wordPiece('unaffable', config)).toEqual([id('un'), id('##aff'), id('##able')]);
  });

  it('makes the whole word [UNK] when any piece is unknown', () => {
    expect(wordPiece('unaffablez', config)).toEqual([id('[UNK]')]);
  });

  it('makes a word longer than max_input_chars_per_word [UNK]', () => {
    expect(wordPiece('a'.repeat(100), config)).toEqual(
      new Array(100).fill(0).map((_, i) => (i === 0 ? id('a') : id('##a'))),
    );
    expect(wordPiece('a'.repeat(101), config)).toEqual([id('[UNK]')]);
  });
});

describe('WordPieceTokenizer', () => {
  it('wraps the pieces in [CLS] … [SEP]', () => {
    expect(tokenizer.encode('Hello, World!').ids).toEqual([
      id('[CLS]'),
      id('hello'),
      id(','),
      id('world'),
      id('!'),
      id('[SEP]'),
    ]);
  });

  it('normalises before it splits: accents, case and CJK', () => {
    expect(tokenizer.encode('CAFÉ 北京').ids).toEqual([id('[CLS]'), id('cafe'), id('北'), id('京'), id('[SEP]')]);
  });

  it('encodes empty text as [CLS] [SEP]', () => {
    expect(tokenizer.encode('').ids).toEqual([id('[CLS]'), id('[SEP]')]);
  });

  it('truncates to 256 ids in all by default, and says how much it dropped', () => {
    const long = tokenizer.encode(Array(300).fill('hello').join(' '));
    expect(long.ids).toHaveLength(256);
    expect(long.ids[0]).toBe(id('[CLS]'));
    expect(long.ids[255]).toBe(id('[SEP]'));
    expect(long.truncated).toBe(300 - 254);
    expect(tokenizer.encode('hello world', 3).ids).toEqual([id('[CLS]'), id('hello'), id('[SEP]')]);
  });

  it('refuses a tokenizer.json it cannot honour', () => {
    expect(() =>
      WordPieceTokenizer.fromJson({ ...tokenizerJson, model: { ...tokenizerJson.model, type: 'BPE' } }),
    ).toThrow(/WordPiece/);
    expect(() => WordPieceTokenizer.fromJson({ ...tokenizerJson, normalizer: { type: 'NFKC' } })).toThrow(/normalizer/);
    const noCls = Object.fromEntries(VOCAB.filter((t) => t !== '[CLS]').map((t, i) => [t, i]));
    expect(() =>
      WordPieceTokenizer.fromJson({ ...tokenizerJson, model: { ...tokenizerJson.model, vocab: noCls } }),
    ).toThrow(/\[CLS\]/);
  });
});
