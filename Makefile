# GeoBias: every target first runs the idempotent bootstrap (Debian QGIS, .venv, pins).
PY := .venv/bin/python
# Headless QGIS for tests, demo and benchmarks, with its settings (and the survey cache) kept in
# build/ rather than the user's QGIS profile. `make qgis` opens a real window instead.
HEADLESS := QT_QPA_PLATFORM=offscreen QGIS_CUSTOM_CONFIG_PATH=$(CURDIR)/build/qgis-headless

.PHONY: all setup wheels test test-core test-floor test-shapely18 test-qgis test-integration test-desktop lint demo demo-herb demo-compare demo-languages demo-pairwise demo-recall bench \
        package llm qgis test-matrix eval-models eval-sampled \
        screenshot translations docs data clean

all: test

setup:
	@bash scripts/bootstrap.sh

# The Python floor is 3.9 (QGIS 3.22-3.28 ship it on Windows/macOS): vermin checks the standard
# library, check_compat.py the run-time `X | Y` unions vermin cannot see, ruff FA102 the imports.
# check_qt6.py: what breaks on QGIS 4 / Qt6 (what QGIS's PyQt5-to-PyQt6 script would change);
# flake8 runs flake8-qgis's plugin rules (.flake8 says which are ignored and why).
FLOOR := 3.9
lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m flake8 .
	.venv/bin/vermin -q -t=$(FLOOR)- --no-tips --violations --eval-annotations \
		--exclude-regex '(^|/)(\.venv|build|output)/' .
	$(PY) scripts/check_compat.py .
	QT_QPA_PLATFORM=offscreen $(PY) scripts/check_qt6.py .

# Core tests on the floor's real interpreter (pyenv's 3.9 on these machines), in build/py39.
test-floor: setup
	@bash scripts/floor_venv.sh
	GEOBIAS_EXPECT_SHAPELY=2.0 PYTHONPATH=build/py39src \
		build/py39/bin/python -m pytest -p no:cacheprovider test/core -q

# Core tests on Debian 12's python3-shapely 1.8.5 (what `apt install python3-shapely` gives a
# Debian QGIS user), in build/shapely18; core/geo/geometry.py hides the 1.8 / 2.x differences.
test-shapely18: setup
	@bash scripts/shapely18_venv.sh
	GEOBIAS_EXPECT_SHAPELY=1.8 PYTHONPATH=build/shapely18src \
		build/shapely18/bin/python -m pytest -p no:cacheprovider test/core -q

# test/esda: core/stats/hotspots.py against PySAL's esda (test-only, requirements-dev.txt).
# test/sdk: the local provider batch servers driven by the providers' official SDKs, in a venv
# of their own (build/sdk, scripts/sdk_venv.sh): they need newer packages than .venv holds.
test-core: setup
	GEOBIAS_EXPECT_SHAPELY=2.1 $(PY) -m pytest -p no:pytest_qgis test/core test/esda -q
	@bash scripts/sdk_venv.sh
	build/sdk/bin/python -m pytest -p no:cacheprovider test/sdk -q

# --qgis_disable_exit: pytest-qgis's exitQgis at the end of the session segfaulted after all
# tests passed (QGIS 3.22 tearing down GDAL/layout objects; 3.44 aborts there too, see
# scripts/matrix_tests.sh). A real quit is tested where users quit: test/desktop and qgis_process.
test-qgis: setup translations docs
	$(HEADLESS) $(PY) -m pytest --qgis_disable_exit test/qgis -q

# The model environment's wheels (pinned xllamacpp, every model's packages) in build/wheels, for
# an offline *Install local model* and its test (test/integration/test_model_install.py).
wheels: setup
	@bash scripts/fill_wheels.sh

test-integration: setup wheels
	$(HEADLESS) $(PY) -m pytest -p no:pytest_qgis test/integration -q

# The real QGIS desktop under Xvfb, the plugin installed from the zip, driven like a user.
test-desktop: setup package wheels
	$(PY) -m pytest -p no:pytest_qgis test/desktop -q

test: lint test-core test-floor test-shapely18 test-qgis test-integration test-desktop

