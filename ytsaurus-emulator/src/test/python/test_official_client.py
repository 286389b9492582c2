"""Everyday queue, table, transaction and file workflows through the official Python client.

Each test runs against the emulator's runnable jar exactly as a user would run it, with the
client's defaults (proxy discovery on, binary YSON rows, compressed request bodies).
"""

from __future__ import annotations

from typing import Any

import pytest
import yt.wrapper as yt
from yt.wrapper.errors import YtResponseError

from conftest import Emulator, client_config, wait

QUEUE_SCHEMA = [{"name": "data", "type": "string"}, {"name": "n", "type": "int64"}]
SORTED_SCHEMA = [
    {"name": "key", "type": "int64", "sort_order": "ascending"},
    {"name": "value", "type": "string"},
]


def make_queue(client: yt.YtClient, path: str, tablets: int = 2) -> None:
    client.create(
        "table",
        path,
        attributes={"dynamic": True, "schema": QUEUE_SCHEMA, "tablet_count": tablets},
    )
    client.mount_table(path, sync=True)


def make_sorted(client: yt.YtClient, path: str) -> None:
    client.create("table", path, attributes={"dynamic": True, "schema": SORTED_SCHEMA})
    client.mount_table(path, sync=True)


def fill(client: yt.YtClient, queue: str, per_tablet: int, tablets: int = 2) -> None:
    rows = [
        {"$tablet_index": t, "data": f"t{t}-{i}", "n": i}
        for t in range(tablets)
        for i in range(per_tablet)
    ]
    client.insert_rows(queue, rows)


def data(rows: Any) -> list[str]:
    return [row["data"] for row in rows]


def test_cypress_nodes(client: yt.YtClient, test_dir: str) -> None:
    node_id = client.create("map_node", f"{test_dir}/a/b", recursive=True)
    assert len(node_id.split("-")) == 4
    assert client.exists(f"{test_dir}/a/b")
    assert not client.exists(f"{test_dir}/missing")
    assert client.get(f"{test_dir}/a/b/@type") == "map_node"
    assert client.list(f"{test_dir}/a") == ["b"]
    assert client.get(f"{test_dir}/a/b/@id") == node_id
    client.set(f"{test_dir}/a/@my_attribute", {"x": 1})
    assert client.get(f"{test_dir}/a/@my_attribute") == {"x": 1}
    assert client.get("//sys/@cluster_name") == "emulator"
    with pytest.raises(YtResponseError):
        client.remove(f"{test_dir}/a")  # not recursive: a non-empty map node stays
    client.remove(f"{test_dir}/a", recursive=True)
    assert not client.exists(f"{test_dir}/a")


def test_tablet_cell_becomes_healthy(client: yt.YtClient) -> None:
    cell_id = client.create("tablet_cell", attributes={"size": 1})
    assert client.exists("//sys/tablet_cells/" + cell_id)
    wait(lambda: client.get(f"//sys/tablet_cells/{cell_id}/@health") == "good")


def test_queue_insert_select_pull_and_trim(client: yt.YtClient, test_dir: str) -> None:
    queue = f"{test_dir}/queue"
    make_queue(client, queue)
    assert client.get(f"{queue}/@tablet_state") == "mounted"
    fill(client, queue, per_tablet=3)

    selected = list(client.select_rows(f"* from [{queue}] where [$tablet_index] = 1"))
    assert data(selected) == ["t1-0", "t1-1", "t1-2"]
    assert [row["$row_index"] for row in selected] == [0, 1, 2]

    pulled = list(client.pull_queue(queue, offset=1, partition_index=0))
    assert data(pulled) == ["t0-1", "t0-2"]
    assert [row["$row_index"] for row in pulled] == [1, 2]

    client.trim_rows(queue, 0, 2)
    assert data(client.pull_queue(queue, offset=0, partition_index=0)) == ["t0-2"]
    assert client.get(f"{queue}/@tablets/0/trimmed_row_count") == 2


