#!/usr/bin/python3
"""Exports small PyTorch transformer modules to ONNX for the ONNX importer's tests.

Usage: export_onnx_models.py OUTDIR [SOURCE_DIR]

Writes into OUTDIR (created if absent):
  gpt2.onnx          a GPT-2 style decoder (GPT2LMHeadModel, eager attention) with the numbers
                     of configs/models/gpt2.yaml (12 layers, hidden 768, vocab 50257)
  llama.onnx         a Llama style decoder (LlamaForCausalLM: RMSNorm, rotary embeddings,
                     grouped-query attention, SwiGLU MLP) with the numbers of llama.yaml
  llama.yaml         that config, as a model config the built-in builder reads
                     (frontend/models/model_config.hpp)
  cnn.onnx           a small image classifier (pixels [1, 3, 32, 32], no symbolic axis): a
                     convolution, a grouped strided one, a mean and a Linear (Gemm); exported
                     with its weights as initializers (export_params=True)
  ops.onnx           written node by node: Gelu (tanh form), MatMul with a vector on either
                     side, Gemm with transA, alpha and beta, a batched MatMul whose batch axes
                     broadcast, LayerNormalization over two axes, Split and Expand by
                     initializers
  unsupported.onnx   one LSTM node named "lonely_lstm": an op the importer does not map
  runtime_shape.onnx a Reshape (node "reshape_by_input") to a shape fed at run time: its
                     output's shape is unknown after shape inference
  done               written last: the files above are complete

The modules are written here from the configs (no download, no transformers package) and
compute what the built-in builders count as the model (frontend/models/model_builder.hpp,
Logits::last): every prompt token through every layer, then the final norm and the LM head on
the last token only, so that MACs and matrix-product counts equal the built-in graphs'.
Weights are graph inputs (export_params=False): the files hold the graph, not 500 MB of
numbers. The token ids are input_ids [1, sequence_length] with a symbolic sequence axis.
Exits 77 with "SKIP: ..." when torch, onnx or yaml cannot be imported (Debian: python3-torch,
python3-onnx, python3-yaml for /usr/bin/python3).
"""
import math
import os
import sys
import time


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


try:
    import torch
    import torch.nn.functional as F
    from torch import nn
except ImportError as e:  # pragma: no cover - depends on the machine
    skip("cannot import torch (%s); apt-get install python3-torch" % e)
try:
    import onnx
except ImportError as e:  # pragma: no cover
    skip("cannot import onnx (%s); apt-get install python3-onnx" % e)
try:
    import yaml
except ImportError as e:  # pragma: no cover
    skip("cannot import yaml (%s); apt-get install python3-yaml" % e)

# A small Llama with grouped-query attention (8 query heads share 2 KV heads), two layers:
# the structure of llama-2-7b / llama-3-8b at a size that exports in a fraction of a second.
LLAMA_CONFIG = {
    "source": "tests/tools/export_onnx_models.py (a small Llama for the ONNX import tests)",
    "model_type": "llama",
    "num_hidden_layers": 2,
    "hidden_size": 256,
    "num_attention_heads": 8,
    "num_key_value_heads": 2,
    "intermediate_size": 688,
    "vocab_size": 1000,
    "norm_type": "rmsnorm",
    "hidden_act": "silu",
    "tie_word_embeddings": False,
    "torch_dtype": "float32",
}


def empty_param(*shape):
    # Values are never read (export_params=False): skip the initialisers' random draws.
    return nn.Parameter(torch.empty(*shape), requires_grad=False)


class Conv1D(nn.Module):
    """Hugging Face's GPT-2 Conv1D: x @ W + b with W [in, out], as torch.addmm."""

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_out = n_out
        self.weight = empty_param(n_in, n_out)
        self.bias = empty_param(n_out)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.n_out,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class Gpt2Block(nn.Module):
    def __init__(self, c, max_positions):
        super().__init__()
        h = c["hidden_size"]
        self.heads = c["num_attention_heads"]
        self.head_dim = h // self.heads
        self.ln_1 = nn.LayerNorm(h)
        self.c_attn = Conv1D(h, 3 * h)
        self.attn_proj = Conv1D(h, h)
        self.ln_2 = nn.LayerNorm(h)
        self.c_fc = Conv1D(h, c["intermediate_size"])
        self.mlp_proj = Conv1D(c["intermediate_size"], h)
        self.register_buffer(
            "bias", torch.tril(torch.ones(max_positions, max_positions, dtype=torch.bool)).view(
                1, 1, max_positions, max_positions))

    def split_heads(self, x):
        return x.view(x.size()[:-1] + (self.heads, self.head_dim)).permute(0, 2, 1, 3)

    def forward(self, x):
        a = self.ln_1(x)
        q, k, v = self.c_attn(a).split(a.size(-1), dim=2)
        q, k, v = self.split_heads(q), self.split_heads(k), self.split_heads(v)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        n = q.size(-2)
        causal = self.bias[:, :, :n, :n]
        scores = scores.masked_fill(~causal, torch.finfo(scores.dtype).min)
        probs = torch.softmax(scores, dim=-1)
        out = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        out = out.view(out.size()[:-2] + (self.heads * self.head_dim,))
        x = self.attn_proj(out) + x
        m = self.mlp_proj(gelu_new(self.c_fc(self.ln_2(x))))
        return x + m


