"""Statistics over arrays, NaN meaning "no value": the paper's bias metrics (``metrics``: ranks,
rank errors, Spearman's rho, MAD, Gini, answer rate, B), spatial weights and hot spots
(``spatial_weights``, ``hotspots``: Moran's I, LISA, Gi*), GeoBS scores (``geobs``), a bias
measure against many census variables (``correlate``, ``multiple_testing``) and points summed
per areal unit (``aggregate``). Uses ``geo`` for great-circle distances; knows no model."""
