"""Running the dock outside QGIS desktop: the iface parts it uses, and waiting on the event loop."""

import time


class StubIface:
    """The part of QgisInterface the dock uses: canvas, message bar, main window, log panel."""

    def __init__(self, window, canvas, bar=None):
        from qgis.gui import QgsMessageBar

        self.window, self.canvas = window, canvas
        self.bar = bar if bar is not None else QgsMessageBar(window)
        self.log_opened = 0

    def mapCanvas(self):
        return self.canvas

    def messageBar(self):
        return self.bar

    def mainWindow(self):
        return self.window

    def activeLayer(self):
        return None

    def openMessageLog(self):
        self.log_opened += 1


def wait_for(condition, timeout=60.0, what="the survey task"):
    """Process Qt events until condition() holds; TimeoutError after `timeout` seconds."""
    from qgis.PyQt.QtCore import QCoreApplication

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not finish in {timeout:.0f} s")
        QCoreApplication.processEvents()
        time.sleep(0.01)


def wait_job(dock, task, timeout=120.0):
    """Wait until a job started on the dock's run panel has ended (and its results are shown);
    returns the task."""
    assert task is not None, "the job did not start"
    wait_for(lambda: dock.panel.task is not task, timeout, task.description())
    return task
