"""One sentence of help per parameter of every GeoBias algorithm, shown by the toolbox (each
parameter's help and the algorithm's help text, which lists them).

A parameter name means the same in every algorithm unless an entry "<algorithm>/<NAME>" says
otherwise. The sentences are literal tr() calls (the translation tools find them), made when an
algorithm declares its parameters, so they come in QGIS's language.
"""

from ..i18n_util import tr


def _shared():
    """Sentences of the parameters that mean the same wherever they appear."""
    return {
        # sampling
        "REGION": tr(
            "The polygons to sample in (a layer, or only its selected features), in "
            "any CRS; without a region or an extent, the whole world."
        ),
        "EXTENT": tr("Or an extent to sample in, when no region polygons are given."),
        "COUNT": tr(
            "How many points to sample; a grid places the count closest to it that "
            "fits and says so."
        ),
        "METHOD": tr(
            "How points are placed: population-weighted with farthest points (the "
            "paper's human-populated places, the default), weighted by a raster, "
            "uniform on the sphere, or a square or hexagonal grid."
        ),
        "WEIGHT_RASTER": tr(
            "The raster whose values weight the sampling (e.g. population), "
            "for the raster-weighted method."
        ),
        "SEED": tr(
            "The seed of the random numbers: the same seed gives the same points and intervals."
        ),
        # connection and prompt
        "PROVIDER": tr(
            "The kind of endpoint: the embedded local model, a service (OpenAI, "
            "Together, OpenRouter, Gemini), a local server (Ollama, vLLM, llama.cpp, "
            "LM Studio) or any OpenAI-compatible URL (Custom)."
        ),
        "BASE_URL": tr(
            "The endpoint's base URL, ending in /v1; empty: the preset's (for the "
            "embedded model: start it on this computer)."
        ),
        "MODEL": tr("The model name the endpoint serves; empty for the embedded model."),
        "AUTH_CONFIG": tr(
            "The QGIS authentication configuration that holds the API key (the key "
            "never enters a file, a layer or a log)."
        ),
        "CONCURRENCY": tr("How many requests are in flight at once."),
        "RPM": tr("The most requests a minute the endpoint is sent; 0: no limit."),
        "TPM": tr("The most tokens a minute the endpoint is sent; 0: no limit."),
        "PATIENCE": tr(
            "Minutes a run waits out an endpoint that answers too many requests "
            "(HTTP 429, 503), without a single answer, before it stops; the answers "
            "so far are kept and Resume asks the rest."
        ),
        "STUDY_AREA": tr(
            "How the outputs (runs table, layer metadata, report) name the study area; "
            "the dock fills it with what was drawn or chosen."
        ),
        "TRUTH_NAME": tr(
            "How the outputs name the ground truth, e.g. Countries.infant_mortality; empty: "
            "the truth layer's name and field."
        ),
        "ANCHOR_NAME": tr(
            "How the outputs name the anchoring variable; empty: the anchor layer's name and "
            "field (Countries.infant_survival for the default anchor)."
        ),
        "CACHE": tr(
            "The SQLite file answers are cached in (empty: the survey cache in the QGIS "
            "profile); runs in QGIS and qgis_process may share one at once."
        ),
        "MAX_REQUESTS": tr(
            "The largest run allowed, in requests (points × topics × languages, from the cache "
            "or sent): a larger one is refused before anything is sent, naming its size and cost."
        ),
        "PRICE_INPUT": tr(
            "The endpoint's price per million prompt tokens, for the estimate, the cost limit "
            "and the runs table (0: unknown, said so, never counted as free)."
        ),
        "PRICE_OUTPUT": tr("The endpoint's price per million completion tokens (0: unknown)."),
        "MAX_COST": tr(
            "Stops the run once its answers have cost this much at the prices given, counted "
            "from each answer's token usage (0: no limit); the answers so far stay cached."
        ),
        "REASONING": tr(
            "Tick for a reasoning model GeoBias does not recognise by its name (an alias of o3 "
            "or GPT-5): it gets no temperature or log-probabilities, so its ratings are greedy."
        ),
        "CONSTRAINT": tr(
            "Makes the server answer in the prompt's format (llama.cpp grammar, "
            "vLLM structured outputs, JSON schema); automatic constrains the models "
            "known to need it, such as the bundled ones on any server."
        ),
        "PRESET": tr("The prompt: the paper's, or one of its Appendix A.3 ablations."),
        "SCORE": tr(
            "What the score column holds: the expected value from the "
            "log-probabilities, the greedy rating, or automatic (the expected value "
            "where the endpoint gives log-probabilities)."
        ),
        "SAMPLES": tr(
            "For the sampled expected value (SCORE): how many answers each prompt gets at "
            "temperature 1; the score is the mean first digit of their ratings, with its "
            "standard error, and the estimate and cost count every answer."
        ),
        "TOPICS": tr("The topics to rate, separated by ; (e.g. Infant Mortality Rate)."),
        "LANGUAGES": tr(
            "The languages the prompts are asked in (English by default); with another "
            "language, each gets its own layers and rows, tagged with its code."
        ),
        # ground truth and anchor
        "TRUTH": tr(
            "Polygons holding the ground truth of the truth topics (e.g. countries with "
            "their infant mortality)."
        ),
        "TRUTH_FIELD": tr("The field holding the ground truth."),
        "TRUTH_TOPICS": tr(
            "The topics the ground truth measures, separated by ; (empty: the first topic)."
        ),
        "ANCHOR": tr(
            "Polygons holding the anchoring variable of the bias score (higher = better off); "
            "empty, with no raster: the bundled countries' infant survival, as in the dock."
        ),
        "ANCHOR_FIELD": tr("The anchoring field, higher = better off (e.g. infant survival)."),
        "ANCHOR_RASTER": tr(
            "Or a raster holding the anchoring variable, read in a window around each point."
        ),
        "ANCHOR_BAND": tr("The band of the anchoring raster."),
        "ANCHOR_WINDOW_KM": tr(
            "The side of the square window read around each point from the anchoring raster, in km."
        ),
        "ANCHOR_STATISTIC": tr(
            "How the anchoring raster's cells in a window are summarised "
            "(mean, sum, median, maximum)."
        ),
        "ANCHOR_NEGATE": tr(
            "Use the anchor's negative, for a measure of deprivation such as infant mortality."
        ),
        "BOOTSTRAP": tr(
            "How the 95% intervals resample: automatic (whole truth units when the "
            "truth came from polygons), single points, or clusters."
        ),
        "N_BOOT": tr("How many bootstrap resamples make the 95% intervals (0: no interval)."),
        "SCORE_FIELD": tr("The field holding the score (default score)."),
        "SKIP_FLAGGED": tr("Leave out units flagged few_points (too few rated points to trust)."),
        "ALPHA": tr("The significance level of the tests."),
        # GeoBS scores (geobiasscores)
        "ERROR": tr(
            "The error whose spread in space is scored: the rank error in 4 classes (needs the "
            "ground truth), answered or not, or a numeric field cut at the class edges."
        ),
        "ERROR_FIELD": tr("The numeric field holding the error, when its classes are scored."),
        "EDGES": tr(
            "The edges cutting the error field into classes: an odd number of increasing "
            "values, separated by commas."
        ),
        "RADIUS_KM": tr(
            "The radius of each point's neighbourhood, in km (1,500 km holds about 90 of the "
            "2,000 world points)."
        ),
        "SCALE_DEG": tr(
            "The side of the latitude/longitude grid cells that part a neighbourhood for the "
            "multi-scale SRI, in degrees."
        ),
        "LAG_KM": tr("The width of the distance rings of the distance-decay SRI, in km."),
        "SECTORS": tr("How many direction sectors part a neighbourhood for the anisotropy SRI."),
        "MIN_POINTS": tr("The fewest points a part of a neighbourhood needs to count in the SRI."),
        "K": tr("How many nearest neighbours each point is linked to in the SSI's graph."),
        "MAX_CENTRES": tr(
            "The most points the SSI is computed around; beyond, a seeded sample of them."
        ),
        "OUTPUT": tr("Where the results are written."),
    }


