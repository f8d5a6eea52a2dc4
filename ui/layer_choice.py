"""Which layer to use when several hold the same model × topic (two surveys of one area, a
re-run kept beside the first): the Results and Compare tabs ask, one row per such pair, instead
of failing or guessing."""

import os

from qgis.core import QgsFeatureRequest, QgsProject
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QSizePolicy

from ..i18n_util import tr

__all__ = ["LayerChoice", "layer_groups"]

GROUP_FIELDS = ("model", "topic", "score_kind")


def _text(value):
    return "" if value is None or str(value) == "NULL" else str(value)


def layer_groups(layer):
    """The (model, topic, score kind) groups a rated layer holds (one for a dock run's layer).

    The distinct values come from the provider (one query each); the features are read only
    when a field has several values.
    """
    names = layer.fields().names()
    present = [n for n in GROUP_FIELDS if n in names]
    values = {n: layer.uniqueValues(layer.fields().lookupField(n)) for n in present}
    if all(len(v) <= 1 for v in values.values()):
        first = {n: _text(next(iter(v), None)) for n, v in values.items()}
        return {tuple(first.get(n, "") for n in GROUP_FIELDS)}
    request = QgsFeatureRequest().setFlags(QgsFeatureRequest.Flag.NoGeometry)
    request.setSubsetOfAttributes(present, layer.fields())
    return {
        tuple(_text(f[n]) if n in present else "" for n in GROUP_FIELDS)
        for f in layer.getFeatures(request)
    }


def layer_language(layer):
    """The prompt language a rated layer holds ("" for a layer without one, English before
    languages came); several are joined by ", "."""
    index = layer.fields().lookupField("language")
    if index < 0:
        return ""
    return ", ".join(sorted(_text(v) for v in layer.uniqueValues(index) if _text(v)))


def has_truth(layer):
    """Whether a rated layer holds ground truth values (not just an empty truth field)."""
    index = layer.fields().lookupField("truth")
    if index < 0:
        return False
    value = layer.maximumValue(index)
    return value is not None and str(value) != "NULL"


def _places(layer):
    """Ever more precise words for where a layer is: its group in the Layers panel, its file,
    its folder and file, its whole source."""
    node = QgsProject.instance().layerTreeRoot().findLayer(layer.id())
    parent = node.parent() if node is not None else None
    group = parent.name() if parent is not None and parent.parent() is not None else ""
    source = layer.source()
    path = source.split("|")[0]
    if os.path.exists(path):
        folder = os.path.basename(os.path.dirname(path))
        yield from (group, os.path.basename(path), os.path.join(folder, os.path.basename(path)))
    else:
        yield group
    yield source


def describe(layers):
    """Labels telling `layers` apart: each layer's name with the first words of _places that
    differ between them, and whether it holds ground truth (what a comparison needs)."""
    places = [list(_places(layer)) for layer in layers]
    depth = 0
    while depth < len(places[0]) - 1:
        words = [p[min(depth, len(p) - 1)] for p in places]
        if all(words) and len(set(words)) == len(words):
            break
        depth += 1
    labels = []
    for layer, place in zip(layers, places):
        where = place[min(depth, len(place) - 1)]
        label = tr("{name} ({where})").format(name=layer.name(), where=where) if where else (
            layer.name())  # fmt: skip
        if has_truth(layer):
            label = tr("{label}, with ground truth").format(label=label)
        labels.append(label)
    return labels


class LayerChoice(QGroupBox):
    """One combo box per model × topic held by several layers; hidden when there is none.

    `set_layers(layers)` finds the pairs, `chosen()` returns the layers to use: every layer but
    those not chosen for a pair. `changed` is emitted when the user picks another layer.
    """

    changed = pyqtSignal()

    def __init__(self, parent=None):
        super().__init__(tr("Several layers hold the same model and topic: use"), parent)
        self.setObjectName("layerChoice")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.form = QFormLayout(self)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.layers = []
        self.combos = {}  # (model, topic, kind) -> QComboBox of the layers holding it
        self.hide()

    def set_layers(self, layers):
        """Offer a choice for every model × topic held by more than one of `layers`."""
        while self.form.rowCount():
            self.form.removeRow(0)
        self.layers = list(layers)
        holders = {}
        for layer in self.layers:
            # Layers in different prompt languages are not alternatives: the language joins
            # the key of layers that have one ((model, topic, kind, language)).
            language = layer_language(layer)
            for key in sorted(layer_groups(layer)):
                holders.setdefault(key + ((language,) if language else ()), []).append(layer)
        self.combos = {}
        kinds = {}
        for model, _topic, kind, *_language in holders:
            kinds.setdefault(model, set()).add(kind)
        for key, held in holders.items():
            if len(held) < 2:
                continue
            model, topic, kind, *language = key
            title = tr("{model} · {topic}").format(model=model, topic=topic)
            if language:
                title = f"{title} [{language[0]}]"
            if len(kinds[model]) > 1 and kind:
                title = tr("{title} ({kind})").format(title=title, kind=kind)
            combo = QComboBox(self)
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(12)
            for layer, label in zip(held, describe(held)):
                combo.addItem(label, layer.id())
                combo.setItemData(combo.count() - 1, layer.source(), Qt.ItemDataRole.ToolTipRole)
            # The layer with a ground truth first: its rank errors are what one compares.
            with_truth = [i for i, lyr in enumerate(held) if has_truth(lyr)]
            combo.setCurrentIndex(with_truth[0] if with_truth else 0)
            combo.currentIndexChanged.connect(lambda *_: self.changed.emit())
            label = QLabel(title, self)
            label.setWordWrap(True)
            label.setToolTip(title)
            self.form.addRow(label, combo)
            self.combos[key] = combo
        self.setVisible(bool(self.combos))
        return self.combos

    def chosen(self):
        """The layers to use: for each offered pair, only the chosen layer."""
        dropped = set()
        for combo in self.combos.values():
            keep = combo.currentData()
            ids = (combo.itemData(i) for i in range(combo.count()))
            dropped.update(i for i in ids if i != keep)
        kept = {combo.currentData() for combo in self.combos.values()}
        # A layer chosen for one pair stays even if another pair's choice dropped it: the
        # comparison then names the conflict, in the tab.
        return [lyr for lyr in self.layers if lyr.id() not in dropped or lyr.id() in kept]

    def choose(self, key, layer):
        """Pick `layer` for the pair `key` (model, topic, score kind), as the user would."""
        combo = self.combos[key]
        combo.setCurrentIndex(combo.findData(layer.id()))
