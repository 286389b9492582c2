package io.ytstream.spark;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;

/** A test sink for local mode: keeps every row's {@code id} per sink name, in this JVM. */
final class CollectingForeachWriter extends ForeachWriter<Row> {

  private static final long serialVersionUID = 1L;
  private static final Map<String, List<Long>> SEEN = new ConcurrentHashMap<>();

  private final String name;

  CollectingForeachWriter(String name) {
    this.name = name;
    SEEN.put(name, new CopyOnWriteArrayList<>());
  }

  static List<Long> seen(String name) {
    return SEEN.getOrDefault(name, List.of());
  }

  @Override
  public boolean open(long partitionId, long epochId) {
    return true;
  }

  @Override
  public void process(Row row) {
    SEEN.get(name).add(row.<Long>getAs("id"));
  }

  @Override
  public void close(Throwable errorOrNull) {}
}