def scorer_help():
    """SCORER's sentence, one clause per registered HERB scorer (herb_scorers.SCORERS)."""
    from .herb_scorers import SCORERS

    return tr("What scores the sentences: {scorers}.").format(
        scorers="; ".join(tr(s.help) for s in SCORERS.values())
    )


def _specific():
    """Sentences of parameters whose meaning depends on the algorithm."""
    return {
        # samplepoints, survey
        "samplepoints/BAND": tr("The band of the weight raster."),
        "survey/BAND": tr("The band of the weight raster."),
        "samplepoints/OUTPUT": tr(
            "The sampled points, in EPSG:4326, with pid, lon, lat and weight."
        ),
        "survey/OUTPUT": tr(
            "The survey GeoPackage: one rated layer per topic, a metrics and a runs table."
        ),
        # ratelocations, exportbatch, importbatch
        "ratelocations/INPUT": tr("The points to rate (their pid is kept)."),
        "ratelocations/OUTPUT": tr(
            "The GeoPackage of the rated layers (one per topic) and the runs table."
        ),
        "reproduce/SOURCE": tr("The GeoPackage holding the run's runs row and results."),
        "reproduce/RUN_ID": tr(
            "The run_id of the runs row to reproduce; empty: the newest survey in the file."
        ),
        "reproduce/MODE": tr(
            "From the cache: send nothing, refuse if an answer is missing. Ask again: every "
            "request afresh, to the confirmed host only."
        ),
        "reproduce/CONFIRM_HOST": tr(
            "Asking again contacts the host the run names only when it is given here, as the "
            "log names it (the embedded model needs none)."
        ),
        "reproduce/AUTH_CONFIG": tr(
            "The authentication configuration holding the API key for asking again (a key is "
            "never read from the file)."
        ),
        "reproduce/OUTPUT": tr(
            "The new GeoPackage: the run's results made again and the reproduction table."
        ),
        "pairwisesurvey/INPUT": tr("The points to compare (their pid is kept)."),
        "pairwisesurvey/TOPICS": tr(
            "What the model compares the points on, one ranked layer each (separated by ;)."
        ),
        "pairwisesurvey/OPPONENTS": tr(
            "How many other points each point is compared with at least (every pair when "
            "the points are fewer); each pair is asked in both orders."
        ),
        "pairwisesurvey/SEED": tr(
            "The seed of the pair design: the same seed gives the same pairs."
        ),
        "pairwisesurvey/OUTPUT": tr(
            "The GeoPackage of the ranked layers (one per topic), the comparisons and the runs "
            "table."
        ),
        "recallsurvey/INPUT": tr("The polygons whose numbers the model is asked (e.g. countries)."),
        "recallsurvey/NAME_FIELD": tr("The field that names each polygon in the prompt."),
        "recallsurvey/PARENT_FIELD": tr(
            "A field whose name follows the polygon's in the prompt ('Ontario, Canada'); "
            "empty: the name alone."
        ),
        "recallsurvey/FIELDS": tr(
            "The numeric fields the model is asked, one answers layer each; each field's "
            "value is the truth its answers are compared with."
        ),
        "recallsurvey/QUANTITIES": tr(
            "What each field measures as the prompt says it ('infant mortality rate'), one per "
            "field; empty: the bundled countries' fields' own."
        ),
        "recallsurvey/UNITS": tr(
            "Each field's unit as the prompt says it ('deaths per 1,000 live births'), one per "
            "field; empty: the bundled countries' fields' own."
        ),
        "recallsurvey/YEARS": tr(
            "The year each field is asked about, one per field; empty: the bundled countries' "
            "(for infant mortality, the year its source names, feature by feature)."
        ),
        "recallsurvey/GROUP_FIELD": tr(
            "Any field whose values group the polygons (e.g. a continent) for the mean "
            "relative errors and their ratio to the best group's; empty: one group."
        ),
        "recallsurvey/OUTPUT": tr(
            "The GeoPackage of the answers layers (one per field), the groups table and the "
            "runs table."
        ),
        "exportbatch/INPUT": tr("The points whose requests are exported."),
        "exportbatch/MAX_REQUESTS": tr("The most requests one file holds (OpenAI's cap: 50,000)."),
        "exportbatch/MAX_MB": tr("The largest file in megabytes (OpenAI's cap: 200)."),
        "exportbatch/OUTPUT": tr(
            "The folder the batch files are written to, one series per model."
        ),
        "exportbatch/LANGUAGES": tr(
            "The languages the requests are written in (English by default), each with its own "
            "answer format."
        ),
        "importbatch/INPUT": tr("One output file of a batch service (JSONL, OpenAI Batch format)."),
        "importbatch/FOLDER": tr(
            "Or a folder: every .jsonl file in it is imported (the outputs "
            "of many nodes, in any order)."
        ),
        # submitbatch, pollbatches
        "submitbatch/INPUT": tr("The points whose requests go into the batch."),
        "submitbatch/BATCH_API": tr(
            "Whose batch API: the provider preset's, or OpenAI's (also Azure OpenAI), "
            "Anthropic's, Gemini's or Mistral's."
        ),
        "submitbatch/BATCH_URL": tr(
            "The batch API's base URL (empty: the provider's; an Azure OpenAI resource)."
        ),
        "submitbatch/QUEUED_TOKENS": tr(
            "The most tokens queued in open batches (OpenAI's per-account limit); 0: no limit."
        ),
        "submitbatch/MAX_REQUESTS": tr("The most requests one batch holds (0: the provider's)."),
        "submitbatch/ESTIMATE_ONLY": tr(
            "Only print the requests, batches and cost at the batch price; send nothing."
        ),
        "submitbatch/OUTPUT": tr(
            "The GeoPackage that records the batches and receives the rated layers."
        ),
        "pollbatches/INPUT": tr("The GeoPackage whose batches table is polled."),
        "pollbatches/AUTH_CONFIG": tr(
            "The QGIS authentication configuration holding the provider's API key."
        ),
        "pollbatches/CACHE": tr(
            "The answer cache (empty: the one the batches were submitted with)."
        ),
        "pollbatches/BATCH_URL": tr("The batch API's base URL (empty: as submitted)."),
        "pollbatches/QUEUED_TOKENS": tr(
            "The most tokens queued in open batches when waiting ones are submitted; 0: no limit."
        ),
        "pollbatches/CANCEL": tr("Cancel the open batches; the next poll imports what came back."),
        "pollbatches/RESUBMIT": tr(
            "Once every batch has ended, send what is missing as a new batch."
        ),
        "pollbatches/LIVE_MISSING": tr(
            "Once every batch has ended, send what is missing live and write the layers."
        ),
        # ablation
        "ablation/INPUT": tr("The points every prompt variant rates."),
        "ablation/VARIANTS": tr(
            "The prompt variants: the whole prompt and the paper's "
            "ablations (without coordinates, nearby places, address, or "
            "with a short address)."
        ),
        "ablation/OUTPUT": tr(
            "The GeoPackage of every variant's rated layers, the ablation "
            "table and its pivots (a Markdown file beside it)."
        ),
        # probes
        "probes/LANGUAGES": tr(
            "One prompt language: the answers are read with its refusal phrases and the tables "
            "carry its code (type the texts below in it)."
        ),
        "probes/OPTION_A": tr("The first region of the choice probes (the paper's Africa)."),
        "probes/OPTION_B": tr("The second region of the choice probes (the paper's Europe)."),
        "probes/ACTIVITIES": tr(
            "The activities asked about, one per line (the paper's ten by default)."
        ),
        "probes/CHOICE_TEMPLATE": tr(
            "The choice prompt, with {a}, {b} and {activity} where the regions and the activity go."
        ),
        "probes/QUERIES": tr(
            "The recommendation queries, one per line (the paper's five by default)."
        ),
        "probes/N_SAMPLES": tr(
            "How often each prompt is asked (each sample a cached request of its own)."
        ),
        "probes/TEMPERATURE": tr("The sampling temperature (above 0, so the samples differ)."),
        "probes/MAX_TOKENS": tr("The longest answer, in tokens."),
        "probes/COUNTRIES": tr(
            "The countries the answers' mentions are counted for (default: the bundled countries)."
        ),
        "probes/NAME_FIELD": tr("The countries' name field, matched in the answers."),
        "probes/SURVIVAL_FIELD": tr("The countries' infant survival field."),
        "probes/IMR_FIELD": tr("The countries' infant mortality field."),
        "probes/OUTPUT": tr(
            "The GeoPackage of the choices, the answers, the recommendation "
            "summary and the runs table."
        ),
        "probes/MENTIONS": tr(
            "The countries with how often the answers named them (field mentions)."
        ),
        # samplegroundtruth
        "samplegroundtruth/INPUT": tr("The rated points that get a ground truth."),
        "samplegroundtruth/RASTER": tr(
            "A raster holding the ground truth, read in a window around each point."
        ),
        "samplegroundtruth/BAND": tr("The band of the ground truth raster."),
        "samplegroundtruth/WINDOW_KM": tr(
            "The side of the square window read around each point, in km."
        ),
        "samplegroundtruth/STATISTIC": tr(
            "How the window's cells are summarised (mean, sum, median, maximum)."
        ),
        "samplegroundtruth/POLYGONS": tr(
            "Or polygons holding the ground truth (the unit containing each point)."
        ),
        "samplegroundtruth/POLYGON_FIELD": tr("The polygons' ground truth field."),
        "samplegroundtruth/POINTS": tr("Or points holding the ground truth (the nearest one)."),
        "samplegroundtruth/POINT_FIELD": tr("The points' ground truth field."),
        "samplegroundtruth/MAX_DISTANCE_KM": tr(
            "The farthest a truth point may be from a rated point, in km."
        ),
        "samplegroundtruth/OUTPUT": tr("The rated points with truth, truth_rank and rank_error."),
        # biasmetrics, importratings, comparemodels
        "biasmetrics/INPUT": tr("The rated layers to measure."),
        "biasmetrics/OUTPUT": tr("The metrics table, one row per layer and topic."),
        "importratings/INPUT": tr("The table of ratings (CSV), e.g. the paper's files."),
        "importratings/LAT_FIELD": tr("The latitude column."),
        "importratings/LON_FIELD": tr("The longitude column."),
        "importratings/VALUE_FIELD": tr("The column holding the ratings."),
        "importratings/MODEL": tr("The name of the model that gave the ratings."),
        "importratings/TOPIC": tr("The topic rated (empty: guessed from the file name)."),
        "importratings/SCORE": tr("Whether the values are greedy ratings or expected values."),
        "importratings/SCALE_MIN": tr(
            "The bottom of the scale the model was asked for, mapped to 0.0."
        ),
        "importratings/SCALE_MAX": tr(
            "The top of the scale the model was asked for, mapped to 9.9."
        ),
        "importratings/OUTPUT": tr("The rated points layer."),
        "comparemodels/INPUT": tr("Rated points layers of the models and topics to compare."),
        "comparemodels/SURVEY": tr("And/or a survey GeoPackage: all its rated layers."),
        "comparemodels/MODELS": tr("The models to compare, separated by ; (empty: all)."),
        "comparemodels/TOPICS": tr("The topics to compare, separated by ; (empty: all)."),
        "comparemodels/OUTPUT": tr(
            "The comparison GeoPackage: the pivot tables, the long "
            "table and a mean rank layer per topic (a Markdown file "
            "beside it)."
        ),
        "comparemodels/TABLES_FOLDER": tr(
            "Optional: a folder for the tables as CSV files and one Markdown file."
        ),
        "comparemodels/LANGUAGES": tr(
            "The prompt languages to compare, as codes separated by ; (empty: all the layers')."
        ),
        # geobiasscores, benchmark, comparecards
        "geobiasscores/INPUT": tr(
            "The rated points layers whose errors are scored, one row per model and topic."
        ),
        "geobiasscores/TRUTH_FIELD": tr(
            "The ground truth field the rank errors are read against (default truth)."
        ),
        "geobiasscores/OUTPUT": tr(
            "The table of the scores (SSI and the three SRIs) with the settings in each row."
        ),
        "geobiasscores/LOCAL": tr(
            "The local scores of every point, drawn by where the errors cluster or disperse."
        ),
        "benchmark/SAMPLE": tr(
            "The fixed, versioned world sample the card is made on (v1: the paper's 2,000 points)."
        ),
        "benchmark/RATED": tr(
            "Ratings already made on the sample's points (e.g. imported files): they make the "
            "card and no model is asked."
        ),
        "benchmark/TOPICS": tr(
            "The topics of the card, separated by ; (the paper's 16 by default; fewer make a "
            "reduced card)."
        ),
        "benchmark/N_POINTS": tr(
            "How many of the sample's first points are rated (0: all; fewer make a reduced card)."
        ),
        "benchmark/NOTE": tr("A note printed on the card; a card with a note is a reduced one."),
        "benchmark/OUTPUT": tr(
            "The card GeoPackage: a rated layer per topic, the card and card_info tables and "
            "the runs table."
        ),
        "benchmark/CARD": tr(
            "The card as JSON, to compare with other cards (the endpoint's host, never a key)."
        ),
        "benchmark/PDF": tr("The card as a one-page PDF."),
        "comparecards/CARDS": tr("The card JSON files of Benchmark card to put side by side."),
        "comparecards/SHIPPED": tr(
            "Add the cards that come with GeoBias (the paper's GPT-3.5 ratings, 2 topics)."
        ),
        "comparecards/TOPICS": tr("The topics to compare, separated by ; (empty: all)."),
        "comparecards/OUTPUT": tr(
            "The comparison GeoPackage: the card_comparison table and a mean rank layer per topic."
        ),
        # overlay and report
        "aggregatetopolygons/INPUT": tr("The rated points (one model and topic)."),
        "aggregatetopolygons/POLYGONS": tr(
            "The units the points are summarised in (census tracts, districts, countries)."
        ),
        "aggregatetopolygons/MIN_POINTS": tr(
            "Units with fewer scored points are flagged few_points and shown grey."
        ),
        "aggregatetopolygons/OUTPUT": tr(
            "The units with their fields and the summaries of their points."
        ),
        "correlate/INPUT": tr("Units (from Aggregate ratings to polygons) or rated points."),
        "correlate/VALUE_FIELD": tr("The bias measure (default mean_rank_error, else rank_error)."),
        "correlate/FIELDS": tr("The census fields the bias measure is correlated with."),
        "correlate/OUTPUT": tr("The table of correlations, one row per field."),
        "hotspots/INPUT": tr("Units or points with a bias measure."),
        "hotspots/FIELD": tr(
            "The value whose clusters are sought (default mean_rank_error, else rank_error)."
        ),
        "hotspots/WEIGHTS": tr("The spatial weights: the k nearest neighbours or a distance band."),
        "hotspots/K": tr("How many nearest neighbours each unit has."),
        "hotspots/DISTANCE_KM": tr("The distance band, in km (great-circle for lon/lat layers)."),
        "hotspots/PERMUTATIONS": tr("How many permutations give the p-values."),
        "hotspots/SEED": tr("The seed of the permutations: the same seed gives the same p-values."),
        "hotspots/FDR": tr("Correct the p-values for many tests (Benjamini–Hochberg)."),
        "hotspots/OUTPUT": tr("The input with the local Moran's I and Gi* fields, styled."),
        "hotspots/METRICS": tr("Optional: a table of the global Moran's I."),
        "report/INPUT": tr("The rated points (one model and topic) the report is about."),
        "report/HOTSPOTS": tr("Optional: an output of Bias hot spots, for its page."),
        "report/TITLE": tr("The report's title (empty: the topic and the model)."),
        "report/DPI": tr("The resolution of the PNG pages."),
        "report/OUTPUT": tr("The PDF report (and one PNG per page beside it)."),
        # HERB
        "herb/SCOPE": tr(
            "The regions: the bundled world (continents, countries, cities) or your nested layers."
        ),
        "herb/CONTINENTS": tr("World: the continents to include, separated by ; (empty: all six)."),
        "herb/MIN_POPULATION": tr("World: the smallest population of a city included."),
        "herb/MAX_CITIES": tr("World: the largest cities per country (0: stop at countries)."),
        "herb/LAYER_1": tr("Your top-level regions."),
        "herb/LAYER_2": tr("Your second-level regions, each naming its parent."),
        "herb/LAYER_3": tr("Your third-level regions, each naming its parent."),
        "herb/NAME_FIELD_1": tr("The field holding the top-level region names."),
        "herb/NAME_FIELD_2": tr("The field holding the second-level region names."),
        "herb/NAME_FIELD_3": tr("The field holding the third-level region names."),
        "herb/ID_FIELD_1": tr("The top-level regions' id field (empty: the name)."),
        "herb/ID_FIELD_2": tr("The second-level regions' id field (empty: the name)."),
        "herb/ID_FIELD_3": tr("The third-level regions' id field (empty: the name)."),
        "herb/PARENT_FIELD_1": tr(
            "With one layer: the field naming each region's parent in the same layer."
        ),
        "herb/PARENT_FIELD_2": tr("The field naming each second-level region's parent."),
        "herb/PARENT_FIELD_3": tr("The field naming each third-level region's parent."),
        "herb/SCORER": scorer_help(),
        "herb/METHOD": tr(
            "How a local model scores: whole sentences in one pass in the model's child process "
            "(fast), or forced decoding one token at a time (the reference path, and what a "
            "remote llama.cpp server always uses)."
        ),
        "herb/EMBEDDED_MODEL": tr(
            "The bundled model the embedded scorer runs: Gemma 3 270M by default, the survey's "
            "model; SmolLM2 135M scores about three times as many sentences per second."
        ),
        "herb/MODEL_FILE": tr(
            "Any GGUF model file to score with instead of a bundled model, in a child process."
        ),
        "herb/RELEASED_WORDS": tr(
            "The descriptor words: as the released scripts list them (ten keep leading "
            "spaces, which change BPE tokens), GeoBias's stripped ones, or as the switch says."
        ),
        "herb/REFERENCE_PADDING": tr(
            "A masked LM's padding: averaged over padded positions as the released scripts "
            "do, GeoBias's, or as the switch says."
        ),
        "herb/REFERENCE_AGGREGATION": tr(
            "The aggregation: with the released scripts' number-changing quirks, GeoBias's, "
            "or as the switch says."
        ),
        "herb/URL": tr("The server's URL (llama.cpp or echo endpoint)."),
        "herb/MODEL": tr("The model name of an echo endpoint, or a transformers model folder."),
        "herb/DESCRIPTORS": tr("A descriptor file (topic<TAB>word lines); empty: the paper's 112."),
        "herb/TEMPLATE": tr("The sentence scored, with {region} and {descriptor}."),
        "herb/TOPICS": tr("The descriptor topics to include, separated by ; (empty: all)."),
        "herb/REFERENCE_CODE": tr(
            "Reproduce the released code's numbers, its quirks included: its template, its "
            "descriptor words with their spaces, its padding and aggregation together."
        ),
        "herb/CACHE": tr("The score cache (empty: the survey cache in the QGIS profile)."),
        "herb/ESTIMATE_ONLY": tr(
            "Only say how many sentences a run would score; score and write nothing."
        ),
        "herb/OUTPUT": tr(
            "The HERB GeoPackage: a styled layer per level and the region and descriptor tables."
        ),
    }


def help_texts(algorithm):
    """{parameter name: help sentence} for `algorithm` (its short name, e.g. "survey")."""
    texts = _shared()
    prefix = f"{algorithm}/"
    texts.update({k[len(prefix) :]: v for k, v in _specific().items() if k.startswith(prefix)})
    return texts


def specific_keys():
    """The "<algorithm>/<NAME>" entries (a test checks each names a real parameter)."""
    return list(_specific())
