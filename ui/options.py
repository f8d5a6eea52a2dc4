"""GeoBias page in QGIS Options: model endpoints (presets, URL, models, key, prices), the
Python that runs the embedded model, and the output folder of projects not saved yet."""

import os
from dataclasses import replace

from qgis.core import Qgis, QgsApplication, QgsProcessingException, QgsSettings, QgsTask
from qgis.gui import QgsAuthConfigSelect, QgsOptionsPageWidget
from qgis.PyQt import uic
from qgis.PyQt.QtWidgets import QFileDialog

from ..core.engine.chat import (
    PROVIDERS,
    ChatClient,
    EndpointError,
    RequestError,
    TransientError,
)
from ..core.runtime import models
from ..core.wording import strip_reprs
from ..host import PYTHON_SETTING, embedded_python, model_install_line
from ..i18n_util import message_text, tr, translate
from ..processing.definitions import CONSTRAINTS
from ..processing.definitions import PROVIDERS as PROVIDER_NAMES
from ..processing.network import use_qgis_network
from .outputs import OUTPUT_FOLDER_SETTING, default_output_folder, output_folder, set_output_folder
from .settings import (
    EndpointConfig,
    display_name,
    load_endpoints,
    save_endpoints,
    store_api_key,
)
from .task import error_sentence, log
from .wheel import ignore_wheel_unless_focused

FORM, _ = uic.loadUiType(os.path.join(os.path.dirname(__file__), "options.ui"))


def fetch_models(endpoint):
    """Model ids from GET /v1/models (runs in a background task; raises EndpointError)."""
    client = ChatClient(use_qgis_network(endpoint))
    try:
        return client.list_models()
    finally:
        client.close()


def check_endpoint(endpoint, rate=True):
    """(models offered, RatingCheck or None): the model list, then, when the endpoint offers
    the model (or lists none), one real rating prompt as a survey sends it (runs in a
    background task; raises EndpointError or RequestError)."""
    models_offered = fetch_models(endpoint)
    if not rate or not endpoint.model or (models_offered and endpoint.model not in models_offered):
        return models_offered, None
    from ..core.geo.gazetteer import Gazetteer
    from ..core.survey.run import check_rating

    return models_offered, check_rating(use_qgis_network(endpoint), Gazetteer.load())


def probe_endpoint(endpoint, prompt):
    """What the endpoint can do (core/engine/capabilities.py probe: log-probabilities and
    their alternatives, n=2, a seed, system_fingerprint), in one sentence; "" when the probe
    itself fails (the rating check above has said why). Runs in the background task."""
    from ..core.engine.capabilities import probe
    from ..processing.rating import capabilities_sentence

    try:
        return capabilities_sentence(probe(use_qgis_network(endpoint), prompt))
    except (EndpointError, RequestError, TransientError) as err:
        log(f"capability probe failed: {err!r}", Qgis.MessageLevel.Warning)
        return ""


def rating_sentence(check, endpoint):
    """What the connection test's rating prompt showed: a parsed rating, or why not."""
    from ..core.engine.chat import family_constraint

    text = " ".join((check.text or "").split())
    quote = text if len(text) <= 120 else text[:119] + "…"
    if check.rating.answered:
        return tr("A rating prompt was answered “{quote}”: rating {rating:.1f}.").format(
            quote=quote, rating=check.rating.rating
        )
    if check.rating.refusal:
        return tr("A rating prompt was declined: “{quote}”.").format(quote=quote)
    if endpoint.constraint:
        advice = tr("Even with the answer constraint; try a larger model.")
    else:
        advice = tr("Choose the answer constraint {constraint} or a larger model.").format(
            constraint=CONSTRAINTS.label(family_constraint(endpoint.provider))
        )
    return tr("A rating prompt was answered, but the answer holds no rating: “{quote}”. "
              "{advice}").format(quote=quote or tr("(empty)"), advice=advice)  # fmt: skip