def test_consumer_registration_pull_and_advance(client: yt.YtClient, test_dir: str) -> None:
    queue, consumer = f"{test_dir}/queue", f"{test_dir}/consumer"
    make_queue(client, queue)
    client.create("queue_consumer", consumer)
    client.register_queue_consumer(queue, consumer, vital=False, partitions=[0, 1])
    registrations = client.list_queue_consumer_registrations(queue_path=queue)
    assert len(registrations) == 1
    assert str(registrations[0]["queue_path"]) == queue
    assert registrations[0]["queue_path"].attributes["cluster"] == "emulator"
    assert registrations[0]["partitions"] == [0, 1]
    fill(client, queue, per_tablet=4)

    assert data(client.pull_consumer(consumer, queue, offset=None, partition_index=1)) == [
        "t1-0",
        "t1-1",
        "t1-2",
        "t1-3",
    ]
    client.advance_consumer(consumer, queue, partition_index=1, old_offset=0, new_offset=2)
    client.advance_queue_consumer(
        consumer, queue, partition_index=1, old_offset=2, new_offset=3, client_side=False
    )
    assert data(client.pull_consumer(consumer, queue, offset=None, partition_index=1)) == ["t1-3"]

    with pytest.raises(YtResponseError) as stale:
        client.advance_consumer(consumer, queue, partition_index=1, old_offset=0, new_offset=4)
    assert stale.value.contains_code(3100)

    client.unregister_queue_consumer(queue, consumer)
    assert client.list_queue_consumer_registrations(queue_path=queue) == []


def test_client_side_advance_needs_no_registration(client: yt.YtClient, test_dir: str) -> None:
    consumer = f"{test_dir}/consumer"
    client.create("queue_consumer", consumer)
    client.advance_consumer(
        consumer, f"{test_dir}/nowhere", partition_index=0, old_offset=None, new_offset=5
    )
    with pytest.raises(YtResponseError) as unregistered:
        client.advance_consumer(
            consumer,
            f"{test_dir}/nowhere",
            partition_index=0,
            old_offset=5,
            new_offset=6,
            client_side=False,
        )
    assert unregistered.value.contains_code(901) or "not registered" in str(unregistered.value)


def test_producer_sessions(client: yt.YtClient, test_dir: str) -> None:
    queue, producer = f"{test_dir}/queue", f"{test_dir}/producer"
    make_queue(client, queue, tablets=1)
    client.create("queue_producer", producer)
    session = client.create_queue_producer_session(producer, queue, "s1")
    assert session["epoch"] == 0
    assert session["sequence_number"] == -1

    rows = [{"data": f"r{i}", "n": i, "$sequence_number": i} for i in range(3)]
    pushed = client.push_queue_producer(producer, queue, "s1", session["epoch"], rows)
    assert pushed["last_sequence_number"] == 2
    assert pushed["skipped_row_count"] == 0
    again = client.push_queue_producer(producer, queue, "s1", session["epoch"], rows)
    assert again["skipped_row_count"] == 3
    assert data(client.pull_queue(queue, offset=0, partition_index=0)) == ["r0", "r1", "r2"]

    bumped = client.create_queue_producer_session(producer, queue, "s1")
    assert bumped["epoch"] == 1
    assert bumped["sequence_number"] == 2
    with pytest.raises(YtResponseError) as zombie:
        client.push_queue_producer(producer, queue, "s1", 0, [{"data": "z", "$sequence_number": 9}])
    assert zombie.value.contains_code(3102)
    client.remove_queue_producer_session(producer, queue, "s1")


@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
def test_request_bodies_in_every_encoding_the_client_sends(
    emulator: Emulator, test_dir: str, encoding: str
) -> None:
    client = yt.YtClient(
        config=client_config(emulator.address, content_encoding=encoding),
    )
    table = f"{test_dir}/sorted"
    make_sorted(client, table)
    rows = [{"key": k, "value": "v" * k} for k in range(200)]
    client.insert_rows(table, rows)
    assert list(client.lookup_rows(table, [{"key": 199}])) == [rows[-1]]


def test_sorted_table_insert_lookup_delete(client: yt.YtClient, test_dir: str) -> None:
    table = f"{test_dir}/sorted"
    make_sorted(client, table)
    client.insert_rows(table, [{"key": k, "value": f"v{k}"} for k in range(5)])
    assert list(client.lookup_rows(table, [{"key": 3}, {"key": 9}])) == [{"key": 3, "value": "v3"}]
    client.delete_rows(table, [{"key": 3}])
    assert list(client.lookup_rows(table, [{"key": 3}])) == []
    assert [row["key"] for row in client.select_rows(f"key from [{table}] where key > 1")] == [2, 4]


def test_tablet_transactions(client: yt.YtClient, test_dir: str) -> None:
    table = f"{test_dir}/sorted"
    make_sorted(client, table)
    client.insert_rows(table, [{"key": 1, "value": "before"}])
    with client.Transaction(type="tablet"):
        client.insert_rows(table, [{"key": 1, "value": "inside"}, {"key": 2, "value": "new"}])
        seen = {row["key"]: row["value"] for row in client.select_rows(f"* from [{table}]")}
        assert seen == {1: "before"}
    assert list(client.lookup_rows(table, [{"key": 1}, {"key": 2}])) == [
        {"key": 1, "value": "inside"},
        {"key": 2, "value": "new"},
    ]

    with pytest.raises(RuntimeError):
        with client.Transaction(type="tablet"):
            client.insert_rows(table, [{"key": 3, "value": "aborted"}])
            raise RuntimeError("abort the transaction")
    assert list(client.lookup_rows(table, [{"key": 3}])) == []


