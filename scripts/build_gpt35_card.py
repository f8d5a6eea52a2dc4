"""Build resources/benchmark/cards/gpt-3.5-turbo-0613_v1.json: the first benchmark card.

The GPT-3.5 ratings published with the paper (resources/reference/geollm-gpt35, Apache-2.0) on
sample v1, which is their own 2,000 world points. Those files hold 2 world topics (infant
mortality and the attractiveness of residents), so the card is a reduced one and says so.
The numbers are core.benchmark's, as geobias:benchmark computes them from the same ratings
given as layers (test/qgis/test_alg_geobs_benchmark.py checks both agree, and agree with
geobias:biasmetrics): a topic covers the points its file has a row for (the infant mortality
file has 1,999; an empty rating would be an unanswered point). Run:
.venv/bin/python scripts/build_gpt35_card.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.dirname(ROOT))
PACKAGE = os.path.basename(ROOT)
benchmark = __import__(f"{PACKAGE}.core.benchmark", fromlist=["x"])
ratings = __import__(f"{PACKAGE}.core.ratings", fromlist=["x"])

REFERENCE = os.path.join(ROOT, "resources", "reference", "geollm-gpt35")
SAMPLE = os.path.join(ROOT, "resources", "benchmark", "sample_v1.gpkg")
OUT = os.path.join(ROOT, "resources", "benchmark", "cards", "gpt-3.5-turbo-0613_v1.json")
FILES = {
    "Infant Mortality Rate": "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv",
    "Average Attractiveness of Residents": (
        "gpt_3_5_turbo_0613_Average_Attractiveness_of_Residents_world_prompts.csv"
    ),
}


def version():
    with open(os.path.join(ROOT, "metadata.txt"), encoding="utf-8") as f:
        return next(line.split("=", 1)[1].strip() for line in f if line.startswith("version="))


def main():
    sample = benchmark.read_sample(SAMPLE)
    entries = []
    for topic, name in FILES.items():
        table = ratings.read_ratings_table(os.path.join(REFERENCE, name))
        x = benchmark.on_sample(sample, table["lon"], table["lat"], table["value"])
        rows = np.isfinite(benchmark.on_sample(sample, table["lon"], table["lat"],
                                               np.ones(len(table["value"]))))  # fmt: skip
        truth_name = benchmark.SAMPLE_TRUTH.get(topic)
        truth = sample.fields[truth_name][rows] if truth_name else None
        entries.append(
            benchmark.topic_entry(
                topic, x[rows], sample.lon[rows], sample.lat[rows], truth=truth,
                anchor=sample.fields["infant_survival"][rows], truth_units=sample.iso_a3[rows],
                answered=np.isfinite(x[rows]), failed=np.zeros(rows.sum(), bool), scores=x,
            )
        )  # fmt: skip
    card = benchmark.build_card(
        "gpt-3.5-turbo-0613",
        "OpenAI API (answers recorded by Manvi et al., ICML 2024)",
        entries,
        sample,
        prompt_preset="geollm",
        language="en",
        geobias_version=version(),
        score_kind="greedy",
        note="the GPT-3.5 files published with the paper hold its 2 world topics",
        source="Manvi et al., 'Large Language Models are Geographically Biased' (ICML 2024), "
        "resources/reference/geollm-gpt35 (Apache License 2.0)",
    )
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(benchmark.card_json(card) + "\n")
    print(f"wrote {OUT}: {card['reduced_reason']}")


if __name__ == "__main__":
    main()
