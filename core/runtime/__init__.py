"""Local models, always outside QGIS's process: the catalogue of bundled models (``models``),
the embedded llama.cpp server in a child process (``embedded``, ``embedded_server``), the
whole-sentence scorer's child and its C API (``whole_sentence_worker``, ``llama_capi``,
``sentence_packing``), the JSON-lines child protocol (``child_process``, ``child_worker``),
threads per machine (``hardware``), the model environment *Install local model* makes
(``model_env``) and the *Copy diagnostics* report (``diagnostics``).

The worker scripts run with only this folder on their path, so they import each other by
plain name as well. Imports no other subpackage: callers build endpoints from what a server
reports (its URL and model name)."""
