#!/usr/bin/env bash
# Run one training module on a lent GPU machine, from the checkout's root there:
#
#     bash training/device_run.sh learn.train search --init .gpu/d72.pt ... --device cuda --out "$OUT"
#
# That machine has torch but no installed dicecam, and the repository's own dicecam/
# folder (the CLI alone) would shadow the package from the working folder: Python runs
# with -P (the working folder not on its path) and PYTHONPATH at a copy of dicecam/ whose
# subpackages link to the checkout's folders, as pyproject.toml maps them. The shared
# photo sets are read from DICECAM_DATASETS (default .gpu/datasets: `training.data.pack`).
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: bash training/device_run.sh MODULE [ARGS...]   (MODULE under dicecam.training, e.g. learn.train)" >&2
    exit 2
fi
root=$PWD
shim=$(mktemp -d)
mkdir -p "$shim/dicecam"
cp dicecam/*.py "$shim/dicecam/"
cp -r dicecam/commands "$shim/dicecam/"
for package in models scoring training vision webapp; do
    ln -s "$root/$package" "$shim/dicecam/$package"
done
export PYTHONPATH="$shim" PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
export DICECAM_DATASETS="${DICECAM_DATASETS:-$root/.gpu/datasets}"
module=$1
shift
exec python3 -P -m "dicecam.training.$module" "$@"
