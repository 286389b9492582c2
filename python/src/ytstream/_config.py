"""``configure``: the Spark settings a session needs to read and write YTsaurus with ytstream."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit

from ytstream._jars import jar_path

#: What a keyword setting may be given as; Spark receives its text form.
SettingValue = str | int | float | bool | Path

#: The delivery modes a session is in; idempotent receivers and producer sessions are per query.
MODES = ("at-least-once", "transactional")

PROXY = "spark.hadoop.yt.proxy"
TOKEN = "spark.hadoop.yt.token"
TRANSACTIONAL = "spark.yt.streaming.transactional"


class SupportsConfig(Protocol):
    """What :func:`configure` needs of a builder: ``SparkSession.builder`` and its kin."""

    def config(self, key: str, value: str) -> Any:
        """Set one Spark setting."""


B = TypeVar("B", bound=SupportsConfig)


def _positive(name: str, key: str, text: str) -> None:
    if not re.fullmatch(r"[0-9]+", text) or int(text) < 1:
        raise ValueError(
            f"ytstream.configure: {name}={text!r} is not a whole number of 1 or more ({key});"
            f" give e.g. {name}=10000"
        )


def _non_negative(name: str, key: str, text: str) -> None:
    if not re.fullmatch(r"[0-9]+", text):
        raise ValueError(
            f"ytstream.configure: {name}={text!r} is not a whole number of 0 or more ({key});"
            f" give e.g. {name}=100"
        )


def _boolean(name: str, key: str, text: str) -> None:
    if text not in ("true", "false"):
        raise ValueError(
            f"ytstream.configure: {name}={text!r} is not a boolean ({key}); give {name}=True"
            f" or {name}=False"
        )


def _file(name: str, key: str, text: str) -> None:
    if not Path(text).expanduser().is_file():
        raise ValueError(
            f"ytstream.configure: {name}={text!r} is not a file on this machine ({key}); give the"
            " path of a file that exists where the driver runs"
        )


def _yson(name: str, key: str, text: str) -> None:
    if text.strip().lower() != "yson":
        raise ValueError(
            f"ytstream.configure: {name}={text!r}: rows travel as binary YSON only ({key});"
            f" remove {name}"
        )


def _any(name: str, key: str, text: str) -> None:
    if not text:
        raise ValueError(f"ytstream.configure: {name} is empty ({key}); give a value or omit it")


_Check = Callable[[str, str, str], None]

#: The settings ytstream reads, with a check of their value. Keyword names replace the dots after
#: ``spark.yt.`` (or ``spark.hadoop.yt.``) with underscores: ``write_dynBatchSize``.
KNOWN: dict[str, _Check] = {
    "spark.yt.write.dynBatchSize": _positive,
    "spark.yt.write.maxRowsPerTabletPerTransaction": _positive,
    "spark.yt.write.typeV3.enabled": _boolean,
    "spark.yt.read.typeV3.enabled": _boolean,
    "spark.yt.streaming.transactionTimeoutMs": _positive,
    "spark.hadoop.yt.cluster.name": _any,
    "spark.hadoop.yt.http.requestTimeoutMs": _positive,
    "spark.hadoop.yt.http.connectTimeoutMs": _positive,
    "spark.hadoop.yt.http.maxAttempts": _positive,
    "spark.hadoop.yt.http.backoffMs": _non_negative,
    "spark.hadoop.yt.http.discoverHeavyProxies": _boolean,
    "spark.hadoop.yt.http.format": _yson,
    "spark.hadoop.yt.http.caCertificates": _file,
    "spark.hadoop.yt.http.trustStore": _file,
    "spark.hadoop.yt.http.trustStorePassword": _any,
}

_KEYWORDS: dict[str, str] = {
    key.removeprefix("spark.hadoop.yt.").removeprefix("spark.yt.").replace(".", "_"): key
    for key in KNOWN
}

#: Families of settings passed through as given (SPYT's ``spark.ytsaurus.*`` included).
_PREFIXES = ("spark.yt.", "spark.hadoop.yt.", "spark.ytsaurus.")

#: Settings that have their own argument.
_OWN_ARGUMENT = {PROXY: "proxy", TOKEN: "token", TRANSACTIONAL: "mode"}


def _text(name: str, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str, Path)):
        return str(value)
    raise TypeError(
        f"ytstream.configure: {name} is a {type(value).__name__}; give a str, int, float, bool"
        " or path"
    )


def _setting_key(name: str) -> str:
    if "." in name:
        key = name
    elif name in _KEYWORDS:
        return _KEYWORDS[name]
    else:
        known = ", ".join(sorted(_KEYWORDS))
        raise ValueError(
            f"ytstream.configure: unknown setting {name}=...; the keyword settings are {known}"
            " (a setting's name with its dots as underscores). Pass any other spark.yt.* setting"
            ' by its full name: **{"spark.yt.<name>": value}'
        )
    if key in _OWN_ARGUMENT:
        raise ValueError(
            f"ytstream.configure: give {key} as the argument {_OWN_ARGUMENT[key]}=..., not as a"
            " setting"
        )
    if not key.startswith(_PREFIXES):
        raise ValueError(
            f"ytstream.configure: {key} is not a YTsaurus setting (spark.yt.*, spark.hadoop.yt.*,"
            f" spark.ytsaurus.*); set it on the builder itself: .config({key!r}, ...)"
        )
    return key


def check_proxy(proxy: object) -> str:
    """Return ``proxy`` when it is a YTsaurus HTTP proxy address, else raise naming the fix."""
    example = 'proxy="http://localhost:8000" or proxy="yt.example.com"'
    if not isinstance(proxy, str):
        raise TypeError(
            f"ytstream.configure: proxy is a {type(proxy).__name__}; give a str: {example}"
        )
    if not proxy or proxy != proxy.strip() or any(c.isspace() for c in proxy):
        raise ValueError(
            f"ytstream.configure: proxy={proxy!r} is empty or holds whitespace; give {example}"
        )
    if "://" in proxy:
        parts = urlsplit(proxy)
        if parts.scheme not in ("http", "https"):
            raise ValueError(
                f"ytstream.configure: proxy={proxy!r}: the scheme must be http or https (or none,"
                f" a bare host[:port]); give {example}"
            )
        host, path = parts.netloc, parts.path
    else:
        host, path = proxy, ""
    port = None
    if ":" in host and not host.endswith("]"):
        host, _, port = host.rpartition(":")
    if (
        not host
        or path not in ("", "/")
        or not re.fullmatch(r"[A-Za-z0-9._\-\[\]:]+", host)
        or (port is not None and not (port.isdigit() and 0 < int(port) < 65536))
    ):
        raise ValueError(
            f"ytstream.configure: proxy={proxy!r} is not a proxy address (host[:port], with"
            f" http:// or https:// or neither, and no path); give {example}"
        )
    return proxy


def _check_token(token: str, source: str) -> str:
    # The official client's rule (yt/wrapper/http_helpers.py, validate_token): printable ASCII
    # without spaces. The value itself is never put in a message.
    if not token or not all(33 <= ord(c) <= 126 for c in token):
        raise ValueError(
            f"ytstream.configure: the token from {source} is empty or holds whitespace or a"
            " character outside printable ASCII (its value is not shown); give the token exactly"
            " as YTsaurus issued it"
        )
    return token


def find_token(
    token: str | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> str | None:
    """Return the token as YTsaurus' own tools find it, or ``None`` when there is none.

    The order is the official Python client's: the argument, the environment variable
    ``YT_TOKEN``, then the file named by ``YT_TOKEN_PATH`` (default ``~/.yt/token``), stripped.
    An empty variable or file counts as none.
    """
    if token is not None:
        if not isinstance(token, str):
            raise TypeError(
                f"ytstream.configure: token is a {type(token).__name__}; give a str (or omit it to"
                " read YT_TOKEN or ~/.yt/token)"
            )
        return _check_token(token, "the argument token")
    env = os.environ if environ is None else environ
    if env.get("YT_TOKEN"):
        return _check_token(env["YT_TOKEN"], "the environment variable YT_TOKEN")
    given = env.get("YT_TOKEN_PATH")
    path = Path(given).expanduser() if given else (home or Path.home()) / ".yt" / "token"
    if given and not path.is_file():
        raise ValueError(
            f"ytstream.configure: YT_TOKEN_PATH={given!r} is not a file; point it at the token"
            " file or unset it"
        )
    if path.is_file():
        text = path.read_text(encoding="utf-8").strip()
        if text:
            return _check_token(text, f"the file {path}")
    return None


def _jars_with_ours(builder: SupportsConfig, jar: str) -> str:
    # PySpark's builders keep their settings in _options; read it, if there, so that a spark.jars
    # given before configure is kept rather than replaced.
    options = getattr(builder, "_options", None)
    existing = options.get("spark.jars") if isinstance(options, dict) else None
    jars = [j for j in str(existing).split(",") if j.strip()] if existing else []
    if jar not in jars:
        jars.append(jar)
    return ",".join(jars)


def configure(
    builder: B,
    proxy: str | None = None,
    token: str | None = None,
    mode: str = "at-least-once",
    **settings: SettingValue,
) -> B:
    """Configure a Spark session builder to read and write YTsaurus with ytstream.

    Adds the connector jar to ``spark.jars`` (keeping jars already named there), the proxy as
    ``spark.hadoop.yt.proxy``, the token as ``spark.hadoop.yt.token`` (Spark shows it as
    ``<redacted>``), the delivery mode as ``spark.yt.streaming.transactional`` and any further
    YTsaurus setting. Every value is checked here, so a mistake fails before Spark starts.

    Parameters
    ----------
    builder : :class:`pyspark.sql.SparkSession.Builder`
        ``SparkSession.builder``, with ``master``, ``appName`` or other settings already given or
        not; any object with ``config(key, value)`` works.
    proxy : str, optional
        The YTsaurus HTTP proxy: ``http://host:port``, ``https://host`` or a bare
        ``host[:port]``. Defaults to the environment variable ``YT_PROXY``.
    token : str, optional
        The OAuth token. Defaults to ``YT_TOKEN``, then the file named by ``YT_TOKEN_PATH``
        (default ``~/.yt/token``), as YTsaurus' own tools read it; with none, no token is set
        (an open local cluster, the emulator without ``--token``).
    mode : str, default "at-least-once"
        ``"at-least-once"`` or ``"transactional"`` (exactly once for any query: each batch's
        output rows and consumer offsets commit in one tablet transaction). The idempotent
        receiver (``include_service_columns``) and producer sessions (``producer_path``) are
        options of a query, in either mode.
    **settings
        Further settings. Those ytstream reads go by their name after ``spark.yt.`` or
        ``spark.hadoop.yt.``, with underscores for dots: ``write_dynBatchSize=10000``,
        ``read_typeV3_enabled=True``, ``http_caCertificates="/etc/ssl/yt.pem"``. Any other
        ``spark.yt.*``, ``spark.hadoop.yt.*`` or ``spark.ytsaurus.*`` setting goes by its full
        name: ``**{"spark.ytsaurus.rpc.job.proxy.enabled": False}``. Booleans become
        ``"true"``/``"false"``.

    Returns
    -------
    :class:`pyspark.sql.SparkSession.Builder`
        The same builder, for chaining.

    Raises
    ------
    ValueError
        For a missing or malformed proxy, an unknown mode or setting, a malformed token or a
        setting's bad value; the message names the argument, its value (never the token's) and
        the fix.
    TypeError
        For an argument of the wrong type.
    FileNotFoundError
        When the package carries no connector jar (it was not installed from the built wheel).

    Notes
    -----
    PySpark passes these settings to the JVM when it starts it, at the first ``getOrCreate()``
    of the Python process; a jar named later does not reach the driver's class path. The
    ``spark.yt.*`` settings may also change between queries with ``spark.conf.set``.

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> import ytstream
    >>> spark = ytstream.configure(
    ...     SparkSession.builder.appName("queue-to-table"),
    ...     proxy="https://yt.example.com",
    ...     mode="transactional",
    ...     write_dynBatchSize=10000,
    ... ).getOrCreate()  # doctest: +SKIP
    """
    if proxy is None:
        proxy = os.environ.get("YT_PROXY") or None
        if proxy is None:
            raise ValueError(
                'ytstream.configure: no proxy: pass proxy=... (e.g. proxy="http://localhost:8000"'
                " for the emulator) or set the environment variable YT_PROXY"
            )
    check_proxy(proxy)
    if mode not in MODES:
        raise ValueError(
            f'ytstream.configure: mode={mode!r} is not a session mode; give mode="at-least-once"'
            ' or mode="transactional" (the idempotent receiver and producer sessions are query'
            " options: include_service_columns, producer_path)"
        )
    found = find_token(token)
    pairs: list[tuple[str, str]] = []
    for name, value in settings.items():
        key = _setting_key(name)
        text = _text(name, value)
        check = KNOWN.get(key)
        if check is not None:
            check(name, key, text)
        pairs.append((key, text))

    jar = jar_path()
    builder.config("spark.jars", _jars_with_ours(builder, jar))
    builder.config(PROXY, proxy)
    if found is not None:
        builder.config(TOKEN, found)
    builder.config(TRANSACTIONAL, "true" if mode == "transactional" else "false")
    for key, text in pairs:
        builder.config(key, text)
    return builder
