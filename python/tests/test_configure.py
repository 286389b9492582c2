"""configure, the token search and the jars, without Spark: what lands in the builder."""

from __future__ import annotations

import site
import zipfile
from pathlib import Path
from typing import Any

import pytest

import ytstream


class Builder:
    """Records config calls as PySpark's builder does (its _options)."""

    def __init__(self, **options: str) -> None:
        self._options: dict[str, str] = dict(options)

    def config(self, key: str, value: str) -> Builder:
        self._options[key] = value
        return self


@pytest.fixture(autouse=True)
def no_ambient_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Every test starts with no YT_* variable and an empty home."""
    for name in ("YT_TOKEN", "YT_TOKEN_PATH", "YT_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_the_package_is_the_installed_wheel_with_both_jars() -> None:
    assert any(ytstream.__file__.startswith(p) for p in site.getsitepackages())
    connector = Path(ytstream.jar_path())
    assert connector.name.startswith("spark-connector-") and connector.suffix == ".jar"
    with zipfile.ZipFile(connector) as jar:
        names = set(jar.namelist())
        assert "io/ytstream/spark/YtDataSource.class" in names
        services = jar.read("META-INF/services/org.apache.spark.sql.sources.DataSourceRegister")
        assert b"io.ytstream.spark.YtDataSource" in services
    with zipfile.ZipFile(ytstream.emulator_jar_path()) as jar:
        assert b"io.ytstream.emulator.YtEmulatorMain" in jar.read("META-INF/MANIFEST.MF")
    assert (Path(ytstream.__file__).parent / "py.typed").is_file()


def test_configure_sets_jar_proxy_token_and_mode() -> None:
    builder = Builder()
    assert (
        ytstream.configure(
            builder, proxy="http://localhost:8000", token="t0k", mode="transactional"
        )
        is builder
    )
    assert builder._options == {
        "spark.jars": ytstream.jar_path(),
        "spark.hadoop.yt.proxy": "http://localhost:8000",
        "spark.hadoop.yt.token": "t0k",
        "spark.yt.streaming.transactional": "true",
    }


def test_at_least_once_without_token_sets_no_token() -> None:
    builder = ytstream.configure(Builder(), proxy="yt.example.com:80")
    assert "spark.hadoop.yt.token" not in builder._options
    assert builder._options["spark.yt.streaming.transactional"] == "false"


def test_jars_already_named_are_kept_once() -> None:
    builder = Builder(**{"spark.jars": "/opt/a.jar,/opt/b.jar"})
    ytstream.configure(builder, proxy="localhost")
    ytstream.configure(builder, proxy="localhost")
    assert builder._options["spark.jars"] == f"/opt/a.jar,/opt/b.jar,{ytstream.jar_path()}"


def test_proxy_from_yt_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YT_PROXY", "https://yt.example.com")
    builder = ytstream.configure(Builder())
    assert builder._options["spark.hadoop.yt.proxy"] == "https://yt.example.com"


def test_token_search_follows_the_official_client(
    monkeypatch: pytest.MonkeyPatch, no_ambient_token: Path
) -> None:
    home_file = no_ambient_token / ".yt" / "token"
    home_file.parent.mkdir()
    home_file.write_text("from-home\n")
    assert ytstream.find_token() == "from-home"
    other = no_ambient_token / "other-token"
    other.write_text("  from-path  ")
    monkeypatch.setenv("YT_TOKEN_PATH", str(other))
    assert ytstream.find_token() == "from-path"
    monkeypatch.setenv("YT_TOKEN", "from-env")
    assert ytstream.find_token() == "from-env"
    assert ytstream.find_token("given") == "given"
    builder = ytstream.configure(Builder(), proxy="localhost")
    assert builder._options["spark.hadoop.yt.token"] == "from-env"


def test_empty_token_file_is_no_token(no_ambient_token: Path) -> None:
    (no_ambient_token / ".yt").mkdir()
    (no_ambient_token / ".yt" / "token").write_text("\n")
    assert ytstream.find_token() is None


def test_settings_by_keyword_and_by_full_name() -> None:
    builder = ytstream.configure(
        Builder(),
        proxy="localhost",
        write_dynBatchSize=100,
        read_typeV3_enabled=True,
        http_discoverHeavyProxies=False,
        **{"spark.ytsaurus.rpc.job.proxy.enabled": False, "spark.yt.some.future.setting": 1.5},
    )
    assert builder._options["spark.yt.write.dynBatchSize"] == "100"
    assert builder._options["spark.yt.read.typeV3.enabled"] == "true"
    assert builder._options["spark.hadoop.yt.http.discoverHeavyProxies"] == "false"
    assert builder._options["spark.ytsaurus.rpc.job.proxy.enabled"] == "false"
    assert builder._options["spark.yt.some.future.setting"] == "1.5"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({}, 'no proxy: pass proxy=... (e.g. proxy="http://localhost:8000"'),
        ({"proxy": "grpc://yt:9013"}, "proxy='grpc://yt:9013': the scheme must be http or https"),
        ({"proxy": "http://yt/api/v4"}, "proxy='http://yt/api/v4' is not a proxy address"),
        ({"proxy": "yt:99999"}, "proxy='yt:99999' is not a proxy address"),
        ({"proxy": " yt"}, "proxy=' yt' is empty or holds whitespace"),
        ({"proxy": "yt", "mode": "exactly-once"}, "mode='exactly-once' is not a session mode"),
        ({"proxy": "yt", "write_dynBatchSize": 0}, "write_dynBatchSize='0' is not a whole number"),
        (
            {"proxy": "yt", "write_typeV3_enabled": "yes"},
            "write_typeV3_enabled='yes' is not a boolean",
        ),
        ({"proxy": "yt", "http_format": "json"}, "rows travel as binary YSON only"),
        ({"proxy": "yt", "http_caCertificates": "/no/such.pem"}, "is not a file on this machine"),
        ({"proxy": "yt", "dynBatchSize": 10}, "unknown setting dynBatchSize=...; the keyword"),
        ({"proxy": "yt", "spark.yt.streaming.transactional": True}, "as the argument mode=..."),
        ({"proxy": "yt", "spark.hadoop.yt.token": "x"}, "as the argument token=..."),
        ({"proxy": "yt", "spark.sql.shuffle.partitions": 2}, "set it on the builder itself"),
    ],
)
def test_bad_input_names_the_argument_the_value_and_the_fix(
    arguments: dict[str, Any], expected: str
) -> None:
    builder = Builder()
    with pytest.raises(ValueError) as error:
        ytstream.configure(builder, **arguments)
    assert expected in str(error.value)
    assert builder._options == {}, "nothing is set when an argument is bad"


def test_wrong_types() -> None:
    with pytest.raises(TypeError, match="proxy is a int; give a str"):
        ytstream.configure(Builder(), proxy=8000)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="write_dynBatchSize is a list"):
        ytstream.configure(Builder(), proxy="yt", write_dynBatchSize=[1])  # type: ignore[arg-type]


def test_a_bad_token_is_refused_without_showing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError) as error:
        ytstream.configure(Builder(), proxy="yt", token="secret value\n")
    assert "the argument token" in str(error.value) and "secret" not in str(error.value)
    monkeypatch.setenv("YT_TOKEN", "sécret")
    with pytest.raises(ValueError, match="environment variable YT_TOKEN"):
        ytstream.configure(Builder(), proxy="yt")
    monkeypatch.delenv("YT_TOKEN")
    monkeypatch.setenv("YT_TOKEN_PATH", "/no/such/token")
    with pytest.raises(ValueError, match="YT_TOKEN_PATH='/no/such/token' is not a file"):
        ytstream.configure(Builder(), proxy="yt")
