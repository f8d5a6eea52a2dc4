"""scripts/matrix.sh (`make test-matrix`) decides right when a chroot cannot be built (issue 23,
item 10): that release is reported loudly as not tested and the others go on; a test failing in
a built chroot still fails the matrix. No real chroot is built: debootstrap, unshare and sudo
are fakes on PATH, so every apt, pip and test command the script runs "in a chroot" is seen by
the fake unshare, which answers as the case asks."""

import os
import stat
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "matrix.sh")

FAKE_DEBOOTSTRAP = r"""#!/bin/bash
# debootstrap --variant=minbase SUITE DIR MIRROR
suite="$2"; dir="$3"
echo "debootstrap $suite" >> "$FAKE_CALLS"
if [[ " $FAKE_DEBOOTSTRAP_FAIL " == *" $suite "* ]]; then
    echo "I: Retrieving InRelease" >&2
    echo "E: Failed getting release file $4/dists/$suite/Release" >&2
    exit 1
fi
mkdir -p "$dir"/{etc/apt/apt.conf.d,etc/dpkg/dpkg.cfg.d,usr/sbin,proc,dev,sys,tmp}
"""

# unshare --mount [--net] --fork /bin/sh -ec SCRIPT sh DIR COMMAND...
FAKE_UNSHARE = r"""#!/bin/bash
while [ "$1" != /bin/sh ]; do shift; done
shift 4
dir="$1"; shift
suite="$(basename "${dir%.new}")"
echo "in $suite: $*" | tr '\n' ' ' >> "$FAKE_CALLS"; echo >> "$FAKE_CALLS"
case "$*" in
    *matrix_tests.sh*)
        echo "matrix-env: QGIS 9.99.0 (fake $suite)"
        if [[ " $FAKE_TESTS_FAIL " == *" $suite "* ]]; then
            echo "matrix-result: core 1 failed, 9 passed"; exit 1
        fi
        echo "matrix-result: core 10 passed"; exit 0 ;;
    *"apt-get install"*)
        if [[ " $FAKE_APT_FAIL " == *" $suite "* ]]; then
            echo "The following packages have unmet dependencies:" >&2
            echo " qgis : Depends: libqgis-core3.44.0 but it is not going to be installed" >&2
            echo "E: Unable to correct problems, you have held broken packages." >&2
            exit 100
        fi ;;
    *"-m venv"*) mkdir -p "$dir/opt/geobias-venv" ;;
esac
exit 0
"""

FAKE_SUDO = '#!/bin/sh\nexec "$@"\n'


@pytest.fixture()
def fakes(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("debootstrap", FAKE_DEBOOTSTRAP), ("unshare", FAKE_UNSHARE),
                       ("sudo", FAKE_SUDO)):  # fmt: skip
        path = bin_dir / name
        path.write_text(text)
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return tmp_path


def matrix(fakes, **env):
    """Run the real script on trixie and sid with the fakes; (returncode, stdout, stderr, calls)."""
    calls = fakes / "calls.log"
    calls.write_text("")
    run_env = dict(
        os.environ,
        PATH=f"{fakes / 'bin'}:{os.environ['PATH']}",
        GEOBIAS_MATRIX="trixie sid",
        GEOBIAS_MATRIX_CACHE=str(fakes / "cache"),
        GEOBIAS_MATRIX_LOGS=str(fakes / "logs"),
        FAKE_CALLS=str(calls),
        **env,
    )
    out = subprocess.run(["bash", SCRIPT], env=run_env, capture_output=True, text=True,
                         timeout=300)  # fmt: skip
    return out.returncode, out.stdout, out.stderr, calls.read_text().splitlines()


def summary(stdout):
    """The summary's lines by release."""
    lines = stdout.split("test-matrix:\n", 1)[1].splitlines()
    return {line.split()[0]: line for line in lines if line.startswith("  ")}


def test_a_release_whose_chroot_cannot_be_built_is_reported_and_the_others_are_tested(fakes):
    rc, out, err, calls = matrix(fakes, FAKE_DEBOOTSTRAP_FAIL="sid")
    assert rc == 0, out + err
    rows = summary(out)
    assert "NOT TESTED" in rows["sid"] and "Failed getting release file" in rows["sid"]
    assert "core 10 passed" in rows["trixie"] and "fake trixie" in rows["trixie"]
    assert "THE CHROOT COULD NOT BE BUILT: sid IS NOT TESTED" in err
    assert "WARNING: NOT TESTED on sid" in out
    # trixie was built and tested; nothing ran in sid after its debootstrap failed.
    assert any("in trixie:" in c and "matrix_tests.sh" in c for c in calls)
    assert not any(c.startswith("in sid") for c in calls)
    assert not os.path.exists(fakes / "cache" / "sid")


def test_a_test_failing_in_a_built_chroot_still_fails_the_matrix(fakes):
    rc, out, err, _ = matrix(fakes, FAKE_DEBOOTSTRAP_FAIL="sid", FAKE_TESTS_FAIL="trixie")
    assert rc == 1, out + err
    assert "FAILED on trixie" in out and "1 failed" in summary(out)["trixie"]
    assert "NOT TESTED" in summary(out)["sid"]


def test_a_package_transition_is_named_and_the_built_chroot_is_reused(fakes):
    # First run: both built and tested.
    rc, out, err, calls = matrix(fakes)
    assert rc == 0, out + err
    assert calls.count("debootstrap trixie") == 1 and calls.count("debootstrap sid") == 1
    # sid's chroot expired (older than the maximum age): its rebuild meets a transition.
    stamp = fakes / "cache" / "sid" / ".geobias-apt"
    old = stamp.stat().st_mtime - 60 * 86400
    os.utime(stamp, (old, old))
    rc, out, err, calls = matrix(fakes, FAKE_APT_FAIL="sid")
    assert rc == 0, out + err
    assert "held broken packages" in summary(out)["sid"]
    assert "core 10 passed" in summary(out)["trixie"]
    # The rebuild happens beside the old chroot, which stays whole for the next attempt.
    assert calls.count("debootstrap sid") == 1 and "debootstrap trixie" not in calls
    assert os.path.isfile(fakes / "cache" / "sid" / ".geobias-apt")


def test_strict_mode_fails_on_an_unbuilt_chroot(fakes):
    rc, out, err, _ = matrix(fakes, FAKE_DEBOOTSTRAP_FAIL="sid trixie", GEOBIAS_MATRIX_STRICT="1")
    assert rc == 1, out + err
    rows = summary(out)
    assert "NOT TESTED" in rows["sid"] and "NOT TESTED" in rows["trixie"]
    assert "WARNING: NOT TESTED on trixie sid" in out
