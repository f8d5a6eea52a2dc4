"""Issue 15: geobias:report on GPT-3.5's infant mortality ratings with the countries' truth and
their hot spots; the PDF is rendered to PNG by poppler and checked for its parts."""

import os
import re
import subprocess
import unicodedata

import pytest
from qgis.core import QgsProcessingException, QgsProject
from qgis.PyQt.QtGui import QImage

from geobias.paths import DATA, REFERENCE
from geobias.test.qgis.conftest import register_providers

COUNTRIES = os.path.join(DATA, "world_countries.gpkg") + "|layername=countries"
IMR = os.path.join(REFERENCE, "gpt_3_5_turbo_0613_Infant_Mortality_Rate_world_prompts.csv")


def run(alg, params):
    import processing

    return processing.run(alg, params)


def pdf_text(path):
    """The PDF's text, words joined by single spaces (ligatures such as 'ﬁ' unfolded)."""
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    return " ".join(unicodedata.normalize("NFKC", out).split())


def pdf_pages(path):
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    return int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1))


def colours(png, step=2):
    """Counts of strongly coloured pixels (red, blue) in an image file."""
    image = QImage(str(png))
    assert not image.isNull(), png
    red = blue = 0
    for x in range(0, image.width(), step):
        for y in range(0, image.height(), step):
            c = image.pixelColor(x, y)
            if c.red() > 150 and c.green() < 110 and c.blue() < 110:
                red += 1
            elif c.blue() > 150 and c.red() < 110:
                blue += 1
    return red, blue


def tints(png, step=2):
    """Counts of reddish and bluish pixels, pale ones included."""
    image = QImage(str(png))
    assert not image.isNull(), png
    red = blue = 0
    for x in range(0, image.width(), step):
        for y in range(0, image.height(), step):
            c = image.pixelColor(x, y)
            red += c.red() > c.blue() + 40
            blue += c.blue() > c.red() + 40
    return red, blue


@pytest.fixture(scope="module")
def world(qgis_app, qgis_processing, tmp_path_factory):
    register_providers()
    folder = tmp_path_factory.mktemp("report")
    params = {"INPUT": IMR, "MODEL": "gpt-3.5-turbo-0613", "TOPIC": "Infant Mortality Rate",
              "OUTPUT": str(folder / "imr.gpkg")}  # fmt: skip
    rated = run("geobias:importratings", params)["OUTPUT"]
    params = {"INPUT": rated, "POLYGONS": COUNTRIES, "POLYGON_FIELD": "infant_mortality",
              "OUTPUT": str(folder / "truth.gpkg")}  # fmt: skip
    truth = run("geobias:samplegroundtruth", params)["OUTPUT"]
    params = {"INPUT": truth, "POLYGONS": COUNTRIES, "OUTPUT": str(folder / "units.gpkg")}
    units = run("geobias:aggregatetopolygons", params)["OUTPUT"]
    params = {"INPUT": units, "PERMUTATIONS": 199, "OUTPUT": str(folder / "hot.gpkg")}
    hot = run("geobias:hotspots", params)["OUTPUT"]
    return {"folder": folder, "truth": truth, "hot": hot}


