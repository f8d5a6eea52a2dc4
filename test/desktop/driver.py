"""Drive the real QGIS desktop as a user does, from a script run inside it (`qgis --code`).

Widgets get synthetic mouse clicks (QTest), the map canvas gets clicks at the pixels of map
coordinates, modal dialogs are answered by pressing their buttons. Every step records what it
saw in a JSON result that the pytest side reads; a watchdog ends a run that hangs.
"""

import gc
import json
import os
import time
import traceback
import warnings

from qgis.core import QgsApplication, QgsPointXY
from qgis.PyQt.QtCore import QCoreApplication, QPoint, Qt, QTimer
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import (
    QApplication,
    QDialogButtonBox,
    QFileDialog,
    QLineEdit,
    QMessageBox,
)
from qgis.utils import iface


def pump(seconds=0.05):
    """Let QGIS process events (paint, timers, queued signals) for `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QCoreApplication.processEvents()
        time.sleep(0.01)


def wait_until(condition, timeout, what):
    """Process events until condition() holds; TimeoutError naming `what` otherwise."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not done after {timeout:.0f} s")
        QCoreApplication.processEvents()
        time.sleep(0.02)


def click(widget, button=Qt.MouseButton.LeftButton):
    """A mouse click in the middle of a widget (it must be visible and enabled to react)."""
    assert widget.isVisible(), f"{widget.objectName()} is not visible"
    assert widget.isEnabled(), f"{widget.objectName()} is disabled"
    QTest.mouseClick(widget, button, Qt.KeyboardModifier.NoModifier, widget.rect().center())
    pump(0.05)


def choose_in_combo(combo, text):
    """Open a combo box's list with a click and click the item showing `text`."""
    click(combo)
    view = combo.view()
    wait_until(view.isVisible, 5, "the combo box list")
    # A combo's list ignores a release that comes within a double-click interval of opening.
    pump(QApplication.doubleClickInterval() / 1000 + 0.2)
    row = combo.findText(text)
    assert row >= 0, f"{text!r} not in {[combo.itemText(i) for i in range(combo.count())]}"
    index = view.model().index(row, combo.modelColumn(), view.rootIndex())
    view.scrollTo(index)
    QTest.mouseClick(
        view.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        view.visualRect(index).center(),
    )
    pump(0.2)
    assert combo.currentText() == text, combo.currentText()


