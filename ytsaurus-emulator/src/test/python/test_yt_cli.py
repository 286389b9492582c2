"""The queue workflow of the emulator's README, run with the official `yt` command line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from conftest import Emulator


def yt_cli(emulator: Emulator, *arguments: str, stdin: str | None = None) -> str:
    """Runs `yt --proxy <emulator> ...` as a user would, and returns what it printed."""
    executable = shutil.which("yt")
    assert executable is not None, "the yt command line is installed beside the client"
    environment = {**os.environ, "YT_PROXY": emulator.address}
    environment.pop("YT_TOKEN", None)
    done = subprocess.run(
        [executable, *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    assert done.returncode == 0, f"yt {' '.join(arguments)} failed:\n{done.stderr}"
    return done.stdout


def rows(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


@pytest.fixture()
def home(emulator: Emulator) -> str:
    path = f"//home/cli/{uuid.uuid4().hex[:12]}"
    yt_cli(emulator, "create", "map_node", path, "--recursive")
    return path


def pull_queue(emulator: Emulator, queue: str, partition: int) -> list[dict[str, object]]:
    """`yt pull-queue` from offset 0, as JSON rows."""
    output = yt_cli(
        emulator,
        *("pull-queue", "--queue-path", queue, "--partition-index", str(partition)),
        *("--offset", "0", "--format", "json"),
    )
    return rows(output)


def create_queue(emulator: Emulator, queue: str, tablets: int) -> None:
    """`yt create table` with a dynamic queue's attributes, then `yt mount-table --sync`."""
    attributes = f"{{dynamic=%true;tablet_count={tablets};schema=[{{name=data;type=string}}]}}"
    yt_cli(emulator, "create", "table", queue, "--attributes", attributes)
    yt_cli(emulator, "mount-table", queue, "--sync")


def test_queue_created_filled_registered_pulled_and_advanced(emulator: Emulator, home: str) -> None:
    queue, consumer = f"{home}/queue", f"{home}/consumer"
    create_queue(emulator, queue, tablets=2)
    assert yt_cli(emulator, "get", f"{queue}/@tablet_state").strip() == '"mounted"'
    yt_cli(emulator, "create", "queue_consumer", consumer)
    yt_cli(
        emulator,
        "register-queue-consumer",
        "--queue-path",
        queue,
        "--consumer-path",
        consumer,
        "--vital",
    )
    yt_cli(
        emulator,
        "insert-rows",
        queue,
        "--format",
        "<format=text>yson",
        stdin='{"$tablet_index"=0;data="a"};{"$tablet_index"=0;data="b"};'
        '{"$tablet_index"=1;data="c"};',
    )

    pulled = yt_cli(
        emulator,
        "pull-consumer",
        "--consumer-path",
        consumer,
        "--queue-path",
        queue,
        "--partition-index",
        "0",
        "--offset",
        "0",
        "--format",
        "json",
    )
    assert [row["data"] for row in rows(pulled)] == ["a", "b"]
    yt_cli(
        emulator,
        "advance-consumer",
        "--consumer-path",
        consumer,
        "--queue-path",
        queue,
        "--partition-index",
        "0",
        "--old-offset",
        "0",
        "--new-offset",
        "2",
    )
    offsets = rows(yt_cli(emulator, "select-rows", f"* from [{consumer}]", "--format", "json"))
    assert [(row["partition_index"], row["offset"]) for row in offsets] == [(0, 2)]
    assert [row["$$row_index"] for row in pull_queue(emulator, queue, 1)] == [0]