def test_insert_into_unmounted_table_inside_transaction_fails_at_commit(
    client: yt.YtClient, test_dir: str
) -> None:
    table = f"{test_dir}/sorted"
    make_sorted(client, table)
    client.unmount_table(table, sync=True)
    assert client.get(f"{table}/@tablet_state") == "unmounted"
    inserted = False
    with pytest.raises(YtResponseError) as failed:
        with client.Transaction(type="tablet"):
            client.insert_rows(table, [{"key": 1, "value": "x"}])
            inserted = True
    assert inserted, "the insert itself is only buffered"
    assert failed.value.contains_code(1702)
    client.mount_table(table, sync=True)
    assert list(client.lookup_rows(table, [{"key": 1}])) == []


def test_files(client: yt.YtClient, test_dir: str) -> None:
    path = f"{test_dir}/file"
    client.write_file(path, b"hello ")
    client.write_file(yt.FilePath(path, append=True), b"world")
    assert client.read_file(path).read() == b"hello world"
    assert client.get(f"{path}/@uncompressed_data_size") == 11


def test_master_transaction_isolates_and_commits(client: yt.YtClient, test_dir: str) -> None:
    with client.Transaction() as transaction:
        client.create("map_node", f"{test_dir}/staged")
        assert client.exists(f"{test_dir}/staged")
        other = yt.YtClient(config=client.config)
        assert not other.exists(f"{test_dir}/staged")
        assert transaction.transaction_id in client.list("//sys/transactions")
    assert client.exists(f"{test_dir}/staged")

    with pytest.raises(RuntimeError):
        with client.Transaction():
            client.create("map_node", f"{test_dir}/dropped")
            raise RuntimeError("abort")
    assert not client.exists(f"{test_dir}/dropped")


STATIC_SCHEMA = [{"name": "k", "type": "int64"}, {"name": "v", "type": "string"}]


def test_static_table_appends_in_master_transactions(
    client: yt.YtClient, test_dir: str
) -> None:
    """write_table with <append=%true> inside `with Transaction()`, and an attribute beside it."""
    table = f"{test_dir}/static"
    client.create("table", table, attributes={"schema": STATIC_SCHEMA})
    assert not client.get(f"{table}/@dynamic")
    client.write_table(table, [{"k": 0, "v": "first"}])

    with pytest.raises(RuntimeError):
        with client.Transaction():
            client.write_table(yt.TablePath(table, append=True), [{"k": 1, "v": "dropped"}])
            client.set(f"{table}/@ytstream_batches", {"query": 1})
            raise RuntimeError("abort the transaction")
    assert list(client.read_table(table)) == [{"k": 0, "v": "first"}]
    assert not client.exists(f"{table}/@ytstream_batches")

    with client.Transaction():
        client.write_table(yt.TablePath(table, append=True), [{"k": 1, "v": "a"}])
        client.write_table(
            yt.TablePath(table, append=True), ({"k": k, "v": f"g{k}"} for k in range(2, 5))
        )
        client.set(f"{table}/@ytstream_batches", {"query": 2})
        assert [row["k"] for row in client.read_table(table)] == [0, 1, 2, 3, 4]
        assert client.get(f"{table}/@ytstream_batches") == {"query": 2}
        other = yt.YtClient(config=client.config)
        assert [row["k"] for row in other.read_table(table)] == [0]
        assert not other.exists(f"{table}/@ytstream_batches")
    assert [row["v"] for row in client.read_table(table)] == ["first", "a", "g2", "g3", "g4"]
    assert client.get(f"{table}/@ytstream_batches") == {"query": 2}
    assert client.get(f"{table}/@row_count") == 5

    client.write_table(table, [{"k": 9, "v": "only"}])
    assert list(client.read_table(table)) == [{"k": 9, "v": "only"}]


def test_unmount_and_remove(client: yt.YtClient, test_dir: str) -> None:
    queue = f"{test_dir}/queue"
    make_queue(client, queue)
    client.unmount_table(queue, sync=True)
    assert client.get(f"{queue}/@tablet_state") == "unmounted"
    client.remove(queue)
    assert not client.exists(queue)
