"""Where the dock's outputs go, and how they stay with the project.

A saved project keeps them in a `geobias` folder beside it (relative paths in the project); an
unsaved one in the GeoBias output folder (Options → GeoBias; ~/GeoBias by default), never in
Processing's temporary folder, which QGIS deletes when it closes. When an unsaved project is
saved, GeoBias offers to move what it wrote meanwhile next to it: copy, repoint the open layers
and the report layouts' pictures (styles stay), then remove the originals (Windows keeps open
files locked, so nothing is moved from under an open layer). Before QGIS closes a project whose
GeoBias layers would be lost (in a temporary folder or in memory, or in a project never saved),
it says so and offers to keep them.
"""

import os
import shutil
import time

from qgis.core import (
    Qgis,
    QgsDataProvider,
    QgsLayoutItemMap,
    QgsLayoutItemPicture,
    QgsProcessingUtils,
    QgsProject,
    QgsSettings,
    QgsVectorFileWriter,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QEvent, QObject, QTimer
from qgis.PyQt.QtWidgets import QMessageBox

from ..i18n_util import tr, translate
from .task import log

__all__ = [
    "OUTPUT_FOLDER_SETTING",
    "OutputKeeper",
    "default_output_folder",
    "is_geobias_layer",
    "lost_layers",
    "output_folder",
    "output_root",
    "project_folder",
    "relocate",
    "run_folder",
]

OUTPUT_FOLDER_SETTING = "geobias/output_folder"
PROJECT_SUBFOLDER = "geobias"
# Fields that make a layer a GeoBias output: rated points, metrics, census units, hot spots,
# HERB regions, mean ranks of a comparison.
HERB_FIELDS = {"c_w", "c_z"}  # HERB's region layers (continents, countries…)
SIGNATURES = ({"model", "topic", "score"}, {"model", "topic", "mad"}, {"mean_rank_error"},
              {"lisa_class"}, HERB_FIELDS, {"mean_rank", "topic"})  # fmt: skip
# Run folders written while the project had no file: offered to move when it is saved.
_UNSAVED = []


def default_output_folder():
    """~/GeoBias: where an unsaved project's outputs go unless the options say otherwise."""
    return os.path.join(os.path.expanduser("~"), "GeoBias")


def output_folder():
    """The GeoBias output folder of the options (for projects not saved yet)."""
    value = QgsSettings().value(OUTPUT_FOLDER_SETTING, "", type=str)
    return os.path.expanduser(value) if value else default_output_folder()


def set_output_folder(path):
    QgsSettings().setValue(OUTPUT_FOLDER_SETTING, path or "")


def project_folder(project=None):
    """The folder of the project's file (its home path), "" while it has no file on disk."""
    project = project or QgsProject.instance()
    name = project.fileName()
    if not name or "://" in name or name.startswith(("geopackage:", "postgresql:")):
        return ""
    return project.homePath() or os.path.dirname(os.path.abspath(name))


def output_root(project=None):
    """Where outputs go now: <project folder>/geobias, or the output folder when unsaved."""
    home = project_folder(project)
    return os.path.join(home, PROJECT_SUBFOLDER) if home else output_folder()


def slug(text):
    """A folder name for a survey: lower case [a-z0-9_], at most 40 characters."""
    from ..processing.gpkg import safe_name  # with numpy: not at QGIS's start

    return safe_name(text, limit=40, fallback="survey")


def run_folder(name, run=False, project=None):
    """<root>/<name>[/<run time>] (output_root), created. Each run gets its own folder, so the
    layers of an earlier run, perhaps still open, are never overwritten underneath QGIS."""
    path = os.path.join(output_root(project), slug(name))
    if run:
        path = os.path.join(path, time.strftime("%Y%m%d-%H%M%S"))
        base, k = path, 1
        while os.path.exists(path):
            k += 1
            path = f"{base}-{k}"
    os.makedirs(path, exist_ok=True)
    if run and not project_folder(project):
        _UNSAVED.append(path)
    return path


def unsaved_folders():
    """Run folders written while the project had no file, still on disk."""
    return [f for f in dict.fromkeys(_UNSAVED) if os.path.isdir(f)]


def forget_unsaved():
    del _UNSAVED[:]


def in_use(folders, project=None):
    """The folders holding a file the project uses: a layer's data, a layout's picture."""
    project = project or QgsProject.instance()
    used = [layer_path(lyr) for lyr in project.mapLayers().values()]
    used += [item.picturePath() for layout in project.layoutManager().printLayouts()
             for item in layout.items() if isinstance(item, QgsLayoutItemPicture)]  # fmt: skip
    return [f for f in folders if any(inside(path, f) for path in used if path)]


# ---------------------------------------------------------------------------- layers
def layer_path(layer):
    """The file a layer reads ("" for memory layers and services)."""
    if not isinstance(layer, QgsVectorLayer) or layer.providerType() != "ogr":
        return ""
    return os.path.abspath(layer.source().split("|")[0])


def inside(path, folder):
    """Whether `path` is `folder` or lies under it."""
    if not path or not folder:
        return False
    path = os.path.normcase(os.path.abspath(path))
    folder = os.path.normcase(os.path.abspath(folder))
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def is_geobias_layer(layer):
    """A layer GeoBias wrote: marked, in a GeoBias output folder, or with GeoBias's fields."""
    if not isinstance(layer, QgsVectorLayer):
        return False
    if layer.customProperty("geobias/output"):
        return True
    path = layer_path(layer)
    roots = [output_folder(), *unsaved_folders()]
    home = project_folder()
    if home:
        roots.append(os.path.join(home, PROJECT_SUBFOLDER))
    if path and any(inside(path, r) for r in roots):
        return True
    names = set(layer.fields().names()) if layer.isValid() else set()
    return any(sig <= names for sig in SIGNATURES)


def is_herb_output(layer):
    """A region layer GeoBias's HERB wrote (its fields c_w and c_z)."""
    valid = isinstance(layer, QgsVectorLayer) and layer.isValid()
    return valid and HERB_FIELDS <= set(layer.fields().names())


def temporary_folders():
    """Folders QGIS empties when it closes: Processing's temporary folder (its outputs saved
    to "a temporary layer" are there)."""
    return [QgsProcessingUtils.tempFolder()]


def is_temporary(layer):
    """A layer whose data goes when QGIS closes: in memory or in a temporary folder."""
    if isinstance(layer, QgsVectorLayer) and layer.providerType() == "memory":
        return True
    path = layer_path(layer)
    return bool(path) and any(inside(path, t) for t in temporary_folders())


def lost_layers(project=None):
    """(GeoBias layers in a temporary place, whether the project is unsaved with GeoBias
    layers): what closing the project now would lose."""
    project = project or QgsProject.instance()
    layers = [lyr for lyr in project.mapLayers().values() if is_geobias_layer(lyr)]
    temporary = [lyr for lyr in layers if is_temporary(lyr)]
    return temporary, bool(layers) and not project_folder(project)


# ---------------------------------------------------------------------------- moving
def unique(path, extension=""):
    """`path` + extension, or `path-2`, `path-3`… (+ extension) when it exists."""
    candidate, k = path + extension, 1
    while os.path.exists(candidate):
        k += 1
        candidate = f"{path}-{k}{extension}"
    return candidate


def destination(folder, target_root):
    """Where a folder of outputs goes under `target_root`: the same path relative to the
    output folder (<survey>/<run time>), else under its parent's name."""
    source_root = output_folder()
    if inside(folder, source_root) and not inside(source_root, folder):
        rel = os.path.relpath(folder, source_root)
    else:
        rel = os.path.join(os.path.basename(os.path.dirname(folder)), os.path.basename(folder))
    return unique(os.path.join(target_root, rel))


def relocate(pairs, project=None):
    """Move folders of outputs ((source, destination) pairs): copy each, repoint the project's
    layers and its layouts' pictures to the copies (their styles stay), then remove the
    originals. Returns the sources that could not be removed (files still locked)."""
    project = project or QgsProject.instance()
    done = []
    for src, dst in pairs:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copytree(src, dst)
        done.append((src, dst))

    def moved(path):
        for src, dst in done:
            if inside(path, src):
                return os.path.join(dst, os.path.relpath(path, src))
        return None

    for layer in project.mapLayers().values():
        new = moved(layer_path(layer))
        if new:
            rest = layer.source().split("|", 1)
            repoint(layer, new + ("|" + rest[1] if len(rest) > 1 else ""), "ogr")
    for layout in project.layoutManager().printLayouts():
        for item in layout.items():
            if isinstance(item, QgsLayoutItemPicture):
                new = moved(item.picturePath())
                if new:
                    item.setPicturePath(new, item.mode())
            elif isinstance(item, QgsLayoutItemMap) and item.keepLayerSet():
                item.setLayers(item.layers())  # its references name the layers' new sources
    leftovers = []
    for src, _dst in done:
        try:
            shutil.rmtree(src)
        except OSError as e:  # Windows: a file still open somewhere
            log(f"could not remove {src} after copying it: {e}", Qgis.MessageLevel.Warning)
            leftovers.append(src)
    return leftovers


def repoint(layer, source, provider):
    """Point a layer at another copy of its data, keeping its name, style and styles."""
    layer.setDataSource(source, layer.name(), provider, QgsDataProvider.ProviderOptions())
    layer.setCustomProperty("geobias/output", True)
    layer.triggerRepaint()
    return layer.isValid()


def keep_temporary(layers, target_root):
    """Copy layers in a temporary place into `target_root/kept` and repoint them: a temporary
    file's folder is copied whole (Processing gives each output its own), a memory layer is
    written to a GeoPackage. Returns the layers that could not be kept."""
    failed, copies = [], {}
    kept = os.path.join(target_root, "kept")
    for layer in layers:
        path = layer_path(layer)
        if not path:  # in memory
            from ..processing.gpkg import safe_name

            out = unique(os.path.join(kept, safe_name(layer.name(), 60)), ".gpkg")
            os.makedirs(kept, exist_ok=True)
            options = QgsVectorFileWriter.SaveVectorOptions()
            options.driverName = "GPKG"
            result = QgsVectorFileWriter.writeAsVectorFormatV2(
                layer, out, QgsProject.instance().transformContext(), options
            )
            if result[0] != QgsVectorFileWriter.WriterError.NoError or not repoint(
                layer, out, "ogr"
            ):
                failed.append(layer)
            continue
        src = os.path.dirname(path)
        if src not in copies:
            copies[src] = unique(os.path.join(kept, os.path.basename(src) or "output"))
            shutil.copytree(src, copies[src])
        rest = layer.source().split("|", 1)
        new = os.path.join(copies[src], os.path.basename(path))
        if not repoint(layer, new + ("|" + rest[1] if len(rest) > 1 else ""), "ogr"):
            failed.append(layer)
    return failed


# ---------------------------------------------------------------------------- the keeper
class OutputKeeper(QObject):
    """Offers to move an unsaved project's outputs when it is saved, and warns before QGIS
    closes a project whose GeoBias layers would be lost. One per dock."""

    def __init__(self, iface, push, parent=None, running=lambda: False):
        super().__init__(parent)
        self.iface = iface
        self.push = push  # the dock's message bar entry
        self.running = running  # whether a job of the dock is writing outputs now
        self.busy = False
        project = QgsProject.instance()
        project.projectSaved.connect(self.saved)
        project.cleared.connect(forget_unsaved)
        self.window = iface.mainWindow()
        if self.window is not None:
            self.window.installEventFilter(self)

    def close(self):
        project = QgsProject.instance()
        for signal, slot in ((project.projectSaved, self.saved), (project.cleared, forget_unsaved)):
            try:
                signal.disconnect(slot)
            except TypeError:
                pass
        if self.window is not None:
            self.window.removeEventFilter(self)

    # --- saving ---------------------------------------------------------------------------
    def saved(self):
        """The project now has a file: offer (once QGIS has finished writing it, as the move
        saves it again) to move what GeoBias wrote while it had none."""
        if not self.busy:
            QTimer.singleShot(0, self.offer_move)

    def offer_move(self):
        if self.busy:
            return
        home = project_folder()
        pending = [f for f in in_use(unsaved_folders()) if not inside(f, home)]
        if not home or not pending:
            return  # (a folder a running job writes is offered once its layers are in)
        if self.running():  # never move files from under a job writing them
            self.push(tr("GeoBias will offer to move its outputs next to the project when you "
                         "save it again, once the running job has finished."),
                      Qgis.MessageLevel.Info)  # fmt: skip
            return
        target = os.path.join(home, PROJECT_SUBFOLDER)
        if not self.ask_move(pending, target):
            forget_unsaved()
            return
        self.move(pending, target)

    def ask_move(self, folders, target):
        text = tr(
            "GeoBias wrote {runs} in {source} while this project was not saved. Move them next "
            "to the project, into {target}?\n\nThe layers stay in the project with their "
            "styles; the project then keeps relative paths to them."
        ).format(
            runs=translate("@default", "%n run folder(s)", None, len(folders)),
            source=output_folder(),
            target=target,
        )
        answer = QMessageBox.question(
            self.window, tr("GeoBias: outputs"), text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )  # fmt: skip
        return answer == QMessageBox.StandardButton.Yes

    def save_project(self):
        """Save the project where it is (its layers now point at the moved files); a failed save
        is said, never passed over: the project on disk still names the old places."""
        project = QgsProject.instance()
        self.busy = True
        try:
            saved = project.write()
        finally:
            self.busy = False
        if not saved:
            self.push(
                tr("The project could not be saved ({error}): save it again with Project → Save "
                   "before closing QGIS.").format(error=project.error() or tr("unknown error")),
                Qgis.MessageLevel.Critical,
            )  # fmt: skip
        return saved

    def move(self, folders, target):
        """Move the folders under `target`, repoint, save the project again."""
        pairs = [(f, destination(f, target)) for f in folders]
        try:
            leftovers = relocate(pairs)
        except OSError as e:
            self.push(tr("Could not move the GeoBias outputs: {e}").format(e=e.strerror or e),
                      Qgis.MessageLevel.Warning, details=e)  # fmt: skip
            return False
        forget_unsaved()
        if not self.save_project():
            return False
        if leftovers:
            self.push(
                tr("The outputs are next to the project; the old copies could not all be "
                   "removed (still in use): {paths}").format(paths=", ".join(leftovers)),
                Qgis.MessageLevel.Info,
            )  # fmt: skip
        else:
            self.push(tr("The GeoBias outputs are now in {target}.").format(target=target),
                      Qgis.MessageLevel.Success)  # fmt: skip
        return True

    # --- closing --------------------------------------------------------------------------
    def eventFilter(self, watched, event):  # noqa: N802 (Qt's name)
        if watched is self.window and event.type() == QEvent.Type.Close:
            if not self.may_close():
                event.ignore()
                return True
        return False

    def may_close(self):
        """Say what closing would lose and let the user keep it; False to stay open."""
        temporary, unsaved = lost_layers()
        if unsaved:
            return self.close_unsaved()
        if temporary:
            return self.close_temporary(temporary)
        return True

    def close_unsaved(self):
        n = len([lyr for lyr in QgsProject.instance().mapLayers().values()
                 if is_geobias_layer(lyr)])  # fmt: skip
        text = tr(
            "This project has never been saved: its {layers} will be in no project once QGIS "
            "closes (their files stay in {folder}).\n\nSave the project first?"
        ).format(
            layers=translate("@default", "%n GeoBias layer(s)", None, n), folder=output_folder()
        )
        box = QMessageBox(QMessageBox.Icon.Warning, tr("GeoBias: unsaved project"), text,
                          QMessageBox.StandardButton.NoButton, self.window)  # fmt: skip
        save = box.addButton(tr("Save project…"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(tr("Close without saving"), QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(save)
        box.exec()
        if box.clickedButton() is cancel:
            return False
        if box.clickedButton() is save:
            self.iface.actionSaveProjectAs().trigger()
            return bool(project_folder())  # a cancelled Save As keeps QGIS open
        return True

    def close_temporary(self, layers):
        names = ", ".join(lyr.name() for lyr in layers[:6]) + (", …" if len(layers) > 6 else "")
        target = output_root()
        text = tr(
            "QGIS empties its temporary folder and memory when it closes, and {layers} of this "
            "project would go with them: {names}. Reopening the project would not find them."
            "\n\nKeep them: copy them into {target} and save the project?"
        ).format(
            layers=translate("@default", "%n GeoBias layer(s)", None, len(layers)),
            names=names,
            target=os.path.join(target, "kept"),
        )
        box = QMessageBox(QMessageBox.Icon.Warning, tr("GeoBias: temporary layers"), text,
                          QMessageBox.StandardButton.NoButton, self.window)  # fmt: skip
        keep = box.addButton(tr("Keep them"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(tr("Close anyway"), QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(keep)
        box.exec()
        if box.clickedButton() is cancel:
            return False
        if box.clickedButton() is keep:
            failed = keep_temporary(layers, target)
            saved = self.save_project()
            return saved and not failed
        return True
