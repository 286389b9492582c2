"""Queues, consumers and tables made with the official client, as a user's test makes them."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

QUEUE_SCHEMA = [{"name": "id", "type": "int64"}, {"name": "data", "type": "string"}]


def checkpoint(path: str) -> str:
    """The yt:/// URI of a Cypress path: //home/x -> yt:///home/x."""
    return "yt:///" + path.removeprefix("//")


def dynamic_table(client: Any, path: str, schema: list[dict[str, Any]], tablets: int = 1) -> None:
    client.create(
        "table",
        path,
        attributes={"dynamic": True, "schema": schema, "tablet_count": tablets},
    )
    client.mount_table(path, sync=True)


def queue_with_consumer(
    client: Any,
    queue: str,
    consumer: str,
    tablets: int = 1,
    schema: list[dict[str, Any]] | None = None,
) -> None:
    dynamic_table(client, queue, schema or QUEUE_SCHEMA, tablets)
    client.create("queue_consumer", consumer)
    client.register_queue_consumer(queue, consumer, vital=True)


def fill(client: Any, queue: str, rows: list[dict[str, Any]]) -> None:
    client.insert_rows(queue, rows)


def rows(client: Any, table: str, columns: str) -> list[dict[str, Any]]:
    return list(client.select_rows(f"{columns} from [{table}]"))


def consumer_offsets(client: Any, consumer: str) -> dict[int, int]:
    return {
        r["partition_index"]: r["offset"]
        for r in client.select_rows(f"partition_index, [offset] from [{consumer}]")
    }


def wait(predicate: Callable[[], bool], timeout: float = 90.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(0.2)


def pull_all(client: Any, queue: str, partition: int = 0) -> list[dict[str, Any]]:
    """Every row of one partition by pull_queue, which gives $timestamp (select_rows against the
    emulator answers it as null)."""
    pulled: list[dict[str, Any]] = []
    while True:
        step = list(client.pull_queue(queue, offset=len(pulled), partition_index=partition))
        if not step:
            return pulled
        pulled += step
