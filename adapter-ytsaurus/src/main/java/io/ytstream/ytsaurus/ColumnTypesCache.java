package io.ytstream.ytsaurus;

import io.ytstream.core.model.YPath;
import io.ytstream.types.v3.YtType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Column types of tables, read with {@code get <table>/@schema} and kept per {@link
 * ProxyConnection} for {@link #MAX_AGE_MS}. Spark opens a handle per task, so a cache per handle
 * read the schema at the start of every task of every batch: a master read per partition per batch,
 * and one request on the path to the first row of each real-time batch. Shared by the connection, a
 * table's schema is read about once a minute per JVM; a table re-created under the same path with
 * other column types is seen within that minute.
 */
final class ColumnTypesCache {

  /** How long a schema read is used before it is read again. */
  static final long MAX_AGE_MS = 60_000;

  private record Entry(Map<String, YtType> types, long readAtMs) {}

  private final LongSupplier clockMs;
  private final ConcurrentHashMap<String, Entry> byPath = new ConcurrentHashMap<>();

  ColumnTypesCache(LongSupplier clockMs) {
    this.clockMs = clockMs;
  }

  /** The cached types of {@code table}, or {@code read}'s answer when none or too old. */
  Map<String, YtType> get(YPath table, Function<YPath, Map<String, YtType>> read) {
    long now = clockMs.getAsLong();
    Entry known = byPath.get(table.value());
    if (known != null && now - known.readAtMs() < MAX_AGE_MS) {
      return known.types();
    }
    // Two tasks may both read a stale entry; the second answer simply replaces the first.
    Map<String, YtType> types = read.apply(table);
    byPath.put(table.value(), new Entry(types, now));
    return types;
  }
}
