"""The dock's Survey tab: topics, models, prompt, score, the ground truth of each topic, the
bias anchor and the exact prompt of the first point."""

import os

from qgis.core import Qgis, QgsFieldProxyModel, QgsMapLayerProxyModel, QgsProject
from qgis.gui import QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt import uic
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QHeaderView,
    QListWidgetItem,
    QTableWidgetItem,
    QTreeWidgetItem,
    QWidget,
)

from ..core.survey.prompts import PRESETS
from ..core.survey.topics import BUNDLED_TRUTH_FIELDS, TOPICS, get_topic, truth_field_matches
from ..i18n_util import tr
from ..processing.definitions import (
    PROMPT_PRESETS,
    SAMPLES_DEFAULT,
    SAMPLES_MAX,
    SAMPLES_MIN,
    SCORE_KINDS,
    topic_label,
)
from .area_tab import is_bundled
from .narrow import add_choices, stretch_first_column
from .notice import Notice, insert_after
from .settings import display_name, endpoints_changed, load_endpoints, truth_entry, truth_map
from .tab import DockTab
from .task import error_sentence, log
from .wheel import guard_widget

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "survey_tab.ui"))


def score_labels():
    """Score kinds (key, the dock's short label, Processing's label)."""
    short = {
        "auto": tr("Automatic"),
        "expected": tr("Expected value (logprobs)"),
        "greedy": tr("Greedy rating"),
        "sampled": tr("Sampled (k answers)"),
    }
    return tuple(
        (key, short[key], SCORE_KINDS.label(key))
        for key in ("auto", "expected", "greedy", "sampled")
    )


def preset_labels():
    """Prompt presets (key, the dock's short label, the preset's label)."""
    short = {
        "no_coordinates": tr("Without coordinates"),
        "no_nearby": tr("Without nearby places"),
        "no_address": tr("Without address"),
        "short_address": tr("Admin-1 and country only"),
    }
    return tuple(
        (key, short.get(key) or PROMPT_PRESETS.label(key), PROMPT_PRESETS.label(key))
        for key in PRESETS
    )


def kind_labels():
    return {
        "objective": tr("objective"),
        "sensitive": tr("sensitive"),
        "independent": tr("independent"),
        "custom": tr("custom"),
    }


def polygon_or_point_layers():
    """The layer filter "polygon or point layers". PyQt5 makes or'ed flags a plain int, which
    QGIS 3.34+ takes only through a deprecated overload: wrap it in the flags class
    (Qgis.LayerFilters from 3.34, QgsMapLayerProxyModel.Filters before; PyQt6 keeps the flag)."""
    value = QgsMapLayerProxyModel.Filter.PolygonLayer | QgsMapLayerProxyModel.Filter.PointLayer
    flags = getattr(Qgis, "LayerFilters", None) or getattr(QgsMapLayerProxyModel, "Filters", None)
    return flags(value) if flags is not None else value