class Gpt2(nn.Module):
    """GPT2LMHeadModel's forward for one prompt; logits of the last token (lm_head tied to wte)."""

    def __init__(self, c, max_positions=1024):
        super().__init__()
        self.wte = nn.Embedding(c["vocab_size"], c["hidden_size"], _weight=torch.empty(c["vocab_size"], c["hidden_size"]))
        self.wpe = nn.Embedding(max_positions, c["hidden_size"], _weight=torch.empty(max_positions, c["hidden_size"]))
        self.h = nn.ModuleList([Gpt2Block(c, max_positions) for _ in range(c["num_hidden_layers"])])
        self.ln_f = nn.LayerNorm(c["hidden_size"])

    def forward(self, input_ids):
        positions = torch.arange(input_ids.size(-1), dtype=torch.long).unsqueeze(0)
        x = self.wte(input_ids) + self.wpe(positions)
        for block in self.h:
            x = block(x)
        x = self.ln_f(x)
        return F.linear(x[:, -1:, :], self.wte.weight)


class RmsNorm(nn.Module):
    def __init__(self, h, eps=1e-5):
        super().__init__()
        self.weight = empty_param(h)
        self.eps = eps

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Rotary(nn.Module):
    """LlamaRotaryEmbedding: cos and sin of the positions' angles [1, 1, n, head_dim]."""

    def __init__(self, d):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=torch.float32) / d)))

    def forward(self, n):
        freqs = torch.outer(torch.arange(n, dtype=torch.float32), self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos()[None, None, :, :], emb.sin()[None, None, :, :]


class LlamaBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        h = c["hidden_size"]
        self.heads = c["num_attention_heads"]
        self.kv_heads = c["num_key_value_heads"]
        self.head_dim = h // self.heads
        self.input_layernorm = RmsNorm(h)
        self.q_proj = nn.Linear(h, self.heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(h, self.kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(h, self.kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(self.heads * self.head_dim, h, bias=False)
        self.post_attention_layernorm = RmsNorm(h)
        inner = c["intermediate_size"]
        self.gate_proj = nn.Linear(h, inner, bias=False)
        self.up_proj = nn.Linear(h, inner, bias=False)
        self.down_proj = nn.Linear(inner, h, bias=False)

    def repeat_kv(self, x):
        rep = self.heads // self.kv_heads
        if rep == 1:
            return x
        b, kv, n, d = x.shape
        return x[:, :, None, :, :].expand(b, kv, rep, n, d).reshape(b, kv * rep, n, d)

    def forward(self, x, cos, sin, mask):
        b, n, _ = x.shape
        a = self.input_layernorm(x)
        q = self.q_proj(a).view(b, n, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(a).view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(a).view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k, v = self.repeat_kv(k), self.repeat_kv(v)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.head_dim) + mask
        probs = torch.softmax(scores, dim=-1)
        out = torch.matmul(probs, v).transpose(1, 2).reshape(b, n, -1)
        x = x + self.o_proj(out)
        m = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(m)) * self.up_proj(m))


class Llama(nn.Module):
    """LlamaForCausalLM's forward for one prompt; logits of the last token (untied lm_head)."""

    def __init__(self, c):
        super().__init__()
        h = c["hidden_size"]
        self.embed_tokens = nn.Embedding(c["vocab_size"], h, _weight=torch.empty(c["vocab_size"], h))
        self.layers = nn.ModuleList([LlamaBlock(c) for _ in range(c["num_hidden_layers"])])
        self.norm = RmsNorm(h)
        self.lm_head = nn.Linear(h, c["vocab_size"], bias=False)
        self.rotary_emb = Rotary(h // c["num_attention_heads"])

    def forward(self, input_ids):
        n = input_ids.size(-1)
        cos, sin = self.rotary_emb(n)
        mask = torch.full((n, n), torch.finfo(torch.float32).min).triu(1)[None, None, :, :]
        x = self.embed_tokens(input_ids)
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        return self.lm_head(self.norm(x)[:, -1:, :])


class SmallCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1, groups=4)
        self.fc = nn.Linear(32, 10)

    def forward(self, pixels):
        x = torch.relu(self.conv1(pixels))
        x = torch.relu(self.conv2(x))
        return self.fc(x.mean(dim=(2, 3)))


def export(module, path, opset, example=None, input_name="input_ids", dynamic=True, params=False):
    module.eval()
    # torch.onnx.export merges parameters of equal values into one (Identity nodes): give each
    # its own value, so the file has every layer's weights as the built-in models do.
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.fill_(1.0 + i)
    if example is None:
        example = torch.zeros(1, 7, dtype=torch.long)  # traced at 7 tokens; the axis stays symbolic
    with torch.no_grad():
        torch.onnx.export(module, (example,), path, export_params=params, opset_version=opset,
                          input_names=[input_name], output_names=["logits"],
                          dynamic_axes={input_name: {1: "sequence_length"}} if dynamic else None)
    onnx.checker.check_model(onnx.load(path))


def write_unsupported(path):
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [5, 1, 16])
    w = helper.make_tensor_value_info("W", TensorProto.FLOAT, [1, 128, 16])
    r = helper.make_tensor_value_info("R", TensorProto.FLOAT, [1, 128, 32])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    node = helper.make_node("LSTM", ["x", "W", "R"], ["y"], name="lonely_lstm", hidden_size=32)
    graph = helper.make_graph([node], "unsupported", [x, w, r], [y])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), path)


