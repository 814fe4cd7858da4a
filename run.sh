#!/usr/bin/env bash
# rifl: install what is missing, build, and run the module's jobs.
#
#   bash run.sh main      install + build + the main job: analytic tables and the
#                         paper-reproduction sweep with plots (results/); extra
#                         arguments go to `ns3rifl reproduce` (e.g. --full)
#   bash run.sh test      install + build + every QUICK test (ctest)
#   bash run.sh install   only install the missing Debian packages (as root)
#   bash run.sh build     only configure and build (in build/)
#   bash run.sh extensive the long (EXTENSIVE) test cases as well
#
# Environment: BUILD_DIR (default build), JOBS (default: number of cores).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}

# Debian packages the build, the tests and the jobs need.
PACKAGES=(
  g++ cmake ninja-build pkg-config
  ns3 libns3-dev libgsl-dev libsqlite3-dev libxml2-dev
  libboost-dev nlohmann-json3-dev
  pybind11-dev python3-pybind11 python3-dev
  python3-numpy python3-pandas python3-matplotlib python3-pytest python3-tqdm python3-distributed
  python3-sphinx
)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "run.sh: all Debian packages present"
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "run.sh: missing packages: ${missing[*]}; run as root (or install them) first" >&2
    exit 1
  fi
  echo "run.sh: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

run_tests() {
  ctest --test-dir "$BUILD_DIR" -L quick --output-on-failure -j "$JOBS" "$@"
}

main_job() {
  mkdir -p results
  (cd results && "../$BUILD_DIR/examples/rifl-reliability-tables")
  PYTHONPATH="$here/$BUILD_DIR/python" /usr/bin/python3 -m ns3rifl reproduce --out results/reproduce "$@"
  echo "run.sh: analytic tables in results/, the paper reproduction in results/reproduce/ (report.md, CSV, PNG)"
}

cmd=${1:-main}
shift || true
case "$cmd" in
  install) install_missing ;;
  build) install_missing; build ;;
  test) install_missing; build; run_tests "$@" ;;
  extensive) install_missing; build; ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" ;;
  main) install_missing; build; main_job "$@" ;;
  *) echo "usage: bash run.sh [main|test|install|build|extensive]" >&2; exit 2 ;;
esac
