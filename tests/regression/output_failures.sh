#!/usr/bin/env bash
# Output failures through the CLI: an output directory that cannot be created or written, and a
# disk that fills up during a run, must end the run with exit 1 and one error line naming the
# path, and leave no partial file (no temporary file; every snapshot listed in the .xmf exists
# and every snapshot there is listed).
#
#   tests/regression/output_failures.sh FDSOLVE SOURCE_DIR            (test output_failures)
#   tests/regression/output_failures.sh FDSOLVE SOURCE_DIR --tmpfs    (test output_full_disk)
#
# Without --tmpfs a full disk is simulated with a file-size limit (ulimit -f, SIGXFSZ ignored,
# so write() fails with EFBIG part-way through a snapshot). With --tmpfs a real filesystem is
# filled: a tiny tmpfs, mounted as root or in a user namespace (unshare -rm); where neither is
# allowed (e.g. an unprivileged container) the test exits 77, which CTest reports as a skip.
set -uo pipefail
fdsolve=$1
source_dir=$2
mode=${3:-}
plate=$source_dir/examples/plate.yaml
# 129 x 129 doubles: each of u and update is 133 KB in a snapshot of 270 KB.
big=(--backend cpu --set grid.points=[129,129] --set output.every=100
     --set solve.max_iterations=300 --set output.fields=[u,update] --quiet)

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

