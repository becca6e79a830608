#!/usr/bin/env bash
# The asv part of CI: publish the committed history, validate the suite and
# run a subset once, quickly.
# Run from anywhere, with asv and numbades installed in the current Python
# environment (.ci/run: `pip install ".[bench]"` into the test venv;
# by hand: `pip install -e ".[bench]"`): `--python=same` benchmarks the numbades
# that environment imports (asv drops PYTHONPATH), and nothing is saved.
# Fails if `asv publish` fails on benchmarks/results/ or leaves out a recorded
# machine, if asv check finds a problem, if any benchmark fails or times out, or
# if the subset matches nothing. Takes about 75 s on 2 cores with a warm Numba
# cache, under 3 minutes with a cold one; budget 10 minutes (the run is cut off
# at 9, to leave room for a slow or loaded machine).
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The kept history (benchmarks/results/) must publish: no benchmark runs here.
asv publish --no-pull --html-dir "$scratch/html" >/dev/null
python - "$scratch/html/index.json" benchmarks/results <<'EOF'
import json, sys
from pathlib import Path
published = set(json.loads(Path(sys.argv[1]).read_text())["params"]["machine"])
recorded = {p.parent.name for p in Path(sys.argv[2]).glob("*/*.json") if p.name != "machine.json"}
if not recorded or recorded - published:
    sys.exit(f"ci_asv: asv publish left out recorded machines {sorted(recorded - published)}")
print(f"ci_asv: asv publish: machines {sorted(published)}")
EOF

# The runs below save nothing, but asv still writes this machine's machine.json
# into results_dir: point it (and nothing else) at a scratch copy of the config.
python - "$PWD" "$scratch" <<'EOF'
import json, os, sys
from asv import util
root, scratch = sys.argv[1:]
conf = util.load_json(os.path.join(root, "asv.conf.json"), js_comments=True)
for key in ("repo", "benchmark_dir", "env_dir", "html_dir"):
    conf[key] = os.path.join(root, conf[key])
conf["results_dir"] = os.path.join(scratch, "results")
with open(os.path.join(scratch, "asv.conf.json"), "w") as f:
    json.dump(conf, f)
EOF
conf="$scratch/asv.conf.json"
asv machine --yes >/dev/null
asv check --config "$conf" --python=same

# One process per benchmark and parameter combination, one sample each, no
# warm-up. The regex picks combinations by their printed form, e.g.
# EcbThroughput.track_ecb_encrypt('table', '4 KiB'). Every benchmark method runs
# at least once; features not in the library are skipped (n/a), not failed.
subset="EcbThroughput.track_ecb_(en|de)crypt\('(table|table\+unroll\+risc2\+ptr|bitslice)', '4 KiB'\)"
subset+="|EcbTime.time_ecb_encrypt_1MiB\('(table|bitslice)'\)"
subset+="|BitsliceThreads"
subset+="|DesModes.track_des"
subset+="|TripleDesModes.track_3des\('cbc', 'encrypt'\)|TripleDesModes.track_3des\('ecb', 'decrypt'\)"
subset+="|EncryptMany.track_cbc_many"
subset+="|KeySchedule.track_key_setup"
subset+="|KeyArrayEcb.track_ecb_one_block_per_key\('DESArray', 'auto'\)"
subset+="|CryptMany.track_crypt_many\('arrays'\)"
subset+="|KeySetupFirstBlock.track_key_setup_and_first_block\('DES', 'bitslice'\)"
subset+="|SmallCalls.track_call\('DES-ECB 16 B'\)"
subset+="|FirstCall.track_first_call_seconds\('table', 'cold'\)"
subset+="|FirstCall.track_first_encrypt_seconds\('table', 'warm'\)"
subset+="|PeakMemory.peakmem_ecb_64MiB\('uint8 array'\)"
subset+="|PeakMemoryInPlace.peakmem_cbc_64MiB_in_place\('uint8 array'\)"

log="$scratch/run.log"
status=0
timeout 540 asv run --config "$conf" --python=same --quick --show-stderr --bench "$subset" 2>&1 \
    | tee "$log" || status=$?
# asv exits 2 when a benchmark failed (124: cut off by timeout). The log check
# also catches failures asv reports with exit status 0: a benchmark's status
# column ("failed", "1/2 failed") or asv's own "benchmark failed"/"timed out".
if [ "$status" -ne 0 ] \
    || grep -Eq '^\[ *[0-9.]+%\] .* ([0-9]+/[0-9]+ )?failed[[:space:]]*$' "$log" \
    || grep -Eq 'asv: benchmark (failed|timed out)' "$log"; then
    echo "ci_asv: benchmark failures (asv exit status $status)" >&2
    exit 1
fi
if ! grep -Eq 'Running [1-9][0-9]* total benchmarks' "$log"; then
    echo "ci_asv: the subset matched no benchmarks" >&2
    exit 1
fi
echo "ci_asv: asv check and quick run passed in $((SECONDS - start)) s"
