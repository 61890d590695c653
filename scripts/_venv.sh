# Shared by scripts/run and scripts/test: a virtualenv in .venv with the project and its extras installed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.installed-$(cat pyproject.toml | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[dev]"
  rm -f .venv/.installed-* && touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
# Translations are compiled from the .po files kept in locale/.
if command -v msgfmt >/dev/null; then
  python manage.py compilemessages --verbosity 0 --ignore=.venv
else
  echo "note: msgfmt (gettext) is missing; pages will show English only" >&2
fi