def test_producer_session_push(emulator: Emulator, home: str) -> None:
    queue, producer = f"{home}/queue", f"{home}/producer"
    create_queue(emulator, queue, tablets=1)
    yt_cli(emulator, "create", "queue_producer", producer)
    session = yt_cli(
        emulator,
        "create-queue-producer-session",
        "--producer-path",
        producer,
        "--queue-path",
        queue,
        "--session-id",
        "s1",
        "--format",
        "json",
    )
    assert json.loads(session)["epoch"] == 0
    push = ['{"$sequence_number"=0;data="x"};{"$sequence_number"=1;data="y"};']
    for _ in range(2):
        yt_cli(
            emulator,
            "push-queue-producer",
            "--producer-path",
            producer,
            "--queue-path",
            queue,
            "--session-id",
            "s1",
            "--epoch",
            "0",
            "--input-format",
            "<format=text>yson",
            stdin=push[0],
        )
    assert [row["data"] for row in pull_queue(emulator, queue, 0)] == ["x", "y"]
    yt_cli(
        emulator,
        "remove-queue-producer-session",
        "--producer-path",
        producer,
        "--queue-path",
        queue,
        "--session-id",
        "s1",
    )


def test_files(emulator: Emulator, home: str, tmp_path: Path) -> None:
    yt_cli(emulator, "write-file", f"{home}/notes", stdin="first line\n")
    assert yt_cli(emulator, "read-file", f"{home}/notes") == "first line\n"
    assert yt_cli(emulator, "exists", f"{home}/notes").strip() == "true"
    assert yt_cli(emulator, "list", home).split() == ["notes"]


def test_the_readme_workflow_runs_as_written(emulator: Emulator) -> None:
    """The README's `yt` session, line for line, against this emulator instead of port 8000."""
    readme = (Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## With the official client and the `yt` command line", 1)[1]
    block = section.split("```", 2)[1]
    script = "\n".join(
        line
        for line in block.strip().splitlines()
        if not line.startswith(("java -jar", "export YT_PROXY"))
    )
    environment = {**os.environ, "YT_PROXY": emulator.address}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    offsets = rows(done.stdout.splitlines()[-1])
    assert [(row["partition_index"], row["offset"]) for row in offsets] == [(0, 2)]


def test_sorted_rows_trim_and_registered_partitions(emulator: Emulator, home: str) -> None:
    table, queue, consumer = f"{home}/sorted", f"{home}/queue", f"{home}/consumer"
    schema = "[{name=k;type=int64;sort_order=ascending};{name=v;type=string}]"
    yt_cli(emulator, "create", "table", table, "--attributes", f"{{dynamic=%true;schema={schema}}}")
    yt_cli(emulator, "mount-table", table, "--sync")
    yson = "<format=text>yson"
    yt_cli(emulator, "insert-rows", table, "--format", yson, stdin="{k=1;v=a};{k=2;v=b};")
    looked_up = yt_cli(emulator, "lookup-rows", table, "--format", "json", stdin='{"k":2}\n')
    assert rows(looked_up) == [{"k": 2, "v": "b"}]
    yt_cli(emulator, "delete-rows", table, "--format", yson, stdin="{k=1};")
    remaining = yt_cli(emulator, "select-rows", f"k from [{table}]", "--format", "json")
    assert rows(remaining) == [{"k": 2}]

    create_queue(emulator, queue, tablets=2)
    yt_cli(
        emulator,
        "insert-rows",
        queue,
        "--format",
        yson,
        stdin='{"$tablet_index"=0;data=a};{"$tablet_index"=0;data=b};',
    )
    yt_cli(emulator, "trim-rows", queue, "0", "1")
    assert yt_cli(emulator, "get", f"{queue}/@tablets/0/trimmed_row_count").strip() == "1"
    assert [row["data"] for row in pull_queue(emulator, queue, 0)] == ["b"]

    yt_cli(emulator, "create", "queue_consumer", consumer)
    yt_cli(emulator, "register-queue-consumer", queue, consumer, "--vital", "--partitions", "1")
    listed = json.loads(
        yt_cli(
            emulator, "list-queue-consumer-registrations", "--queue-path", queue, "--format", "json"
        )
    )
    assert [entry["partitions"] for entry in listed] == [[1]]