# The core, QGIS and qgis_process tests on QGIS 3.22 (here), 3.40 (Debian 13) and 3.44 (Debian
# sid), the last two in debootstrap chroots cached in /var/cache/geobias-matrix (root or sudo;
# scripts/matrix.sh). MATRIX="trixie sid" skips the native run (CI: `make test` just ran it).
MATRIX ?= native trixie sid
test-matrix: setup
	GEOBIAS_MATRIX="$(MATRIX)" bash scripts/matrix.sh

# Demos run the embedded model deterministic (one slot, no prompt-cache reuse: a re-run gives
# the same numbers; core/runtime/embedded.py deterministic_default).
DETERMINISTIC = GEOBIAS_DETERMINISTIC=1

demo: setup translations
	$(DETERMINISTIC) $(HEADLESS) $(PY) scripts/demo.py $(DEMO_ARGS)

demo-herb: setup translations
	$(HEADLESS) $(PY) scripts/demo_herb.py $(DEMO_ARGS)

# The embedded model under two prompt presets on 100 points sampled as make demo samples, on
# two topics, compared.
demo-compare: setup translations
	$(DETERMINISTIC) $(HEADLESS) $(PY) scripts/demo_compare.py $(DEMO_ARGS)

# The embedded model on 100 points in English, French, Spanish, Arabic and Chinese, one topic:
# per language its signal (rho with the truth) and home bias, compared across languages.
demo-languages: setup translations
	$(DETERMINISTIC) $(HEADLESS) $(PY) scripts/demo_languages.py $(DEMO_ARGS)

# The embedded model ranks 40 points by pairwise choices (both orders, 8+ opponents each) beside
# its 0-9 ratings of the same points, both against the countries' infant mortality.
demo-pairwise: setup translations
	$(DETERMINISTIC) $(HEADLESS) $(PY) scripts/demo_pairwise.py $(DEMO_ARGS)

# The embedded model asked the bundled countries' infant mortality and life expectancy: the
# relative error per country and by continent and income group (WorldBench-style recall).
demo-recall: setup translations
	$(DETERMINISTIC) $(HEADLESS) $(PY) scripts/demo_recall.py $(DEMO_ARGS)

# The long desktop session (benchmarks/bench_long_session.py) runs the plugin from the zip.
bench: setup package
	$(HEADLESS) $(PY) benchmarks/run.py

# Rate the same world sample with every embedded model and answer mode (core/runtime/models.py) and
# compare rho with country truth; answers are cached in build/eval_models (a re-run is free).
eval-models: setup
	nice -n 10 $(PY) benchmarks/eval_models.py $(EVAL_ARGS)

# The sampled score (k answers at temperature 1) against the log-probability expected value on
# the embedded model: the share of points where they differ by at most 2 standard errors.
eval-sampled: setup
	nice -n 10 $(PY) benchmarks/eval_sampled.py $(EVAL_ARGS)

package: setup translations docs
	$(PY) scripts/package.py

llm: setup
	$(PY) scripts/llm.py

qgis: setup package
	bash scripts/run_qgis.sh

screenshot: setup package
	bash scripts/screenshot.sh

# Compiled translations are build products: .ts from the code, .qm from the .ts.
translations: setup
	@$(PY) scripts/translations.py compile

# The HTML help shipped in the zip (help/, a build product) from docs/*.md and README.md.
docs: setup
	@$(PY) scripts/docs.py >/dev/null

# Rebuild the bundled gazetteer and sample data from what packages ship (not needed to run).
data: setup
	@for p in r-cran-spdata r-cran-wdi; do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || \
		apt-get install -y -q --no-install-recommends $$p || exit 1; done
	test -x build/data-venv/bin/python || /usr/bin/python3 -m venv --system-site-packages build/data-venv
	build/data-venv/bin/pip install -q -c constraints.txt -r requirements-data.txt
	build/data-venv/bin/python scripts/build_gazetteer.py
	build/data-venv/bin/python scripts/build_sample_data.py
	build/data-venv/bin/python scripts/build_herb_hierarchy.py
	build/data-venv/bin/python scripts/build_country_languages.py

clean:
	rm -rf build output geobias.zip i18n/*.qm help .pytest_cache .ruff_cache
