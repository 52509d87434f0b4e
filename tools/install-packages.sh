#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are not installed yet (apt-get, with
# sudo when not root); the one place the install scripts share.
#   tools/install-packages.sh LABEL PACKAGE...
set -euo pipefail

label=$1
shift
missing=()
for p in "$@"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "$label: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "$label: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
