"""The jars the wheel carries: the connector for ``spark.jars`` and the emulator for tests."""

from __future__ import annotations

from pathlib import Path

_JARS = Path(__file__).parent / "jars"

_MISSING = (
    "ytstream's {what} jar is not in {folder}: this copy of the package was not built by the"
    " project's Maven build (a source checkout or an editable install). Install the wheel that"
    " `mvn -B -pl python -am package` writes to python/target/dist/, or pass the jar's path"
    " yourself ({fix})."
)


def _one(pattern: str, what: str, fix: str) -> Path:
    found = sorted(_JARS.glob(pattern))
    if not found:
        raise FileNotFoundError(_MISSING.format(what=what, folder=_JARS, fix=fix))
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        raise RuntimeError(f"ytstream's jar folder {_JARS} holds several {what} jars: {names}")
    return found[0]


def jar_path() -> str:
    """Return the path of the connector jar that the package carries.

    The jar holds the ``yt`` source and sink, the ``yt://`` checkpoint file system and the
    Real-time Mode writers, and no class of what Spark ships. Give it to ``spark-submit --jars``
    or ``spark.jars``; :func:`ytstream.configure` does the latter.

    Returns
    -------
    str
        The absolute path of ``spark-connector-<version>.jar`` inside the installed package.

    Raises
    ------
    FileNotFoundError
        When the package was installed without its jars (not from the built wheel).

    Examples
    --------
    >>> import ytstream
    >>> ytstream.jar_path()  # doctest: +SKIP
    '.../site-packages/ytstream/jars/spark-connector-0.1.0-SNAPSHOT.jar'
    """
    return str(_one("spark-connector-*.jar", "connector", "spark.jars=<the jar>"))


def emulator_jar_path() -> str:
    """Return the path of the YTsaurus emulator's runnable jar that the package carries.

    ``java -jar <path> --port 8000`` serves a local YTsaurus HTTP proxy over an in-memory
    cluster, for tests and demos; :mod:`ytstream.testing` starts it for pytest.

    Returns
    -------
    str
        The absolute path of ``ytsaurus-emulator-all.jar`` inside the installed package.

    Raises
    ------
    FileNotFoundError
        When the package was installed without its jars (not from the built wheel).
    """
    return str(_one("ytsaurus-emulator-all.jar", "emulator", "YTSTREAM_EMULATOR_JAR=<the jar>"))
