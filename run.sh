#!/usr/bin/env bash
# rifl: install what is missing, build, and run the module's jobs.
#
#   bash run.sh main      install + build + the main job: analytic tables and the
#                         paper-reproduction sweep with plots (results/); extra
#                         arguments go to `ns3rifl reproduce` (e.g. --full)
#   bash run.sh test      install + build + every QUICK test (ctest), then the
#                         ASan+UBSan build (clang, build-san/): the quick C++
#                         suites and the fuzz corpora under the sanitizers, and
#                         each fuzz target for FUZZ_SECONDS (tools/run-fuzz)
#   bash run.sh install   only install the missing Debian packages (as root)
#   bash run.sh build     only configure and build (in build/)
#                         (build/ and build-san/ treat the module's compiler
#                         warnings as errors: -DRIFL_WERROR=ON)
#   bash run.sh extensive the long (EXTENSIVE) test cases as well
#   bash run.sh bench     install + a Release build without NS_LOG/NS_ASSERT in
#                         build-bench/ (as Debian's ns-3 is built) + the
#                         benchmarks, each a ratio against ns-3's own models in
#                         the same run: rifl-link-bench, direct-link-bench and
#                         fabric-bench k=8 (1 ms window, 3 runs each, about 15
#                         minutes); the same Release build with profile
#                         feedback in build-bench-pgo/ (tools/pgo-build) and
#                         rifl-link-bench --size=1500 on it; and with valgrind
#                         the instruction counts of tools/bench-instructions on
#                         both builds (results/bench/); not a test
#
# Environment: BUILD_DIR (default build), JOBS (default: number of cores),
# SAN_BUILD_DIR (default build-san), FUZZ_SECONDS (default 20 per target),
# SANITIZE=0 to leave out the sanitizer and fuzz step of `test`, BENCH_BUILD_DIR
# (default build-bench).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
SAN_BUILD_DIR=${SAN_BUILD_DIR:-build-san}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
SANITIZE=${SANITIZE:-1}

# Debian packages the build, the tests and the jobs need.
PACKAGES=(
  g++ cmake ninja-build pkg-config
  ns3 libns3-dev libgsl-dev libsqlite3-dev libxml2-dev
  libboost-dev nlohmann-json3-dev doxygen
  pybind11-dev python3-pybind11 python3-dev
  python3-numpy python3-pandas python3-matplotlib python3-pytest python3-tqdm python3-distributed
  clang libclang-rt-14-dev
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
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIFL_WERROR=ON
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

run_tests() {
  ctest --test-dir "$BUILD_DIR" -L quick --output-on-failure -j "$JOBS" "$@"
}

# The sanitizer configuration: module, tests, examples and fuzz targets built by
# clang with ASan+UBSan (cmake/sanitize.cmake, cmake/fuzz.cmake). Every quick
# C++ suite runs under the sanitizers (the Python tests do not: the bindings
# would need the sanitizer runtime preloaded into the interpreter, and they
# already ran in the normal build) but rifl-engine-equivalence (13 s in the
# normal build, 184 s under ASan+UBSan, which took the fresh-clone run from 12 to
# 16 minutes; the rifl-engine fuzz target compares both engines under the
# sanitizers instead), so do the fuzz corpora, then each fuzz target runs for
# FUZZ_SECONDS from its corpus.
sanitize_and_fuzz() {
  cmake -S . -B "$SAN_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DRIFL_SANITIZE=ON -DRIFL_FUZZ=ON -DRIFL_WERROR=ON
  cmake --build "$SAN_BUILD_DIR" -j "$JOBS"
  # Not under the sanitizers: Python (no bindings there), the install check (its
  # consumer program is built without the sanitizer run-time) and the doc builds.
  ctest --test-dir "$SAN_BUILD_DIR" -L quick -LE 'python|install|docs' \
    -E '^rifl-engine-equivalence$' --output-on-failure -j "$JOBS"
  # A fixed seed keeps this step reproducible (same inputs in the same order on every
  # machine); open-ended exploration with random seeds is `tools/run-fuzz TARGET SECONDS`.
  FUZZ_BUILD_DIR="$SAN_BUILD_DIR" JOBS="$JOBS" tools/run-fuzz all "$FUZZ_SECONDS" -seed=1
}

# Benchmarks compare with Debian's ns-3, a release build without logging and
# asserts, so the module is built the same way for them.
bench_job() {
  local dir=${BENCH_BUILD_DIR:-build-bench}
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRIFL_ENABLE_LOGS_ASSERTS=OFF \
    -DRIFL_ENABLE_PYTHON=OFF
  cmake --build "$dir" -j "$JOBS" --target rifl-link-bench direct-link-bench fabric-bench
  mkdir -p results/bench
  "$dir/examples/rifl-link-bench" --size=1500 --bers=0,1e-9,1e-7 --repeat=3 | tee results/bench/rifl-link-bench-1500.jsonl
  "$dir/examples/rifl-link-bench" --repeat=3 | tee results/bench/rifl-link-bench-mixed.jsonl
  "$dir/examples/direct-link-bench" | tee results/bench/direct-link-bench.jsonl
  "$dir/examples/fabric-bench" --k=8 --durationUs=1000 --repeat=3 --json=results/bench/fabric-bench-k8.json
  # The module's library built with profile feedback (tools/pgo-build, trained on
  # other workloads): the 1500 B link benchmark, and below the instruction counts
  # (whose k = 4 fabric needs fabric-bench).
  PGO_TARGETS="rifl-link-bench fabric-bench" tools/pgo-build "$dir-pgo" -DRIFL_ENABLE_PYTHON=OFF
  "$dir-pgo/examples/rifl-link-bench" --size=1500 --bers=0,1e-9,1e-7 --repeat=3 | tee results/bench/rifl-link-bench-1500-pgo.jsonl
  # Instruction counts (callgrind): the same ratios without the machine's noise.
  if command -v valgrind >/dev/null; then
    tools/bench-instructions "$dir" | tee results/bench/instructions.jsonl
    BENCH_INSTR_BERS="0 1e-9 1e-7" tools/bench-instructions "$dir-pgo" | tee results/bench/instructions-pgo.jsonl
  else
    echo "run.sh: valgrind missing, no instruction counts (apt-get install valgrind)"
  fi
  echo "run.sh: benchmark results in results/bench/"
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
  test)
    install_missing; build; run_tests "$@"
    if [ "$SANITIZE" != 0 ]; then sanitize_and_fuzz; fi
    ;;
  extensive) install_missing; build; ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" ;;
  main) install_missing; build; main_job "$@" ;;
  bench) install_missing; bench_job ;;
  *) echo "usage: bash run.sh [main|test|install|build|extensive|bench]" >&2; exit 2 ;;
esac