def children_running(marker):
    """This QGIS's live child processes whose command line holds `marker` (a script's name),
    as {pid: argv} read from /proc."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and marker.encode() in cmdline:
            found[int(pid)] = [a.decode(errors="replace") for a in cmdline.split(b"\0") if a]
    return found


def canvas_pixel(x, y):
    """The canvas pixel of map coordinates (x, y) in the canvas CRS."""
    canvas = iface.mapCanvas()
    p = canvas.getCoordinateTransform().transform(QgsPointXY(x, y))
    return QPoint(int(round(p.x())), int(round(p.y())))


def click_map(x, y, button=Qt.MouseButton.LeftButton):
    """Move the mouse to map coordinates and click there, as on the canvas."""
    viewport = iface.mapCanvas().viewport()
    pos = canvas_pixel(x, y)
    QTest.mouseMove(viewport, pos)
    pump(0.03)
    QTest.mouseClick(viewport, button, Qt.KeyboardModifier.NoModifier, pos)
    pump(0.05)
    return pos


class DialogAnswerer:
    """Answers the modal message boxes that open by pressing `button` (Yes: a user who
    confirms), or a file dialog by choosing `files`; keeps their texts and a picture.

    Use around the click that opens the dialog: `with DialogAnswerer(rec, "confirm") as d:`.
    """

    def __init__(self, recorder, shot=None, button=QMessageBox.StandardButton.Yes, files=()):
        self.recorder, self.shot, self.button, self.files = recorder, shot, button, files
        self.texts = []
        self.answered = set()  # each dialog once: a dialog that stays open is a failure
        self.timer = QTimer()
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._poll)

    def _poll(self):
        box = QApplication.activeModalWidget()
        if box is None or id(box) in self.answered:
            return
        if isinstance(box, QFileDialog):
            # As a user: type the names in "File name" and press Open (accept() is protected
            # for a dialog made by QFileDialog's static functions).
            self.answered.add(id(box))
            self.texts.append(box.windowTitle())
            box.setDirectory(os.path.dirname(self.files[0]))
            edit = box.findChild(QLineEdit, "fileNameEdit")
            if len(self.files) == 1:
                edit.setText(self.files[0])
            else:
                edit.setText(" ".join(f'"{os.path.basename(f)}"' for f in self.files))
            if self.shot:
                self.recorder.shot(self.shot, box)
            buttons = box.findChild(QDialogButtonBox, "buttonBox")
            buttons.button(QDialogButtonBox.StandardButton.Open).click()
            return
        if not isinstance(box, QMessageBox):
            return
        self.answered.add(id(box))
        self.texts.append(box.text())
        if self.shot:
            self.recorder.shot(self.shot, box)
        box.button(self.button).click()

    def __enter__(self):
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.stop()


class Recorder:
    """Facts per step, screenshots and the JSON result; a failed step is recorded, not raised."""

    def __init__(self, out_dir, timeout):
        self.out_dir = out_dir
        os.makedirs(out_dir, exist_ok=True)
        self.path = os.path.join(out_dir, "result.json")
        self.result = {"steps": [], "facts": {}, "done": False, "shots": []}
        self.started = time.monotonic()
        self.watchdog = QTimer()
        self.watchdog.setSingleShot(True)
        self.watchdog.timeout.connect(self._timeout)
        self.watchdog.start(int(timeout * 1000))
        self.result["log"] = []
        self.result["qgis_log"] = []  # every tag's warnings and errors (GDAL, OGR, ...)
        self.result["warnings"] = []  # Python warnings: [category, where, message]
        QgsApplication.messageLog().messageReceived.connect(self._log)
        # A day's ResourceWarnings shown, not ignored as Python does by default (issue 35):
        # launch.Outcome.log_problems() fails the desktop test on any.
        warnings.simplefilter("default", ResourceWarning)
        self._showwarning = warnings.showwarning
        warnings.showwarning = self._warning

    def _log(self, message, tag, level):
        """QGIS log messages (GeoBias, Python, Processing) with the seconds since the start;
        every tag's warnings and errors in "qgis_log"."""
        t = round(time.monotonic() - self.started, 1)
        if tag in ("GeoBias", "Python error", "Python warning", "Processing"):
            self.result["log"].append([t, tag, int(level), message[:2000]])
        if int(level) >= 1 or tag in ("GDAL", "OGR"):  # Qgis.MessageLevel.Warning and up
            self.result["qgis_log"].append([t, tag, int(level), message[:2000]])

    def _warning(self, message, category, filename, lineno, file=None, line=None):
        """A Python warning recorded, then shown as QGIS shows it (its Python warning panel)."""
        self.result["warnings"].append([category.__name__, f"{filename}:{lineno}", str(message)])
        self._showwarning(message, category, filename, lineno, file, line)

    @property
    def facts(self):
        return self.result["facts"]

    def step(self, name, fn, *args):
        """Run one step; its exception (with traceback) goes into the result. Returns success."""
        t0 = time.monotonic()
        entry = {"name": name, "ok": False}
        self.result["steps"].append(entry)
        self.save()
        try:
            fn(*args)
            entry["ok"] = True
        except Exception as e:
            entry["error"] = f"{type(e).__name__}: {e}"
            entry["traceback"] = traceback.format_exc()
            self.shot(f"failed_{name}")
        entry["seconds"] = round(time.monotonic() - t0, 1)
        self.save()
        return entry["ok"]

    def shot(self, name, widget=None):
        """Save a screenshot of the main window (or `widget`) as <out_dir>/<name>.png."""
        pump(0.3)
        # Render the map afresh: after a resize the canvas shows a scaled old image until its
        # delayed refresh, and a half-drawn one while rendering.
        canvas = iface.mapCanvas()
        done = []
        canvas.mapCanvasRefreshed.connect(lambda: done.append(1))
        canvas.refresh()
        deadline = time.monotonic() + 15
        while not done and time.monotonic() < deadline:
            pump(0.1)
        path = os.path.join(self.out_dir, f"{name}.png")
        (widget or iface.mainWindow()).grab().save(path)
        self.result["shots"].append(path)
        return path

    def save(self):
        self.result["seconds"] = round(time.monotonic() - self.started, 1)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.result, f, indent=1, default=str)
        os.replace(tmp, self.path)

    def finish(self, code=0):
        self.watchdog.stop()
        gc.collect()  # an unclosed file of the day warns now, while it is recorded
        pump(0.2)
        self.result["done"] = True
        self.save()
        QgsApplication.exit(code)

    def _timeout(self):
        self.result["timeout"] = True
        self.shot("timeout")
        self.save()
        os._exit(3)  # a nested event loop may never return to QGIS's own
