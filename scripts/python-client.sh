#!/usr/bin/env bash
# The Python client's checks (clients/python): a virtual environment with the client and its test dependencies,
# then ruff, mypy --strict and pytest. pytest starts `npm start` on the embedded engines with a fresh data directory
# and a free port, and runs the example notebooks (docs/notebooks) against it.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=clients/python/.venv
python=${PYTHON:-python3}

if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv"
  "$python" -m venv "$venv"
fi

# Where pip's configuration names package indexes (a local mirror on air-gapped machines), those and only those are
# asked: a missing package then fails at once instead of after minutes of retries against an unreachable PyPI.
indexes=()
for key in global.index-url global.extra-index-url; do
  value=$("$venv/bin/pip" config get "$key" 2> /dev/null || true)
  for url in $value; do indexes+=("$url"); done
done
if [ ${#indexes[@]} -gt 0 ]; then
  export PIP_INDEX_URL=${indexes[0]}
  export PIP_EXTRA_INDEX_URL="${indexes[*]:1}"
  [ -n "$PIP_EXTRA_INDEX_URL" ] || unset PIP_EXTRA_INDEX_URL
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1

# pip's output is shown only when it fails: a mirror lacking a package it does not need warns for every index.
pip_log=$(mktemp)
if ! "$venv/bin/pip" install --quiet "./clients/python[test]" > "$pip_log" 2>&1; then
  cat "$pip_log"
  rm -f "$pip_log"
  exit 1
fi
rm -f "$pip_log"

cd clients/python
echo "== Python client: ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== Python client: mypy --strict"
.venv/bin/mypy
echo "== Python client: pytest (a service of its own, and the notebooks)"
.venv/bin/python -m pytest -q -p no:cacheprovider
