# Shared by build-wheel and run-tests: the paths and the Python check.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "$here/.." && pwd)
target="$here/target"
python=${PYTHON:-python3}
version=${YTSTREAM_VERSION:-0.1.0-SNAPSHOT}
connector_jar=${CONNECTOR_JAR:-$root/spark-connector/target/spark-connector-$version.jar}
emulator_jar=${EMULATOR_JAR:-$root/ytsaurus-emulator/target/ytsaurus-emulator-all.jar}

require_python() {
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "error: the Python package (python/) needs Python 3.10 or newer with venv and pip, and" \
      "found no '$python' on PATH. Install it (Debian/Ubuntu: apt-get install python3" \
      "python3-venv python3-pip), point PYTHON at one, or leave the module out" \
      "(-pl '!python')." >&2
    exit 1
  fi
  if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    echo "error: the Python package (python/) needs Python 3.10 or newer (PySpark 4 does);" \
      "$python is $("$python" -V 2>&1). Install a newer one or point PYTHON at it." >&2
    exit 1
  fi
}

# make_venv DIR REQUIREMENTS: a virtual environment with those pinned packages, made again
# whenever the requirements file changes.
make_venv() {
  local venv=$1 requirements=$2
  if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$venv/requirements.installed"; then
    rm -rf "$venv"
    if ! "$python" -m venv "$venv"; then
      echo "error: '$python -m venv' failed: install the venv module (Debian/Ubuntu: apt-get" \
        "install python3-venv)." >&2
      exit 1
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/requirements.installed"
  fi
}