def write_ops(path):
    from onnx import TensorProto as T, helper as h
    vi = h.make_tensor_value_info
    nodes = [
        h.make_node("Gelu", ["x"], ["g"], name="gelu", approximate="tanh"),  # no schema in onnx 1.12
        h.make_node("MatMul", ["v", "g"], ["vm"], name="vec_mat"),  # [4] x [4, 8] -> [8]
        h.make_node("MatMul", ["g", "w.weight"], ["mv"], name="mat_vec"),  # [4, 8] x [8] -> [4]
        h.make_node("Gemm", ["a", "b", "c"], ["gm"], name="gemm", transA=1, alpha=2.0, beta=0.5),  # [4, 6]
        h.make_node("MatMul", ["p", "q"], ["pq"], name="bmm"),  # [2, 1, 4, 8] x [3, 8, 5] -> [2, 3, 4, 5]
        h.make_node("LayerNormalization", ["pq", "s.weight"], ["ln"], name="ln", axis=-2),
        h.make_node("Split", ["ln", "sp"], ["s1", "s2"], name="split", axis=3),
        h.make_node("Expand", ["vm", "eshape"], ["ex"], name="expand"),
    ]
    inputs = [vi("x", T.FLOAT, [4, 8]), vi("v", T.FLOAT, [4]), vi("w.weight", T.FLOAT, [8]),
              vi("a", T.FLOAT, [8, 4]), vi("b", T.FLOAT, [8, 6]), vi("c", T.FLOAT, [6]),
              vi("p", T.FLOAT, [2, 1, 4, 8]), vi("q", T.FLOAT, [3, 8, 5]), vi("s.weight", T.FLOAT, [4, 5])]
    outputs = [vi(n, T.FLOAT, None) for n in ("mv", "gm", "s1", "s2", "ex")]
    inits = [h.make_tensor("sp", T.INT64, [2], [2, 3]), h.make_tensor("eshape", T.INT64, [2], [3, 8])]
    graph = h.make_graph(nodes, "ops", inputs, outputs, initializer=inits)
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)]), path)


def write_runtime_shape(path):
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6])
    shape = helper.make_tensor_value_info("shape", TensorProto.INT64, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape_by_input"),
             helper.make_node("Relu", ["r"], ["y"], name="relu")]
    graph = helper.make_graph(nodes, "runtime_shape", [x, shape], [y])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), path)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    out = sys.argv[1]
    source = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    os.makedirs(out, exist_ok=True)
    done = os.path.join(out, "done")
    if os.path.exists(done):
        os.remove(done)
    torch.manual_seed(0)
    start = time.time()

    with open(os.path.join(source, "configs", "models", "gpt2.yaml")) as f:
        gpt2 = yaml.safe_load(f)
    export(Gpt2(gpt2), os.path.join(out, "gpt2.onnx"), opset=17)  # LayerNormalization

    with open(os.path.join(out, "llama.yaml"), "w") as f:
        f.write("# Written by tests/tools/export_onnx_models.py: the config of llama.onnx.\n")
        yaml.safe_dump(LLAMA_CONFIG, f, sort_keys=False)
    export(Llama(LLAMA_CONFIG), os.path.join(out, "llama.onnx"), opset=14)  # norms decomposed

    export(SmallCnn(), os.path.join(out, "cnn.onnx"), opset=14, example=torch.zeros(1, 3, 32, 32),
           input_name="pixels", dynamic=False, params=True)
    write_ops(os.path.join(out, "ops.onnx"))
    write_unsupported(os.path.join(out, "unsupported.onnx"))
    write_runtime_shape(os.path.join(out, "runtime_shape.onnx"))
    with open(done, "w") as f:
        f.write("ok\n")
    print("exported gpt2.onnx, llama.onnx, cnn.onnx, ops.onnx, unsupported.onnx, runtime_shape.onnx to %s in %.1f s"
          % (out, time.time() - start))


if __name__ == "__main__":
    main()