scratch=$(mktemp -d)
cleanup() {
  if [ -n "${mounted:-}" ]; then umount "$mounted" 2>/dev/null; fi
  chmod -R u+w "$scratch" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

# expect_failure LABEL EXPECTED_LINE_PREFIX COMMAND...: exit 1 and an error line starting so.
expect_failure() {
  local label=$1 expected=$2
  shift 2
  local status=0
  "$@" >"$scratch/stdout" 2>"$scratch/stderr" || status=$?
  [ "$status" -eq 1 ] || fail "$label: exit $status, expected 1"
  if ! sed -n 's/^\[[0-9:]*\] error: //p' "$scratch/stderr" | grep -qF -- "$expected"; then
    fail "$label: expected an error line with: $expected"
    sed 's/^/    /' "$scratch/stderr" | head -5
  fi
}

# no_partial_files DIR: no temporary file, and the .xmf lists exactly the snapshots present.
no_partial_files() {
  local dir=$1 label=$2
  [ -d "$dir" ] || return 0
  local temps
  temps=$(find "$dir" -name '*.tmp.*' -o -name '.fdsolve-write-test*')
  [ -z "$temps" ] || fail "$label: temporary files left: $temps"
  local xmf listed present
  xmf=$(find "$dir" -maxdepth 1 -name '*.xmf' | head -1)
  present=$(cd "$dir" && ls -- *_[0-9]*.h5 2>/dev/null | sort)
  listed=""
  if [ -n "$xmf" ]; then
    listed=$(grep -o '[A-Za-z0-9_.-]*\.h5:/u' "$xmf" | sed 's/:\/u$//' | sort -u)
  fi
  [ "$listed" = "$present" ] ||
    fail "$label: the .xmf lists [$(echo $listed)] but the directory holds [$(echo $present)]"
}

if [ "$mode" != --tmpfs ]; then
  # 1. The output path runs through a regular file: the directory cannot be created.
  touch "$scratch/a-file"
  expect_failure "path through a file" \
    "cannot create output directory '$scratch/a-file/out': Not a directory" \
    "$fdsolve" run "$plate" --backend cpu --output "$scratch/a-file/out"

  # 2. An existing directory without write permission: refused before any iteration. Root
  # ignores permissions, so as root the run is made as the user nobody (setpriv).
  ro=$scratch/read-only
  mkdir -p "$ro"
  as_user=()
  binary=$fdsolve
  case_file=$plate
  if [ "$(id -u)" -eq 0 ]; then
    # nobody may enter the scratch directory but not write in it; the binary and the case are
    # copied there, as the checkout itself may not be readable by nobody.
    cp "$fdsolve" "$scratch/fdsolve"
    cp "$plate" "$scratch/plate.yaml"
    chmod 755 "$scratch" "$ro" "$scratch/fdsolve"
    chmod 644 "$scratch/plate.yaml"
    binary=$scratch/fdsolve
    case_file=$scratch/plate.yaml
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  else
    chmod 555 "$ro"
  fi
  if [ "$(id -u)" -ne 0 ] || command -v setpriv >/dev/null 2>&1; then
    expect_failure "directory without write permission" \
      "cannot write in output directory '$ro': Permission denied" \
      "${as_user[@]}" "$binary" run "$case_file" --backend cpu --output "$ro"
    [ -z "$(ls -A "$ro")" ] || fail "the read-only directory holds files: $(ls -A "$ro")"
  else
    echo "note: root without setpriv: the permission case is not checked"
  fi

  # 3. Writes that fail part-way (a file-size limit of 100 KiB below one 133 KB dataset):
  # the first snapshot cannot be written; nothing may be left but the empty directory.
  out=$scratch/limited
  expect_failure "write failing part-way" \
    "$out/plate_00000100.h5: cannot write dataset /u (HDF5: file write failed: File too large)" \
    bash -c 'trap "" XFSZ; ulimit -f 100; exec "$@"' limit "$fdsolve" run "$plate" "${big[@]}" \
    --output "$out"
  no_partial_files "$out" "write failing part-way"
  [ -z "$(ls -A "$out" 2>/dev/null)" ] || fail "write failing part-way left: $(ls -A "$out")"
else
  # Mount a tiny tmpfs: directly as root, else inside a user namespace (re-running this script
  # there), else skip.
  if [ "$(id -u)" -ne 0 ]; then
    if [ -z "${FDSOLVE_IN_USERNS:-}" ] && unshare -rm true 2>/dev/null; then
      FDSOLVE_IN_USERNS=1 exec unshare -rm bash "$0" "$@"
    fi
    echo "SKIP: cannot mount a tmpfs (not root, no user namespaces)"
    exit 77
  fi
  mnt=$scratch/mnt
  mkdir -p "$mnt"
  if ! mount -t tmpfs -o size=400k tmpfs "$mnt" 2>/dev/null; then
    echo "SKIP: cannot mount a tmpfs here (no CAP_SYS_ADMIN)"
    exit 77
  fi
  mounted=$mnt

  # 4. The disk fills up at the second snapshot: the first, its .xmf entry and history.csv
  # stay complete, the second leaves nothing behind.
  out=$mnt/out
  expect_failure "disk full at the second snapshot" \
    "$out/plate_00000200.h5: cannot write dataset" \
    "$fdsolve" run "$plate" "${big[@]}" --output "$out"
  grep -q "No space left on device" "$scratch/stderr" || fail "disk full: no ENOSPC message"
  no_partial_files "$out" "disk full at the second snapshot"
  [ -f "$out/plate_00000100.h5" ] || fail "disk full: the first snapshot is missing"
  [ ! -e "$out/plate_00000200.h5" ] || fail "disk full: a second snapshot exists"
  [ ! -e "$out/summary.json" ] || fail "disk full: summary.json written after a failed run"

  # 5. A disk that is already full: refused before any iteration.
  rm -rf "$out"
  dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null
  expect_failure "disk already full" \
    "cannot write in output directory '$mnt': No space left on device" \
    "$fdsolve" run "$plate" --backend cpu --output "$mnt"
  [ "$(ls -A "$mnt")" = filler ] || fail "disk already full: left $(ls -A "$mnt")"

  # 6. A read-only filesystem.
  rm -f "$mnt/filler"
  mount -o remount,ro "$mnt"
  expect_failure "read-only filesystem" \
    "cannot write in output directory '$mnt': Read-only file system" \
    "$fdsolve" run "$plate" --backend cpu --output "$mnt"
fi

echo "output failures: $failures failures"
[ "$failures" -eq 0 ]
