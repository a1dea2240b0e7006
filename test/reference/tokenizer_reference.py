"""
Reference token ids for test/integration/embedding-model.test.ts, from Hugging
Face `tokenizers` (the Rust implementation) on the model's tokenizer.json,
truncated at 256 tokens as sentence-transformers does for all-MiniLM-L6-v2.
Writes tokenizer-ids.json. Run in a throwaway venv (never a project dependency):

  python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install tokenizers
  /tmp/refvenv/bin/python tokenizer_reference.py .data/models/all-minilm-l6-v2/tokenizer.json > tokenizer-ids.json
"""
import json
import sys

from tokenizers import Tokenizer

tok = Tokenizer.from_file(sys.argv[1])
tok.no_padding()
tok.enable_truncation(256)
cases = [
    "Hello, world!",
    "Café déjà-vu: naïve RÉSUMÉ façade.",
    "unaffable tokenization embeddings",
    "I'm can't won't $100.50 + 3% <tag> a_b a~b `x` |y| ^z",
    "北京欢迎你 and 東京",
    "tab\there\nnewline\r\nzero\u200bwidth\u00adsoft nbsp\u00a0x \u3000ideo",
    "ctrl\x00\x07chars\ufffd and \x0bvt",
    "ΟΔΟΣ Σίσυφος İstanbul straße ÆØÅ",
    "emoji 😀 🚀 rocket",
    "a" * 101 + " short " + "b" * 100,
    "well-known e-mail: someone@example.com https://x.org/a?b=c#d",
    "Ünïcödé ñandú Ågström Œuvre ﬁnance ①②",
    "   leading and trailing   ",
    "",
    " ".join(["word"] * 300),
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
]
print(json.dumps([{"text": c, "ids": tok.encode(c).ids} for c in cases], ensure_ascii=True))
