package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.Row;
import io.ytstream.ports.contract.Columns;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Column types are read once per table and connection, not once per handle (Spark opens a handle
 * per task), and read again once they are a minute old.
 */
class ColumnTypesCacheTest {

  @Test
  void aSchemaIsReadOnceUntilItIsTooOldThenReadAgain() {
    AtomicLong now = new AtomicLong(1_000);
    ColumnTypesCache cache = new ColumnTypesCache(now::get);
    List<YPath> reads = new ArrayList<>();
    YPath table = YPath.of("//home/t");
    YPath other = YPath.of("//home/u");

    Map<String, YtType> first = cache.get(table, t -> read(reads, t, YtPrimitive.INT64));
    now.addAndGet(ColumnTypesCache.MAX_AGE_MS - 1);
    Map<String, YtType> cached = cache.get(table, t -> read(reads, t, YtPrimitive.STRING));
    cache.get(other, t -> read(reads, t, YtPrimitive.STRING));
    now.addAndGet(1);
    Map<String, YtType> reread = cache.get(table, t -> read(reads, t, YtPrimitive.STRING));

    assertSame(first, cached, "within the age limit the first answer is used");
    assertEquals(List.of(table, other, table), reads);
    assertEquals(YtPrimitive.STRING, reread.get("value"), "the re-read answer replaces it");
  }

  private static Map<String, YtType> read(List<YPath> reads, YPath table, YtType type) {
    reads.add(table);
    return Map.of("value", type);
  }

  @Test
  void handlesOfOneSharedConnectionReadAQueueSchemaOnce() {
    try (YtEmulator emulator = YtEmulator.start()) {
      List<String> schemaReads = new ArrayList<>();
      YtsaurusClientConfig config =
          YtsaurusClientConfig.of(emulator.url(), Optional.empty())
              .withRequestLogger(
                  r -> {
                    if (r.command().equals("get") && r.parameters().contains("/@schema")) {
                      synchronized (schemaReads) {
                        schemaReads.add(r.parameters());
                      }
                    }
                  });
      YPath queue = YPath.of("//home/q");
      YPath consumer = YPath.of("//home/c");
      try (YtsaurusCluster setup = YtsaurusCluster.connectShared(config)) {
        HttpClusterAdmin admin = new HttpClusterAdmin(setup);
        admin.createOrderedTable(queue, List.of(Columns.value("value", "int64")), 1);
        admin.createConsumer(consumer);
        admin.register(queue, consumer);
        setup.outputTables().append(queue, List.of(Row.of("value", 7L)));
        ConsumerId c = new ConsumerId("emulator", consumer);
        PartitionId p = new PartitionId(new QueueId("emulator", queue), 0);

        // Three tasks, one after the other, each with a handle of its own.
        for (int task = 0; task < 3; task++) {
          try (YtsaurusCluster handle = YtsaurusCluster.connectShared(config)) {
            assertEquals(7L, handle.queueReader().pull(c, p, 0, 10).get(0).data().get("value"));
          }
        }
      }
      assertEquals(1, schemaReads.size(), "one read of " + queue + "/@schema: " + schemaReads);
    }
  }
}
