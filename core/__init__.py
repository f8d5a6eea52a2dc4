"""The GeoBias engine: plain Python (numpy, scipy, shapely, requests), no QGIS, no Qt."""
