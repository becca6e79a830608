#!/usr/bin/env bash
# Record asv results for landed commits on this machine, into the repository's
# benchmarks/results/ (asv.conf.json's results_dir), so that the history of
# every kind of host accumulates in git. See docs/benchmarking.md, "Recording
# history".
#
#   bash benchmarks/record.sh                 # HEAD (run it on main after a merge lands)
#   bash benchmarks/record.sh main~3 main     # several commits
#   bash benchmarks/record.sh main~20..main   # a range (git rev-list syntax)
#   RECORD_STEP=5 bash benchmarks/record.sh 7b99a49..main   # every 5th commit of a range
#
# Needs asv in the current Python (pip install -e ".[bench]"); asv builds each
# commit in its own virtualenv under .asv/env. The machine entry is named after
# the kind of host (CPU model and vector width, e.g. amd-epyc-avx2; override
# with RECORD_MACHINE), so every host of one kind adds to one history.
#
# Per commit: a warm-up pass (--quick --dry-run, nothing saved) fills the
# commit's Numba cache with background compiles off, so that no timed process
# is served by a stand-in engine while the bitslice kernels compile; then the
# headline subset at full asv rigour (default rounds and repeats, not --quick).
# One line per commit goes to benchmarks/results/MACHINE/recordings.tsv: when,
# how long, the load average before and after (a loaded host gives noisy
# figures: say so when you read them). Then commit benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

# The headline benchmarks (what benchmarks/plot_history.py draws). The regex
# matches asv's names with parameters, e.g. EcbTime.time_ecb_encrypt_1MiB('table').
# ECB is taken from EcbTime, a time_ benchmark: asv's full statistics (2 rounds
# in separate processes, up to 10 repeats each, quartiles kept). The track_
# benchmarks get one process per figure at any rigour (asv keeps no samples
# for them); each of their figures is a median of three timed loops.
SUBSET="EcbTime.time_ecb_encrypt_1MiB"
SUBSET+="|DesModes.track_des\('ctr', 'encrypt'\)"
SUBSET+="|TripleDesModes.track_3des\('cbc', 'encrypt'\)"
SUBSET+="|SmallCalls.track_call"
WARMUP="$SUBSET"
SUBSET+="|FirstCall.track_first_call_seconds\('auto', '(cold|warm)'\)"

machine_name() {
    # CPU model (lower case, words joined by '-') plus the widest vector unit.
    local model flags width
    model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- || true)
    [ -n "$model" ] || model=$(sysctl -n machdep.cpu.brand_string 2>/dev/null || uname -m)
    flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
    case " $flags " in
        *" avx512f "*) width=avx512 ;;
        *" avx2 "*) width=avx2 ;;
        *) width=$(uname -m) ;;
    esac
    model=$(printf '%s' "$model" | tr 'A-Z' 'a-z' \
        | sed -E 's/\((r|tm)\)//g; s/ (cpu|processor)( |$)/ /g; s/@.*//; s/[0-9]+-core//g' \
        | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$//g')
    printf '%s-%s\n' "$model" "$width"
}

machine=${RECORD_MACHINE:-$(machine_name)}
# The machine entry (~/.asv-machine.json, which asv copies into the results)
# holds only what is the same on every host of this kind, since asv draws one
# line per distinct set of these values: the OS without its kernel release,
# the RAM in whole GiB. Written directly: `asv machine --machine NAME --yes`
# stores only the fields given that differ from its defaults.
python - "$machine" <<'EOF'
import platform
import sys

from asv.machine import Machine, MachineCollection

d = Machine.get_defaults()
ram = d["ram"]
MachineCollection.save(sys.argv[1], {
    "machine": sys.argv[1], "os": platform.system(), "arch": d["arch"], "cpu": d["cpu"],
    "num_cpu": d["num_cpu"], "ram": f"{round(int(ram) / 2**30)} GiB" if ram.isdigit() else ram})
EOF

specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(HEAD)
commits=()
for spec in "${specs[@]}"; do
    if [[ "$spec" == *..* ]]; then
        mapfile -t found < <(git rev-list --first-parent --reverse "$spec")
        step=${RECORD_STEP:-1}
        for i in "${!found[@]}"; do
            if (( (${#found[@]} - 1 - i) % step == 0 )); then commits+=("${found[$i]}"); fi
        done
    else
        commits+=("$(git rev-parse --verify "$spec^{commit}")")
    fi
done

log="benchmarks/results/$machine/recordings.tsv"
mkdir -p "$(dirname "$log")"
[ -s "$log" ] || printf 'commit\trecorded_utc\tseconds\tload_before\tload_after\n' >"$log"
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null | tr ' ' '/' || echo n/a; }

failed=()
for commit in "${commits[@]}"; do
    short=${commit:0:8}
    git merge-base --is-ancestor "$commit" main 2>/dev/null \
        || echo "record: $short is not on main; asv publish shows only main's commits" >&2
    echo "record: $short on $machine (load $(load))"
    start=$SECONDS
    before=$(load)
    # A failure (asv exits 2 when a benchmark failed) is reported at the end and
    # does not stop the other commits; what did run is saved all the same.
    NUMBADES_BACKGROUND_COMPILE=0 asv run --machine "$machine" --quick --dry-run \
        --bench "$WARMUP" "$commit^!" >/dev/null || true
    asv run --machine "$machine" --show-stderr --bench "$SUBSET" "$commit^!" \
        || failed+=("$short")
    elapsed=$((SECONDS - start))
    printf '%s\t%s\t%s\t%s\t%s\n' "$short" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$elapsed" \
        "$before" "$(load)" >>"$log"
    size=$(du -cb "benchmarks/results/$machine/$short"-*.json 2>/dev/null | tail -1 | cut -f1)
    echo "record: $short took ${elapsed} s, ${size:-0} bytes of results"
done
echo "record: now commit benchmarks/results/ (git add benchmarks/results && git commit)"
if [ ${#failed[@]} -gt 0 ]; then
    echo "record: benchmarks failed on ${failed[*]} (see asv's output above)" >&2
    exit 1
fi
