#!/usr/bin/env bash
# The asv part of CI: validate the suite and run a small subset once, quickly.
# Run from the repository root, with asv and numbades installed in the current
# Python environment (e.g. `pip install -e .[bench]`): `--python=same` benchmarks
# the numbades that environment imports, and asv drops PYTHONPATH.
# Fails if any benchmark fails. Takes about a minute (budget: 10 minutes; the
# timeout below is 9 minutes for the run, to leave room for compiling kernels the
# tests did not touch).
set -euo pipefail
cd "$(dirname "$0")/.."

asv machine --yes >/dev/null
asv check --python=same

# One sample, no warm-up, nothing saved. The regex picks parameter combinations by
# their printed form, e.g. EcbThroughput.track_ecb_encrypt('table', '4 KiB').
subset="EcbThroughput.track_ecb_encrypt\('table(\+unroll\+risc2\+ptr)?', '4 KiB'\)"
subset+="|DesModes.track_des\('cbc', '(en|de)crypt'\)"
subset+="|TripleDesModes.track_3des\('cbc', 'encrypt'\)"
subset+="|EncryptMany.track_cbc_many\(64,"
subset+="|KeySchedule.track_key_setup\('(DES|TripleDES)'\)"
subset+="|FirstCall.track_first_call_seconds\('table', 'cold'\)"
subset+="|PeakMemory.peakmem_ecb_64MiB\('uint8 array'\)"
subset+="|BitsliceThreads"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
timeout 540 asv run --python=same --quick --show-stderr --bench "$subset" 2>&1 | tee "$log" \
    || status=$?
# asv exits 2 when a benchmark failed; the log check also catches an asv that
# reports failures but exits 0, and a run that found nothing to do.
if [ "$status" -ne 0 ] || grep -Eq '(^|[^a-z])failed|asv: benchmark failed' "$log"; then
    echo "ci_asv: benchmark failures (asv exit status $status)" >&2
    exit 1
fi
if ! grep -q 'Running [1-9][0-9]* total benchmarks' "$log"; then
    echo "ci_asv: the subset matched no benchmarks" >&2
    exit 1
fi
echo "ci_asv: asv check and quick run passed"
