#!/usr/bin/env bash
# The README's first set-up command, exactly as written, on the machine CI runs on: it installs
# `.[server]` (nothing more) and `dennou serve` must then answer. Run from the repository's
# root, in the venv CI uses, before the dev tools are installed (`.ci/run` does).
# The only change to the line: `--port` picks a free port instead of 8000.
set -euo pipefail
cd "$(dirname "$0")/.."
line="$(grep -m1 "^pip install -e '.\[server\]' && dennou serve" README.md || true)"
if [ -z "$line" ]; then
  echo "readme-setup-check: README.md has no set-up line \"pip install -e '.[server]' && dennou serve\"" >&2
  exit 1
fi
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
log="$(mktemp)"
bash -c "$line --port $port" >"$log" 2>&1 &
pid=$!
cleanup() {
  pkill -TERM -P "$pid" 2>/dev/null || true
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT
for _ in $(seq 1200); do  # pip may take minutes on a fresh machine
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "readme-setup-check: '$line' exited:" >&2
    cat "$log" >&2
    exit 1
  fi
  if python3 - "$port" <<'PY' 2>/dev/null; then
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/api/games", timeout=2) as reply:
    sys.exit(reply.status != 200)
PY
    echo "readme-setup-check: '$line' (port $port) answers"
    exit 0
  fi
  sleep 0.5
done
echo "readme-setup-check: no answer after 10 minutes" >&2
cat "$log" >&2
exit 1
