"""The user guide shipped with the plugin: in the system's web browser, or — on a machine
without one — in a window of QGIS itself; its file's path in the message bar either way."""

import os

from qgis.core import Qgis
from qgis.PyQt.QtCore import Qt, QUrl
from qgis.PyQt.QtGui import QDesktopServices, QImage, QTextDocument
from qgis.PyQt.QtWidgets import QDialog, QPushButton, QTextBrowser, QVBoxLayout

from ..i18n_util import tr


class GuideBrowser(QTextBrowser):
    """A QTextBrowser whose pictures fit its width (it ignores the guide's CSS max-width)."""

    def loadResource(self, kind, url):
        data = super().loadResource(kind, url)
        target = url if url.isLocalFile() else self.source().resolved(url)  # img/… is relative
        if kind == QTextDocument.ResourceType.ImageResource and target.isLocalFile():
            image = QImage(target.toLocalFile())
            room = max(200, self.viewport().width() - 120)  # inside a list's indent too
            if not image.isNull() and image.width() > room:
                return image.scaledToWidth(room, Qt.TransformationMode.SmoothTransformation)
        return data


class GuideWindow(QDialog):
    """The guide's HTML in a QTextBrowser: its pictures, its links inside the plugin (the
    Processing reference, the method notes), web links handed to the system."""

    def __init__(self, path, parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("GeoBias user guide"))
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self.resize(820, 760)
        self.browser = GuideBrowser(self)
        self.browser.resize(self.size())
        self.browser.setOpenExternalLinks(True)
        self.browser.setSource(QUrl.fromLocalFile(path))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)


def open_guide(path, parent, push):
    """Open the guide at `path`; `push(text, level, button)` says where it is.

    Returns the QGIS window when the guide opened there (no browser), else None.
    """
    if not os.path.isfile(path):
        push(tr("The user guide is missing from the plugin folder: {p}").format(p=path),
             Qgis.MessageLevel.Warning, None)  # fmt: skip
        return None
    if QDesktopServices.openUrl(QUrl.fromLocalFile(path)):
        # A launcher ran; whether a browser showed the page, QGIS cannot tell: the path and a
        # way to read the guide here stay in the message bar.
        button = (tr("Read it in QGIS"), lambda: show_window(path, parent))
        push(tr("The user guide opens in your web browser: {p}").format(p=path),
             Qgis.MessageLevel.Info, button)  # fmt: skip
        return None
    window = show_window(path, parent)
    push(tr("No web browser to open the user guide: it is shown in a QGIS window. Its file: "
            "{p}").format(p=path), Qgis.MessageLevel.Info, None)  # fmt: skip
    return window


def show_window(path, parent):
    """The guide in a QGIS window (one per parent: shown again, not opened twice)."""
    window = getattr(parent, "_guide_window", None)
    if window is None:
        window = GuideWindow(path, parent)
        parent._guide_window = window
    window.show()
    window.raise_()
    window.activateWindow()
    return window


def message_button(widget, text, slot):
    """A button in a message bar entry."""
    button = QPushButton(text, widget)
    button.clicked.connect(slot)
    widget.layout().addWidget(button)
    return button