class SurveyTab(QWidget, FORM, DockTab):
    """What to ask and whom: emits changed when topics or the prompt inputs change."""

    changed = pyqtSignal()

    def __init__(self, dock):
        super().__init__(dock)
        self.setupUi(self)
        self.dock = dock
        self._gazetteer = None
        # {topic: (layer id, field)} chosen by the user, kept while a topic is unticked.
        self.truth = {}
        self.confirmed = set()  # (topic, field) pairs confirmed although the names differ
        add_choices(self.scoreCombo, score_labels())
        self.drawsSpin.setRange(SAMPLES_MIN, SAMPLES_MAX)
        self.drawsSpin.setValue(SAMPLES_DEFAULT)
        self.scoreCombo.currentIndexChanged.connect(lambda *_: self._score_changed())
        self._score_changed()
        add_choices(self.presetCombo, preset_labels())
        for topic in TOPICS:
            self._add_topic_item(topic.name, topic.kind, topic.description, checked=False)
        header = self.topicsTree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        # Layer and field get room for "Countries (GeoBias)" and "infant_mortality" when the
        # dock is wide; narrow, they shrink before the topic gets under a dozen characters.
        self._truth_columns = stretch_first_column(self.truthTable, (112, 112))
        self.truthTable.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.truthTable.verticalHeader().hide()
        self.anchorLayerCombo.setFilters(QgsMapLayerProxyModel.Filter.PolygonLayer)
        # The empty choice is the default anchor: say so instead of showing a blank combo.
        self.anchorLayerCombo.setAllowEmptyLayer(True, tr("Countries' infant survival"))
        self.anchorLayerCombo.setLayer(None)
        self.anchorFieldCombo.setFilters(QgsFieldProxyModel.Filter.Numeric)
        self.anchorLayerCombo.layerChanged.connect(self._anchor_changed)
        self._anchor_changed(None)
        self.refresh_models()
        self.refresh_languages()
        self.languagesList.itemChanged.connect(lambda *_: self._languages_changed())
        self.languagesFolderButton.clicked.connect(self.open_languages_folder)
        self.previewLanguageCombo.currentIndexChanged.connect(
            lambda *_: self.update_prompt_preview()
        )
        # Why a custom topic was not added, under its field (kept until the next try).
        self.topicNotice = Notice(self)
        insert_after(self.customTopicEdit, self.topicNotice, self.layout())
        self.addTopicButton.clicked.connect(self.add_custom_topic)
        self.customTopicEdit.returnPressed.connect(self.add_custom_topic)
        self.topicsTree.itemChanged.connect(lambda *_: self._topics_changed())
        self.presetCombo.currentIndexChanged.connect(lambda *_: self.update_prompt_preview())
        self.configureButton.clicked.connect(self.configure_endpoints)
        endpoints_changed().connect(self.refresh_models)
        QgsProject.instance().layersAdded.connect(self._layers_added)

    # ------------------------------------------------------------------ topics
    def _add_topic_item(self, name, kind, description="", checked=True):
        # The topic in the interface language; the prompt asks for `name` (UserRole) as is.
        item = QTreeWidgetItem([topic_label(name), kind_labels().get(kind, kind)])
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(0, Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        item.setToolTip(0, tr(description) if description else "")
        item.setData(0, Qt.ItemDataRole.UserRole, name)
        self.topicsTree.addTopLevelItem(item)
        return item

    def _topic_items(self):
        tree = self.topicsTree
        return [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]

    def checked_topics(self):
        return [
            item.data(0, Qt.ItemDataRole.UserRole)
            for item in self._topic_items()
            if item.checkState(0) == Qt.CheckState.Checked
        ]

    def set_checked_topics(self, topics):
        known = {item.data(0, Qt.ItemDataRole.UserRole) for item in self._topic_items()}
        self.topicsTree.blockSignals(True)
        for name in topics:
            if name not in known:
                t = get_topic(name)
                self._add_topic_item(t.name, t.kind, t.description)
        for item in self._topic_items():
            on = item.data(0, Qt.ItemDataRole.UserRole) in topics
            item.setCheckState(0, Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        self.topicsTree.blockSignals(False)
        self._topics_changed()

    def add_custom_topic(self):
        """Add the typed topic, ticked; a topic with ";" is refused (Processing's TOPICS
        separates topics with it, so it would become two), said under the field."""
        text = " ".join(self.customTopicEdit.text().split())
        self.topicNotice.clear_text()
        if not text:
            return
        if ";" in text:
            self.topicNotice.show_text(
                tr("A topic cannot contain ';': it separates topics, so {t} would be asked as "
                   "two. Write it without ';' or add each topic on its own.").format(t=text)
            )  # fmt: skip
            return
        if text in [item.data(0, Qt.ItemDataRole.UserRole) for item in self._topic_items()]:
            self.dock.push(
                tr("Topic {t} is already in the list.").format(t=text), Qgis.MessageLevel.Info
            )
            return
        t = get_topic(text)
        self._add_topic_item(t.name, t.kind, t.description)
        self.customTopicEdit.clear()

    def _topics_changed(self):
        self.propose_bundled_truth()
        self.refresh_truth_table()
        self.update_prompt_preview()
        self.changed.emit()

    def _score_changed(self):
        """The Draws box counts only for the sampled score."""
        sampled = self.scoreCombo.currentData() == "sampled"
        self.drawsSpin.setEnabled(sampled)
        self.drawsLabel.setEnabled(sampled)

    # ------------------------------------------------------------------ models
    def refresh_models(self, checked=None):
        """Fill the models list from the configured endpoints (QGIS Options > GeoBias)."""
        if checked is None or isinstance(checked, bool):
            checked = set(self.checked_models())
        self.modelsList.clear()
        for e in load_endpoints():
            label = display_name(e) if e.is_embedded else f"{e.name} — {e.model}"
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, e.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(
                Qt.CheckState.Checked if e.name in checked else Qt.CheckState.Unchecked
            )
            self.modelsList.addItem(item)

    def checked_models(self):
        lst = self.modelsList
        return [
            lst.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(lst.count())
            if lst.item(i).checkState() == Qt.CheckState.Checked
        ]

    def configure_endpoints(self):
        iface = self.dock.iface
        iface.showOptionsDialog(iface.mainWindow(), currentPage="GeoBias")
        self.refresh_models()

    # ------------------------------------------------------------------ prompt languages
    def refresh_languages(self, checked=None):
        """Fill the languages list from the language files (bundled, then the user's); a
        broken user file is named in the message bar and left out."""
        from ..core.survey.languages import get_language
        from ..processing.language_choices import language_choices

        if checked is None:
            checked = set(self.checked_languages()) or {"en"}
        errors = []
        choices = language_choices(errors)
        for message in errors:
            self.dock.push(
                tr("A language file was left out: {error}").format(error=message),
                Qgis.MessageLevel.Warning,
            )
        self.languagesList.blockSignals(True)
        self.languagesList.clear()
        for code, label in zip(choices.keys, choices.source_labels):
            item = QListWidgetItem(f"{label} — {code}")
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(
                Qt.CheckState.Checked if code in checked else Qt.CheckState.Unchecked
            )
            checked_by = get_language(code).translation.get("checked", "")
            item.setToolTip(str(checked_by))
            self.languagesList.addItem(item)
        self.languagesList.blockSignals(False)
        self._languages_changed(emit=False)

    def checked_languages(self):
        lst = self.languagesList
        return [
            lst.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(lst.count())
            if lst.item(i).checkState() == Qt.CheckState.Checked
        ]

    def _languages_changed(self, emit=True):
        """The preview offers the checked languages (shown when there are several)."""
        combo = self.previewLanguageCombo
        current = combo.currentData()
        codes = self.checked_languages() or ["en"]
        combo.blockSignals(True)
        combo.clear()
        lst = self.languagesList
        labels = {lst.item(i).data(Qt.ItemDataRole.UserRole): lst.item(i).text()
                  for i in range(lst.count())}  # fmt: skip
        for code in codes:
            combo.addItem(tr("Preview in {language}").format(language=labels.get(code, code)),
                          code)  # fmt: skip
        combo.setCurrentIndex(max(0, combo.findData(current)))
        combo.blockSignals(False)
        combo.setVisible(len(codes) > 1)
        self.update_prompt_preview()
        if emit:
            self.changed.emit()

    def open_languages_folder(self):
        """The user's languages folder in the file manager (files there are read at load)."""
        from qgis.PyQt.QtCore import QUrl
        from qgis.PyQt.QtGui import QDesktopServices

        from ..processing.language_choices import user_folder

        QDesktopServices.openUrl(QUrl.fromLocalFile(user_folder()))

    # ------------------------------------------------------------------ ground truth
    def propose_bundled_truth(self):
        """For ticked paper topics without a ground truth, the bundled countries' field."""
        countries = next(
            (
                lyr
                for lyr in QgsProject.instance().mapLayers().values()
                if is_bundled(lyr, "countries")
            ),
            None,
        )
        if countries is None:
            return
        for topic in self.checked_topics():
            field = BUNDLED_TRUTH_FIELDS.get(topic)
            if field and topic not in self.truth:
                self.truth[topic] = (countries.id(), field)

    def _layers_added(self, layers):
        if any(is_bundled(lyr, "countries") for lyr in layers):
            self.propose_bundled_truth()
            self.refresh_truth_table()

    def refresh_truth_table(self):
        """One row per ticked topic: the layer and field of its ground truth (or none)."""
        table = self.truthTable
        topics = self.checked_topics()
        table.setRowCount(0)  # the old rows' combos go with them
        table.setRowCount(len(topics))
        project = QgsProject.instance()
        for row, topic in enumerate(topics):
            item = QTableWidgetItem(topic_label(topic))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            item.setToolTip(topic_label(topic))
            table.setItem(row, 0, item)
            layer_combo = QgsMapLayerComboBox()
            layer_combo.setFilters(polygon_or_point_layers())
            layer_combo.setAllowEmptyLayer(True, tr("none"))
            field_combo = QgsFieldComboBox()
            field_combo.setFilters(QgsFieldProxyModel.Filter.Numeric)
            layer_id, field = self.truth.get(topic, ("", ""))
            layer = project.mapLayer(layer_id) if layer_id else None
            layer_combo.setLayer(layer)
            field_combo.setLayer(layer)
            field_combo.setField(field if layer is not None else "")
            field_combo.setEnabled(layer is not None)
            layer_combo.layerChanged.connect(
                lambda lyr, t=topic, f=field_combo: self._truth_layer_changed(t, lyr, f)
            )
            # "none" picked by the user is a choice to keep; a combo emptied by itself is not.
            layer_combo.activated.connect(
                lambda _i, t=topic, c=layer_combo: self._truth_none_chosen(t, c)
            )
            field_combo.fieldChanged.connect(
                lambda name, t=topic, c=layer_combo: self._truth_field_changed(t, c, name)
            )
            for combo in (layer_combo, field_combo):
                combo.setSizeAdjustPolicy(
                    QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
                )
                combo.setMinimumContentsLength(6)
                guard_widget(combo)  # the wheel scrolls the tab, never changes the truth
            table.setCellWidget(row, 1, layer_combo)
            table.setCellWidget(row, 2, field_combo)
        rows = max(1, len(topics))
        row_height = table.verticalHeader().defaultSectionSize()
        height = table.horizontalHeader().height() + rows * row_height
        table.setMaximumHeight(height + 2 * table.frameWidth() + 4)

    def _truth_layer_changed(self, topic, layer, field_combo):
        field_combo.setLayer(layer)
        field_combo.setEnabled(layer is not None)
        if layer is None:
            if self.truth.get(topic, ("", ""))[0]:
                self.truth.pop(topic, None)
            return
        names = layer.fields().names()
        field = BUNDLED_TRUTH_FIELDS.get(topic) if is_bundled(layer, "countries") else None
        if field not in names:
            # Only a field whose name says it measures the topic is proposed by itself.
            field = next((n for n in names if truth_field_matches(topic, n)), "")
        field_combo.setField(field)
        self._truth_field_changed(topic, None, field, layer)

    def _truth_none_chosen(self, topic, layer_combo):
        if layer_combo.currentLayer() is None:
            self.truth[topic] = ("", "")  # chosen: no ground truth (nothing proposed again)

    def _truth_field_changed(self, topic, layer_combo, field, layer=None):
        layer = layer if layer is not None else layer_combo.currentLayer()
        if layer is None or not field:
            self.truth.pop(topic, None)
        else:
            self.truth[topic] = (layer.id(), field)

    def truth_for_run(self):
        """{topic: (layer id, field)} for the ticked topics whose truth layer is still here."""
        project = QgsProject.instance()
        topics = set(self.checked_topics())
        return {
            t: (lid, f)
            for t, (lid, f) in self.truth.items()
            if t in topics and f and project.mapLayer(lid) is not None
        }

    def mismatches(self):
        """(topic, field) pairs of the run whose field name does not name the topic and that the
        user has not confirmed yet."""
        return [
            (t, f)
            for t, (_lid, f) in self.truth_for_run().items()
            if not truth_field_matches(t, f) and (t, f) not in self.confirmed
        ]

    # ------------------------------------------------------------------ anchor
    def _anchor_changed(self, layer):
        self.anchorFieldCombo.setLayer(layer)
        self.anchorFieldCombo.setEnabled(layer is not None)
        self.anchorFieldCombo.setToolTip(
            "" if layer is not None else tr("infant_survival of the bundled countries layer")
        )

    # ------------------------------------------------------------------ prompt preview
    def gazetteer(self):
        if self._gazetteer is None:
            from ..core.geo.gazetteer import Gazetteer

            self._gazetteer = Gazetteer.load()
        return self._gazetteer

    def update_prompt_preview(self):
        """The exact prompt of the first point and topic (a point of the area before a preview),
        in the prompt language chosen for the preview."""
        topics = self.checked_topics()
        if not topics:
            self.promptPreview.setPlainText(tr("Tick at least one topic."))
            return
        first = self.dock.area.first_point() if hasattr(self.dock, "area") else None
        if first is None:
            self.promptPreview.setPlainText("")
            return
        lon, lat, previewed = first
        where = (
            tr("first sampled point")
            if previewed
            else tr("a point in the area; preview the points to see the first one")
        )
        try:
            from ..core.survey.languages import get_language

            template = PRESETS[self.presetCombo.currentData() or "geollm"]
            code = self.previewLanguageCombo.currentData() or "en"
            language = get_language(code)
            prompt = language.build_prompts([lon], [lat], topics[0], self.gazetteer(), template)[0]
        except Exception as e:
            log(f"prompt preview failed: {e!r}", Qgis.MessageLevel.Warning)
            prompt = tr("(prompt preview unavailable: {e})").format(e=error_sentence(e))
        self.promptLabel.setText(tr("Prompt for {where}").format(where=where))
        self.promptPreview.setPlainText(prompt)

    # ------------------------------------------------------------------ settings
    def fill(self, s):
        anchor = self.anchorLayerCombo.currentLayer()
        s.topics = self.checked_topics()
        s.languages = self.checked_languages() or ["en"]
        s.endpoints = self.checked_models()
        s.preset = self.presetCombo.currentData()
        s.score = self.scoreCombo.currentData()
        s.samples = self.drawsSpin.value()
        s.truth = [truth_entry(t, lid, f) for t, (lid, f) in self.truth.items()]
        s.truth_confirmed = [f"{t}\t{f}" for t, f in sorted(self.confirmed)]
        s.anchor_layer = anchor.id() if anchor else ""
        s.anchor_field = self.anchorFieldCombo.currentField() if anchor else ""

    def apply(self, s):
        project = QgsProject.instance()
        self.truth = truth_map(s.truth)
        self.confirmed = {tuple(e.split("\t", 1)) for e in s.truth_confirmed if "\t" in str(e)}
        self.refresh_models(set(s.endpoints))
        self.refresh_languages(set(s.languages or ["en"]))
        self.presetCombo.setCurrentIndex(max(0, self.presetCombo.findData(s.preset)))
        self.scoreCombo.setCurrentIndex(max(0, self.scoreCombo.findData(s.score)))
        self.drawsSpin.setValue(s.samples)  # clamped to the range Processing takes
        self._score_changed()
        anchor = project.mapLayer(s.anchor_layer) if s.anchor_layer else None
        self.anchorLayerCombo.setLayer(anchor)
        self._anchor_changed(anchor)
        self.anchorFieldCombo.setField(s.anchor_field if anchor else "")
        self.set_checked_topics(s.topics)

    def close_tab(self):
        for signal, slot in (
            (endpoints_changed(), self.refresh_models),
            (QgsProject.instance().layersAdded, self._layers_added),
        ):
            try:
                signal.disconnect(slot)
            except TypeError:
                pass
