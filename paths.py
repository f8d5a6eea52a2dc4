"""Where the plugin's bundled files live, whatever the plugin folder is called."""

import os

PLUGIN_DIR = os.path.dirname(os.path.abspath(__file__))
RESOURCES = os.path.join(PLUGIN_DIR, "resources")
ICON = os.path.join(RESOURCES, "icon.svg")
DATA = os.path.join(RESOURCES, "data")
# The bundled Natural Earth countries with their indicators (truth and anchor by default).
COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
# Real GPT-3.5 ratings of paper 1 (Apache-2.0, see resources/reference/NOTICE): examples and tests.
REFERENCE = os.path.join(RESOURCES, "reference", "geollm-gpt35")
# The user guide (HTML) the dock's Help button opens; shipped in the plugin zip.
GUIDE = os.path.join(PLUGIN_DIR, "docs", "guide", "index.html")
# The HTML help built from docs/*.md by scripts/docs.py (`make docs`), shipped in the zip:
# processing.html documents each algorithm (their helpUrl), method and batch notes, the README.
HELP = os.path.join(PLUGIN_DIR, "help")
PROCESSING_HELP = os.path.join(HELP, "processing.html")
# The benchmark card's fixed world sample (resources/benchmark/README.md).
BENCHMARK_SAMPLE_V1 = os.path.join(RESOURCES, "benchmark", "sample_v1.gpkg")
