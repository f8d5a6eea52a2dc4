"""Places on the sphere: shapely across versions (``geometry``), study regions from any CRS to
lon/lat (``regions``), survey points sampled uniformly, by weight or on grids (``sampling``),
and the offline GeoNames gazetteer that writes a point's address and nearby places
(``gazetteer``). Imports nothing of core but ``messages`` and ``wording``."""
