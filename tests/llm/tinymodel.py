"""A tiny llama-architecture model with random weights, written as GGUF, and its server.

The model's text is nonsense, but schema-constrained decoding makes every reply fit the schema,
so tests exercise the whole path (prompt, schema, server round trip, parsing, defaults) against
a real llama.cpp server (``python -m llama_cpp.server``) on loopback.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np

N_EMBD = 32
N_LAYER = 1
N_HEAD = 2
N_FF = 64
N_CTX = 32768
READY_WAIT = 60.0
"""Seconds the server has to load the model and answer ``/v1/models``."""

CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def write_tiny_model(path: Path, seed: int = 0) -> Path:
    """Write a random-weight llama model with a byte-level vocabulary (a few hundred KB)."""
    import gguf

    rng = np.random.default_rng(seed)
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("dennou-tiny")
    writer.add_context_length(N_CTX)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(N_LAYER)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(N_HEAD)
    writer.add_head_count_kv(N_HEAD)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_dimension_count(N_EMBD // N_HEAD)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    # SentencePiece-style vocabulary: three control tokens, then one token per byte
    tokens = [b"<unk>", b"<s>", b"</s>"] + [f"<0x{b:02X}>".encode() for b in range(256)]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL]
    types += [gguf.TokenType.BYTE] * 256
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * len(tokens))
    writer.add_token_types(types)
    writer.add_unk_token_id(0)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_add_space_prefix(False)
    writer.add_chat_template(CHATML)
    n_vocab = len(tokens)

    def tensor(name: str, *shape: int, scale: float = 0.2) -> None:
        writer.add_tensor(name, (rng.standard_normal(shape) * scale).astype(np.float32))

    tensor("token_embd.weight", n_vocab, N_EMBD)
    writer.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    tensor("output.weight", n_vocab, N_EMBD)
    for i in range(N_LAYER):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        for part in ("q", "k", "v", "output"):
            tensor(f"blk.{i}.attn_{part}.weight", N_EMBD, N_EMBD)
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        tensor(f"blk.{i}.ffn_gate.weight", N_FF, N_EMBD)
        tensor(f"blk.{i}.ffn_up.weight", N_FF, N_EMBD)
        tensor(f"blk.{i}.ffn_down.weight", N_EMBD, N_FF)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


class LlamaServer:
    """``python -m llama_cpp.server`` serving a model on loopback, as a real subprocess.

    Args:
        model: The GGUF file.
        port: A free loopback port.
        log: Where its output goes.
    """

    def __init__(self, model: Path, port: int, log: Path) -> None:
        self.port = port
        self.base_url = f"http://127.0.0.1:{port}/v1"
        self._log = open(log, "wb")  # noqa: SIM115 - closed in stop()
        env = {**os.environ, "OPENAI_API_KEY": ""}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(model),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                str(N_CTX),
                "--n_threads",
                "1",
                "--n_batch",
                "2048",
                "--verbose",
                "False",
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        self.log = log

    def wait_ready(self, timeout: float = READY_WAIT) -> None:
        """Return once ``/v1/models`` answers (bounded by ``timeout``).

        Raises:
            RuntimeError: The server exited or did not answer in time (its log is quoted).
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            url = f"{self.base_url}/models"
            with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == 200:
                    return
            time.sleep(0.2)
        tail = self.log.read_bytes()[-3000:].decode("utf-8", "replace")
        raise RuntimeError(f"llama_cpp.server did not start: {tail}")

    def stop(self) -> None:
        """Stop the server (killed if it does not exit promptly)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._log.close()
