"""The rating survey of paper 1 (Manvi et al., ICML 2024) and what builds on it: prompts and
their presets (``prompts``), topics (``topics``), prompt languages and their numerals
(``languages``, ``numerals``, ``language_runs``, ``home_bias``), the survey run over points x
topics x models (``run``), ratings read from completions (``ratings``), batch files
(``batch``), choice probes (``probes``), comparisons across models, topics and languages
(``comparisons``) and the benchmark card (``benchmark``). Never imports ``herb``."""