def embedded_note(model_name):
    """What the Options page says about a built-in model: local, free, and its licence."""
    text = tr("Built-in local model: runs on this computer, needs no key and costs nothing.")
    m = models.find_model(model_name)
    if m is None:
        return text
    licence = tr("{label}, {parameters} parameters; licence: {licence} ({url}).").format(
        label=m.label, parameters=m.parameters, licence=m.licence, url=m.licence_url
    )
    return f"{text}\n{licence}"


class GeoBiasOptionsPage(QgsOptionsPageWidget, FORM):
    """Edit the endpoint list; keys go to the auth database on apply, never to QgsSettings."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setupUi(self)
        self.authSelect = QgsAuthConfigSelect(self)
        self.authLayout.addWidget(self.authSelect)
        self.endpoints = load_endpoints()
        self.pending_keys = {}  # endpoint name -> key typed on this page, until apply()
        self.current = -1
        self.task = None
        for key, label in zip(PROVIDER_NAMES.keys, PROVIDER_NAMES.labels()):
            self.providerCombo.addItem(label, key)
        for key, label in zip(CONSTRAINTS.keys, CONSTRAINTS.labels()):
            self.constraintCombo.addItem(label, key)
        self.endpointList.addItems([display_name(e) for e in self.endpoints])
        self.endpointList.currentRowChanged.connect(self.select)
        self.providerCombo.activated.connect(self.provider_changed)
        self.addButton.clicked.connect(self.add)
        self.removeButton.clicked.connect(self.remove)
        self.fetchButton.clicked.connect(lambda: self.check(fetch_only=True))
        self.testButton.clicked.connect(lambda: self.check(fetch_only=False))
        self.endpointList.setCurrentRow(0)
        self.pythonEdit.setText(embedded_python() or "")
        self.pythonCheckButton.clicked.connect(self.check_python)
        self.python_task = None
        from .local_model import LocalModelWidget

        self.localModel = LocalModelWidget(self)
        self.localModelLayout.addWidget(self.localModel)
        self.diagnosticsButton.clicked.connect(self.copy_diagnostics)
        self.outputFolderEdit.setPlaceholderText(default_output_folder())
        if QgsSettings().value(OUTPUT_FOLDER_SETTING, "", type=str):
            self.outputFolderEdit.setText(output_folder())
        self.outputFolderButton.clicked.connect(self.choose_output_folder)

        ignore_wheel_unless_focused(self)

    def copy_diagnostics(self):
        """The diagnostics report on the clipboard and in a file; say where."""
        from .diagnostics import copy_diagnostics

        try:
            _text, path = copy_diagnostics()
        except Exception as e:  # the report of a broken install must not break the page
            log(f"diagnostics failed: {e!r}", Qgis.MessageLevel.Warning)
            self.diagnosticsLabel.setText(
                tr("Failed: {msg}").format(msg=error_sentence(e, limit=300))
            )
            return None
        self.diagnosticsLabel.setText(
            tr("Copied to the clipboard and saved in {path}.").format(path=path)
        )
        return path

    # --- form <-> endpoint -------------------------------------------------------------------
    def form_endpoint(self):
        """The endpoint as the form shows it."""
        return EndpointConfig(
            name=self.nameEdit.text().strip() or tr("Endpoint"),
            provider=self.providerCombo.currentData() or "custom",
            base_url=self.baseUrlEdit.text().strip(),
            model=self.modelCombo.currentText().strip(),
            authcfg=self.authSelect.configId(),
            price_in=self.priceInSpin.value(),
            price_out=self.priceOutSpin.value(),
            concurrency=self.concurrencySpin.value(),
            rpm=self.rpmSpin.value(),
            tpm=self.tpmSpin.value(),
            patience=self.patienceSpin.value(),
            reasoning=self.reasoningCheck.isChecked(),
            constraint=self.constraintCombo.currentData() or CONSTRAINTS.default,
        )

    def store_form(self):
        """Copy the form into the endpoint being edited (the embedded one is read-only)."""
        if not 0 <= self.current < len(self.endpoints):
            return
        old = self.endpoints[self.current]
        if old.is_embedded:
            return
        new = self.form_endpoint()
        names = {e.name for i, e in enumerate(self.endpoints) if i != self.current}
        if new.name in names:
            new = replace(new, name=old.name)
        key = self.apiKeyEdit.text()
        if key:
            self.pending_keys[new.name] = key
        if new.name != old.name and old.name in self.pending_keys:
            self.pending_keys[new.name] = self.pending_keys.pop(old.name)
        self.endpoints[self.current] = new
        self.endpointList.item(self.current).setText(display_name(new))

    def select(self, row):
        self.store_form()
        self.current = row
        if not 0 <= row < len(self.endpoints):
            return
        e = self.endpoints[row]
        self.nameEdit.setText(e.name)
        i = self.providerCombo.findData(e.provider)
        self.providerCombo.setCurrentIndex(i if i >= 0 else self.providerCombo.count() - 1)
        self.baseUrlEdit.setText(e.base_url)
        self.modelCombo.clear()
        self.modelCombo.setEditText(e.model)
        self.authSelect.setConfigId(e.authcfg)
        self.apiKeyEdit.clear()
        self.apiKeyEdit.setPlaceholderText(
            tr("A key is stored for this endpoint; paste a new one to replace it")
            if e.authcfg or e.name in self.pending_keys
            else tr("Paste a key to store it in the QGIS authentication database")
        )
        self.priceInSpin.setValue(e.price_in)
        self.priceOutSpin.setValue(e.price_out)
        self.concurrencySpin.setValue(e.concurrency)
        self.rpmSpin.setValue(e.rpm)
        self.tpmSpin.setValue(e.tpm)
        self.patienceSpin.setValue(e.patience)
        self.reasoningCheck.setChecked(e.reasoning)
        i = self.constraintCombo.findData(e.constraint)
        self.constraintCombo.setCurrentIndex(i if i >= 0 else 0)
        editable = not e.is_embedded
        for w in (
            self.nameEdit,
            self.providerCombo,
            self.baseUrlEdit,
            self.modelCombo,
            self.authSelect,
            self.apiKeyEdit,
            self.priceInSpin,
            self.priceOutSpin,
            self.rpmSpin,
            self.tpmSpin,
            self.patienceSpin,
            self.constraintCombo,
            self.fetchButton,
            self.testButton,
        ):
            w.setEnabled(editable)
        self.removeButton.setEnabled(editable)
        self.statusLabel.setText(embedded_note(e.model) if e.is_embedded else "")

    def provider_changed(self):
        provider = self.providerCombo.currentData()
        url = self.baseUrlEdit.text().strip()
        preset_urls = {p["base_url"] for p in PROVIDERS.values()}
        if provider in PROVIDERS and (not url or url in preset_urls):
            self.baseUrlEdit.setText(PROVIDERS[provider]["base_url"])

    def add(self):
        self.store_form()
        names = {e.name for e in self.endpoints}
        n = 1
        while f"{tr('Endpoint')} {n}" in names:
            n += 1
        e = EndpointConfig(f"{tr('Endpoint')} {n}", "openai", PROVIDERS["openai"]["base_url"])
        self.endpoints.append(e)
        self.endpointList.addItem(e.name)
        self.endpointList.setCurrentRow(len(self.endpoints) - 1)

    def remove(self):
        row = self.endpointList.currentRow()
        if row <= 0 or self.endpoints[row].is_embedded:
            return
        self.current = -1  # do not store the form of the removed endpoint
        self.pending_keys.pop(self.endpoints[row].name, None)
        del self.endpoints[row]
        self.endpointList.takeItem(row)
        self.endpointList.setCurrentRow(min(row, len(self.endpoints) - 1))

    # --- connection check in the background --------------------------------------------------
    def check(self, fetch_only):
        """List models; for a test, check the chosen one is there and send it one real rating
        prompt, reporting whether its answer held a rating. Never blocks QGIS."""
        self.store_form()
        e = self.endpoints[self.current]
        try:
            endpoint = e.endpoint(with_key=True)
        except QgsProcessingException as err:  # a custom provider without a URL: said, not sent
            self.statusLabel.setText(tr("Failed: {msg}").format(msg=message_text(err)))
            return
        if e.name in self.pending_keys:
            endpoint.api_key = self.pending_keys[e.name]
        self.statusLabel.setText(tr("Connecting to {host}…").format(host=endpoint.host()))

        def run(task):
            models, rating = check_endpoint(endpoint, rate=not fetch_only)
            can = probe_endpoint(endpoint, rating.prompt) if rating is not None else ""
            return models, rating, can

        def done(exception, result=None):
            self.task = None
            if exception is not None:
                # One sentence, never a repr (the traceback goes to the log).
                log(f"endpoint check failed: {exception!r}", Qgis.MessageLevel.Warning)
                known = isinstance(exception, (EndpointError, RequestError))
                msg = message_text(exception) if known else exception
                self.statusLabel.setText(
                    tr("Failed: {msg}").format(msg=error_sentence(msg, limit=300))
                )
                return
            models, rating, can = result or ([], None, "")
            models = models or []
            current = self.modelCombo.currentText()
            self.modelCombo.clear()
            self.modelCombo.addItems(models)
            self.modelCombo.setEditText(current or (models[0] if models else ""))
            if fetch_only or not current:
                n = len(models)
                text = translate("@default", "%n model(s) offered.", None, n)
            elif current in models:
                text = tr("Connected: model {m} is available.").format(m=current)
            else:
                n = len(models)
                text = translate(
                    "@default", "Connected, but {m} is not among the %n model(s) offered.", None, n
                ).format(m=current)
            if rating is not None:
                text = f"{text} {rating_sentence(rating, endpoint)}"
            if can:
                text = f"{text} {can}"
            self.statusLabel.setText(text)

        self.task = QgsTask.fromFunction(tr("GeoBias: contacting endpoint"), run, on_finished=done)
        QgsApplication.taskManager().addTask(self.task)

    # --- the embedded model's Python ---------------------------------------------------------
    def check_python(self):
        """Find (or check the chosen) Python for the embedded model, in the background."""
        from ..core.runtime.embedded import EmbeddedError, check_python, find_python

        chosen = self.pythonEdit.text().strip() or None
        self.pythonStatusLabel.setText(tr("Checking…"))

        def run(task):
            python = find_python(chosen) if chosen is None else chosen
            return python, check_python(python)

        def done(exception, result=None):
            self.python_task = None
            if exception is not None:
                log(f"model Python check failed: {exception!r}", Qgis.MessageLevel.Warning)
                reason = (strip_reprs(str(exception))[:400] if isinstance(exception, EmbeddedError)
                          else error_sentence(exception, limit=400))  # fmt: skip
                self.pythonStatusLabel.setText(
                    tr("Cannot run the model: {reason}. Install: {line}").format(
                        reason=reason[:400], line=model_install_line()
                    )
                )
                return
            python, report = result
            self.pythonStatusLabel.setText(
                tr("{python} runs the model {model} (xllamacpp {version}).").format(
                    python=python,
                    model=os.path.basename(report["model"]),
                    version=report["xllamacpp"],
                )
            )

        self.python_task = QgsTask.fromFunction(
            tr("GeoBias: checking the local model's Python"), run, on_finished=done
        )
        QgsApplication.taskManager().addTask(self.python_task)

    # --- outputs ---------------------------------------------------------------------------
    def choose_output_folder(self):
        start = self.outputFolderEdit.text().strip() or default_output_folder()
        folder = QFileDialog.getExistingDirectory(self, tr("GeoBias output folder"), start)
        if folder:
            self.outputFolderEdit.setText(folder)

    # --- QgsOptionsPageWidget ---------------------------------------------------------------
    def apply(self):
        """Store typed keys in the auth database, then the endpoints (with config ids only)."""
        self.store_form()
        for i, e in enumerate(self.endpoints):
            key = self.pending_keys.pop(e.name, None)
            if key:
                authcfg = store_api_key(e.name, key, e.authcfg)
                if authcfg:
                    self.endpoints[i] = replace(e, authcfg=authcfg)
        self.apiKeyEdit.clear()
        save_endpoints(self.endpoints)
        QgsSettings().setValue(PYTHON_SETTING, self.pythonEdit.text().strip())
        set_output_folder(self.outputFolderEdit.text().strip())
