"""The GeoBias engine: plain Python (numpy, scipy, shapely, urllib3), no QGIS, no Qt.

Subpackages by subsystem, each importing only those below it (test/core/test_house.py):

- ``messages``, ``wording``, ``resources``: the sentences users read and where bundled data lie;
  every subpackage may use them, they import no subpackage.
- ``geo``: places on the sphere: geometry, regions to lon/lat, point sampling, the gazetteer.
- ``stats``: statistics over arrays: the paper's metrics, spatial weights, hot spots, GeoBS,
  correlations, multiple testing, areal aggregation (uses ``geo``).
- ``runtime``: local models: the bundled catalogue, the embedded llama.cpp server and
  whole-sentence scorer in child processes, the model environment, hardware rules.
- ``engine``: asking models at scale: the HTTP client, chat endpoints, the request engine, the
  answer caches and throughput (uses ``runtime``'s catalogue).
- ``survey``: the rating survey of paper 1 and what builds on it (uses ``geo``, ``stats``,
  ``runtime``, ``engine``).
- ``herb``: HERB of paper 2 (uses ``stats``, ``runtime``, ``engine``); ``survey`` and ``herb``
  never import each other.
"""