def test_report_of_world_ratings_with_hot_spots(world):
    pdf = world["folder"] / "report.pdf"
    res = run("geobias:report", {"INPUT": world["truth"], "HOTSPOTS": world["hot"],
                                 "N_BOOT": 200, "DPI": 60, "OUTPUT": str(pdf)})  # fmt: skip
    # Page 1: title, what was measured, rank map; page 2: metrics and plots; page 3: rank-error
    # map; page 4: hot spots, the disclosure and attributions.
    assert res["OUTPUT"] == str(pdf) and res["PAGES"] == 4 == pdf_pages(pdf)
    text = pdf_text(pdf)
    # Imported ratings spread over the world: no study area is recorded, the points make it.
    parts = ("Infant Mortality Rate as rated by gpt-3.5-turbo", "gpt-3.5-turbo-0613",
             "Study area the world; 1999 points", "Ground truth Countries.infant_mortality",
             "Equal Earth", "Mean absolute deviation (MAD)",
             "Global Moran's I of the rank errors", "Spearman's rho with truth", "Bias hot spots",
             "GeoNames", "CC BY 4.0", "Data sent", "no GeoBias run record",
             "Manvi et al.")  # fmt: skip
    for part in parts:
        assert part in text, part
    # The metrics table holds the numbers of 'Bias metrics' on the same layer.
    metrics = run("geobias:biasmetrics", {"INPUT": [world["truth"]], "N_BOOT": 200,
                                          "OUTPUT": "memory:"})["OUTPUT"]  # fmt: skip
    (row,) = list(metrics.getFeatures())
    assert f"{row['mad']:.3f}" in text and f"{row['moran_i']:.3f}" in text
    lo, hi = row["rho_truth_lo"], row["rho_truth_hi"]
    assert f"{row['rho_truth']:+.3f} [{lo:+.3f}, {hi:+.3f}]" in text
    # The GeoBS scores of 'Geo-bias scores (GeoBS)' on the same layer, with its defaults.
    scores = run("geobias:geobiasscores", {"INPUT": [world["truth"]], "OUTPUT": "memory:",
                                           "LOCAL": "memory:"})["OUTPUT"]  # fmt: skip
    (g,) = list(scores.getFeatures())
    flat = " ".join(text.split())
    assert f"SSI {g['ssi']:.2f} nats ({g['ssi_n']} centres)" in flat
    assert f"direction sector {g['sri_direction']:.3f}" in flat
    # The plots are a picture in the PDF.
    images = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True,
                            check=True).stdout.splitlines()[2:]  # fmt: skip
    assert len(images) >= 1
    # PNG pages from QGIS, and poppler's rendering of the PDF: the maps are in colour.
    pngs = res["PNG_FILES"].split(";")
    assert len(pngs) == 4 and all(os.path.exists(p) for p in pngs)
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(world["folder"] / "page")],
                   check=True)  # fmt: skip
    pages = sorted(world["folder"].glob("page-*.png"))
    assert len(pages) == 4
    red1, _ = colours(pages[0])  # ranks: red where rated highest
    red2, blue2 = colours(pages[1])  # the rank-error histogram: red and blue bars
    red3, blue3 = colours(pages[3])  # LISA: HH red, LL blue
    assert red1 > 100 and red2 > 50 and blue2 > 50 and red3 > 50 and blue3 > 50
    pink, light_blue = tints(pages[2])  # rank errors, mostly moderate: pale red and blue
    assert pink > 50 and light_blue > 50
    # The layout is kept in the project, its maps in Equal Earth.
    layout = QgsProject.instance().layoutManager().layoutByName(res["LAYOUT"])
    assert layout is not None and layout.pageCollection().pageCount() == 4
    maps = [i for i in layout.items() if i.__class__.__name__ == "QgsLayoutItemMap"]
    assert len(maps) == 3 and {m.crs().authid() for m in maps} == {"EPSG:8857"}
    scalebars = [i for i in layout.items() if i.__class__.__name__ == "QgsLayoutItemScaleBar"]
    assert scalebars == []  # no scale holds across a world map
    assert all(QgsProject.instance().mapLayer(lyr.id()) for m in maps for lyr in m.layers())


def test_report_of_a_region_has_a_scale_bar_and_no_truth(processing_ready, tmp_path):
    bay = os.path.join(
        REFERENCE, "gpt_3_5_turbo_0613_Average_Intelligence_of_Residents_bay_area_prompts.csv"
    )
    params = {"INPUT": bay, "MODEL": "gpt-3.5-turbo-0613",
              "TOPIC": "Average Intelligence of Residents",
              "OUTPUT": str(tmp_path / "b.gpkg")}  # fmt: skip
    rated = run("geobias:importratings", params)["OUTPUT"]
    pdf = tmp_path / "bay.pdf"
    res = run("geobias:report", {"INPUT": rated, "TITLE": "Bay Area", "N_BOOT": 0, "DPI": 50,
                                 "OUTPUT": str(pdf)})  # fmt: skip
    assert res["PAGES"] == 2 == pdf_pages(pdf)
    text = pdf_text(pdf)
    assert "Bay Area" in text and "No ground truth" in text and "Lambert" in text
    layout = QgsProject.instance().layoutManager().layoutByName("Bay Area")
    bars = [i for i in layout.items() if i.__class__.__name__ == "QgsLayoutItemScaleBar"]
    assert len(bars) == 1 and "km" in bars[0].unitLabel()
    (m,) = [i for i in layout.items() if i.__class__.__name__ == "QgsLayoutItemMap"]
    assert "laea" in m.crs().toProj()
    assert 5 < bars[0].unitsPerSegment() * bars[0].numberOfSegments() < 200  # km, Bay Area


def test_report_refuses_a_layer_of_several_models(world, tmp_path):
    merged = run("native:mergevectorlayers", {"LAYERS": [world["truth"], world["truth"]],
                                              "OUTPUT": "memory:"})["OUTPUT"]  # fmt: skip
    merged.startEditing()
    idx = merged.fields().lookupField("model")
    for f in list(merged.getFeatures())[:3]:
        merged.changeAttributeValue(f.id(), idx, "another-model")
    merged.commitChanges()
    with pytest.raises(QgsProcessingException, match="one model, topic"):
        run("geobias:report", {"INPUT": merged, "OUTPUT": str(tmp_path / "x.pdf")})
    assert not (tmp_path / "x.pdf").exists()
