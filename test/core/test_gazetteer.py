"""Tests for core/geo/gazetteer.py on the bundled GeoNames data and on constructed point layers."""

import socket
from pathlib import Path

import numpy as np
import pytest
from shapely.geometry import MultiPolygon, box

from geobias.core.geo.gazetteer import DEFAULT_PATH, Gazetteer, format_nearby
from geobias.core.geo.sampling import bearing_deg, compass8, haversine_km


@pytest.fixture(scope="module")
def gaz():
    return Gazetteer.load()


def _parts_ok(address):
    parts = address.split(", ")
    assert all(p.strip() for p in parts)
    assert len({p.casefold() for p in parts}) == len(parts)
    return parts


def test_bundled_file_is_small_and_attributed(gaz):
    assert DEFAULT_PATH.stat().st_size < 15e6
    readme = (Path(DEFAULT_PATH).parent / "README.md").read_text(encoding="utf-8")
    assert "GeoNames" in readme and "CC BY 4.0" in readme
    assert len(gaz) > 100_000
    assert gaz.meta["places"] == len(gaz)


def test_paris_address_and_nearby(gaz):
    address = gaz.address(2.3522, 48.8566)
    parts = _parts_ok(address)
    assert parts[0] == "Paris" and parts[-1] == "France"
    rows = gaz.nearby(2.3522, 48.8566)
    assert 1 <= len(rows) <= 10
    km = [r[0] for r in rows]
    assert km == sorted(km) and max(km) <= 100
    assert "Paris" in [r[2] for r in rows]


def test_nearby_rows_match_great_circle_geometry(gaz):
    lon, lat = 13.4, 52.5
    rows = gaz.nearby(lon, lat, k=10, radius_km=30)
    assert rows and all(r[0] <= 30 for r in rows)
    names = np.array(gaz.names, dtype=object)
    for km, direction, name in rows:
        i = np.flatnonzero(names == name)
        d = haversine_km(lon, lat, gaz.lon[i], gaz.lat[i])
        j = i[np.argmin(np.abs(d - km))]
        assert haversine_km(lon, lat, gaz.lon[j], gaz.lat[j]) == pytest.approx(km, abs=1e-3)
        assert compass8(bearing_deg(lon, lat, gaz.lon[j], gaz.lat[j])) == direction


def test_open_ocean_gets_address_but_no_nearby(gaz):
    lon, lat = -150.0, -45.0
    assert _parts_ok(gaz.address(lon, lat))
    assert gaz.nearby(lon, lat) == []
    assert gaz.nearby_text(lon, lat) == ""


def test_batched_equals_single_point(gaz):
    rng = np.random.default_rng(0)
    lon, lat = rng.uniform(-20, 40, 200), rng.uniform(-35, 60, 200)
    lon[3] = np.nan
    addresses, texts = gaz.describe(lon, lat)
    assert addresses == gaz.addresses(lon, lat)
    assert texts == gaz.nearby_texts(lon, lat)
    assert addresses[3] == "" and texts[3] == ""
    for i in (0, 1, 50, 199):
        assert addresses[i] == gaz.address(lon[i], lat[i])
        assert texts[i] == gaz.nearby_text(lon[i], lat[i])
        assert texts[i] == format_nearby(gaz.nearby(lon[i], lat[i]))


def test_nearby_text_layout(gaz):
    text = gaz.nearby_text(2.3522, 48.8566)
    lines = text.split("\n")
    assert text.endswith("\n") and lines[-1] == "" and 1 <= len(lines) - 1 <= 10
    for line in lines[:-1]:
        km, rest = line.split(" km ", 1)
        direction, name = rest.split(": ", 1)
        assert len(km.split(".")[1]) == 1 and direction in compass8(np.arange(0, 360, 45))
        assert name


def test_from_points_directions_order_and_radius():
    names = ["Centre", "North-east town", "East town", "South-west town", "Far"]
    lon = [0.0, 0.3, 0.5, -0.6, 5.0]
    lat = [0.0, 0.3, 0.0, -0.6, 0.0]
    gaz = Gazetteer.from_points(lon, lat, names)
    rows = gaz.nearby(0.01, 0.0, k=10, radius_km=100)
    assert [r[2] for r in rows] == ["Centre", "North-east town", "East town", "South-west town"]
    assert [r[1] for r in rows[1:]] == ["North-East", "East", "South-West"]
    assert rows[0][1] == "West"
    assert gaz.nearby_text(0.01, 0.0, k=2).count("\n") == 2
    assert gaz.address(4.9, 0.1) == "Far"


def test_address_drops_repeated_and_empty_parts():
    gaz = Gazetteer.from_points(
        [139.69, 135.5],
        [35.69, 34.69],
        ["Tokyo", "Osaka"],
        admin1=["Tokyo", "Osaka"],
        admin2=["", None],
        country=["Japan", "Japan"],
    )
    assert gaz.address(139.7, 35.7) == "Tokyo, Japan"
    assert gaz.place(1).admin1 == "Osaka" and gaz.place(1).country == "Japan"
    assert gaz.nearest(135.0, 34.0).name == "Osaka"


def test_candidates_inside_region(gaz):
    france = box(-5, 42, 8, 51)
    lonlat, pop = gaz.candidates(france)
    assert len(lonlat) == len(pop) > 1000
    assert (lonlat[:, 0] >= -5).all() and (lonlat[:, 1] <= 51).all()
    assert pop.max() > 2_000_000  # Paris
    fiji = MultiPolygon([box(176, -20, 180, -15), box(-180, -20, -178, -15)])
    lonlat, _ = gaz.candidates(fiji)
    assert (lonlat[:, 0] > 0).any() and (lonlat[:, 0] < 0).any()
    everything, _ = gaz.candidates()
    assert len(everything) == len(gaz)


def test_works_without_network(monkeypatch, tmp_path):
    def no_network(*args, **kwargs):
        raise OSError("network used")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    copy = tmp_path / "g.npz"
    copy.write_bytes(DEFAULT_PATH.read_bytes())
    gaz = Gazetteer.load(str(copy))
    assert "France" in gaz.address(2.35, 48.85)
    assert gaz.nearby_text(2.35, 48.85)


def test_a_point_on_a_place_lists_ten_other_places(gaz):
    # Gazetteer-weighted samples sit exactly on places: no "0.0 km North: <itself>" line.
    i = int(np.flatnonzero(np.asarray(gaz.names) == "Nador")[0])
    lon, lat = float(gaz.lon[i]), float(gaz.lat[i])
    rows = gaz.nearby(lon, lat)
    assert len(rows) == 10
    assert all(km >= 0.05 for km, _, _ in rows)
    assert "Nador" not in [name for _, _, name in rows]
    assert gaz.address(lon, lat).startswith("Nador")
