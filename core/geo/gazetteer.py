"""Offline gazetteer: addresses and nearby named places from bundled GeoNames data, by KD-tree.

The paper asked Nominatim (address) and Overpass (nearby places) over the network, about one
request per second each. GeoBias answers both from ``resources/gazetteer/geonames.npz`` (GeoNames
cities1000, CC BY 4.0, built by ``scripts/build_gazetteer.py``) with one KD-tree query on 3D unit
vectors, so chord distances order places exactly as great-circle distances do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree

from ..resources import resource
from . import geometry
from .sampling import bearing_deg, chord_to_km, compass8, lonlat_to_xyz

__all__ = [
    "DEFAULT_PATH",
    "SAME_PLACE_KM",
    "Gazetteer",
    "Place",
    "format_nearby",
    "join_address",
]

DEFAULT_PATH = Path(resource("gazetteer", "geonames.npz"))
# Places closer than this are the point itself (they would print as "0.0 km").
SAME_PLACE_KM = 0.05


@dataclass(frozen=True)
class Place:
    """One named place of the gazetteer."""

    name: str
    lon: float
    lat: float
    population: int
    admin1: str
    admin2: str
    country: str


def _strings(blob: np.ndarray) -> list[str]:
    """Split a UTF-8 byte array of newline-joined strings (the .npz string format)."""
    return blob.tobytes().decode("utf-8").split("\n")


def _codes(values, n: int) -> tuple[np.ndarray, list[str]]:
    """Integer codes and their string table ("" first) for n per-place strings (or None)."""
    if values is None:
        return np.zeros(n, dtype=np.int32), [""]
    values = ["" if v is None else str(v).strip() for v in values]
    if len(values) != n:
        raise ValueError(f"expected {n} values, got {len(values)}")
    table = [""] + sorted(set(values) - {""})
    index = {s: i for i, s in enumerate(table)}
    return np.array([index[v] for v in values], dtype=np.int32), table


def join_address(parts) -> str:
    """Join address parts with ", ", dropping empty parts and ones already present."""
    out, seen = [], set()
    for part in parts:
        key = part.strip().casefold()
        if key and key not in seen:
            out.append(part.strip())
            seen.add(key)
    return ", ".join(out)


class Gazetteer:
    """Named places (lon/lat, population, admin names) with address and nearby-place queries."""

    _cache: dict[str, Gazetteer] = {}

    def __init__(
        self,
        lon,
        lat,
        names,
        population=None,
        *,
        codes: dict[str, np.ndarray] | None = None,
        tables: dict[str, list[str]] | None = None,
    ):
        """Places from arrays; admin1/admin2/country as int codes into string tables (or none)."""
        self.lon = np.asarray(lon, dtype=float).ravel()
        self.lat = np.asarray(lat, dtype=float).ravel()
        n = self.lon.size
        self.names = [str(s) for s in names]
        if self.lat.size != n or len(self.names) != n:
            raise ValueError("lon, lat and names must have the same length")
        if not (np.isfinite(self.lon).all() and np.isfinite(self.lat).all()):
            raise ValueError("place coordinates must be finite")
        if population is None:
            population = np.zeros(n, dtype=np.int64)
        self.population = np.asarray(population).ravel()
        if self.population.size != n:
            raise ValueError("population must have one value per place")
        self._codes = {k: np.zeros(n, dtype=np.int32) for k in ("admin1", "admin2", "country")}
        self._tables = {k: [""] for k in self._codes}
        self._codes.update(codes or {})
        self._tables.update(tables or {})
        self.meta: dict = {}

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | None = None) -> Gazetteer:
        """The bundled GeoNames gazetteer (or another .npz of the same layout); cached per path."""
        key = str(Path(path or DEFAULT_PATH).resolve())
        if key not in cls._cache:
            with np.load(key) as data:
                gaz = cls(
                    data["lon"],
                    data["lat"],
                    _strings(data["name"]),
                    data["population"],
                    codes={k: data[k] for k in ("admin1", "admin2", "country")},
                    tables={
                        k: _strings(data[f"{k}_table"]) for k in ("admin1", "admin2", "country")
                    },
                )
                gaz.meta = json.loads(data["meta"].tobytes().decode("utf-8"))
            cls._cache[key] = gaz
        return cls._cache[key]

    @classmethod
    def from_points(
        cls, lon, lat, names, population=None, admin1=None, admin2=None, country=None
    ) -> Gazetteer:
        """A gazetteer from a user's point layer (e.g. neighbourhood-scale nearby places)."""
        n = np.asarray(lon).size
        codes, tables = {}, {}
        for key, values in (("admin1", admin1), ("admin2", admin2), ("country", country)):
            codes[key], tables[key] = _codes(values, n)
        return cls(lon, lat, names, population, codes=codes, tables=tables)

    def __len__(self) -> int:
        return self.lon.size

    @cached_property
    def tree(self) -> cKDTree:
        """KD-tree on unit vectors of the places (built on first query)."""
        return cKDTree(lonlat_to_xyz(self.lon, self.lat))

    def place(self, i: int) -> Place:
        """The i-th place with its admin names."""
        admin = {k: self._tables[k][self._codes[k][i]] for k in self._codes}
        return Place(
            self.names[i], float(self.lon[i]), float(self.lat[i]), int(self.population[i]), **admin
        )

    # --- queries ----------------------------------------------------------------------------

    def query(self, lon, lat, k: int = 10) -> tuple[np.ndarray, np.ndarray]:
        """k nearest places per point: (km (n, k), index (n, k)); inf and -1 where none/NaN."""
        lon = np.atleast_1d(np.asarray(lon, dtype=float))
        lat = np.atleast_1d(np.asarray(lat, dtype=float))
        if lon.shape != lat.shape:
            raise ValueError("lon and lat must have the same shape")
        lon, lat = lon.ravel(), lat.ravel()
        k = max(int(k), 1)
        km = np.full((lon.size, k), np.inf)
        index = np.full((lon.size, k), -1, dtype=np.int64)
        ok = np.isfinite(lon) & np.isfinite(lat)
        if len(self) == 0 or not ok.any():
            return km, index
        chord, idx = self.tree.query(lonlat_to_xyz(lon[ok], lat[ok]), k=k)
        chord, idx = chord.reshape(-1, k), idx.reshape(-1, k)
        found = idx < len(self)  # cKDTree pads with index n when k > number of places
        km[ok] = np.where(found, chord_to_km(np.where(found, chord, 0.0)), np.inf)
        index[ok] = np.where(found, idx, -1)
        return km, index

    def nearest(self, lon: float, lat: float) -> Place | None:
        """The nearest place (None for NaN coordinates or an empty gazetteer)."""
        i = int(self.query(lon, lat, k=1)[1][0, 0])
        return self.place(i) if i >= 0 else None

    def _address_of(self, i: int) -> str:
        """Address of place i: locality, admin2, admin1, country."""
        if i < 0:
            return ""
        c, t = self._codes, self._tables
        return join_address(
            (
                self.names[i],
                t["admin2"][c["admin2"][i]],
                t["admin1"][c["admin1"][i]],
                t["country"][c["country"][i]],
            )
        )

    def address(self, lon: float, lat: float) -> str:
        """'locality, admin2, admin1, country' of the nearest place, however far it is."""
        return self.addresses([lon], [lat])[0]

    def addresses(self, lon, lat) -> list[str]:
        """Addresses for arrays of points (one KD-tree query)."""
        return self._addresses(self.query(lon, lat, k=1)[1][:, 0])

    def _addresses(self, nearest: np.ndarray) -> list[str]:
        """Addresses for nearest-place indices, each distinct place formatted once."""
        unique, inverse = np.unique(nearest, return_inverse=True)
        texts = [self._address_of(int(i)) for i in unique]
        return [texts[j] for j in inverse]

    def _nearby_rows(self, lon, lat, km, index, radius_km, k):
        """Flat (point row, km, direction, place) of a k-nearest query kept within radius_km."""
        lon = np.atleast_1d(np.asarray(lon, dtype=float)).ravel()
        lat = np.atleast_1d(np.asarray(lat, dtype=float)).ravel()
        # A place at the point itself (gazetteer-weighted samples sit on places) would read
        # "0.0 km North": its direction is meaningless and the address already names it.
        keep = (index >= 0) & (km <= radius_km) & (km >= SAME_PLACE_KM)
        keep &= np.cumsum(keep, axis=1) <= k
        rows, cols = np.nonzero(keep)  # row-major: nearest first
        places = index[rows, cols]
        directions = compass8(bearing_deg(lon[rows], lat[rows], self.lon[places], self.lat[places]))
        return rows, km[rows, cols], directions, places

    def nearby(
        self, lon: float, lat: float, k: int = 10, radius_km: float = 100.0
    ) -> list[tuple[float, str, str]]:
        """Up to k places within radius_km, nearest first, as (km, direction from point, name).

        The place the address is taken from is listed too (at its distance from the point), as
        the paper's Overpass query listed every named place around the point.
        """
        km, index = self.query(lon, lat, k=k + 1)  # one spare for a place at the point
        _, dist, directions, places = self._nearby_rows(lon, lat, km, index, radius_km, k)
        names = self.names
        return [
            (d, c, names[p]) for d, c, p in zip(dist.tolist(), directions.tolist(), places.tolist())
        ]

    def nearby_text(self, lon: float, lat: float, k: int = 10, radius_km: float = 100.0) -> str:
        """Nearby places as prompt lines '{km:.1f} km {direction}: {name}' + newline each."""
        return self.describe([lon], [lat], k, radius_km)[1][0]

    def nearby_texts(self, lon, lat, k: int = 10, radius_km: float = 100.0) -> list[str]:
        """Nearby-place prompt texts for arrays of points (one KD-tree query)."""
        return self.describe(lon, lat, k, radius_km)[1]

    def describe(
        self, lon, lat, k: int = 10, radius_km: float = 100.0
    ) -> tuple[list[str], list[str]]:
        """Addresses and nearby-place texts for arrays of points, from one KD-tree query."""
        km, index = self.query(lon, lat, k=k + 1)  # one spare for a place at the point
        addresses = self._addresses(index[:, 0])
        rows, dist, directions, places = self._nearby_rows(lon, lat, km, index, radius_km, k)
        names = self.names
        lines = [
            f"{d:.1f} km {c}: {names[p]}\n"
            for d, c, p in zip(dist.tolist(), directions.tolist(), places.tolist())
        ]
        ends = np.cumsum(np.bincount(rows, minlength=len(addresses))).tolist()
        starts = [0] + ends[:-1]
        return addresses, ["".join(lines[a:b]) for a, b in zip(starts, ends)]

    def candidates(self, region=None) -> tuple[np.ndarray, np.ndarray]:
        """(lon/lat (m, 2), population (m,)) of places inside a lon/lat region (all if None)."""
        inside = np.ones(len(self), dtype=bool)
        if region is not None:
            minx, miny, maxx, maxy = region.bounds
            inside = (
                (self.lon >= minx) & (self.lon <= maxx) & (self.lat >= miny) & (self.lat <= maxy)
            )
            sel = np.flatnonzero(inside)
            inside[sel] = geometry.contains_xy(region, self.lon[sel], self.lat[sel])
        return np.column_stack([self.lon[inside], self.lat[inside]]), self.population[inside]


def format_nearby(rows) -> str:
    """Prompt lines for (km, direction, name) rows: '12.3 km North-East: Name' + newline each."""
    return "".join(f"{km:.1f} km {direction}: {name}\n" for km, direction, name in rows)
