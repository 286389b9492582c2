package io.ytstream.spark;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;

/**
 * A test sink for local mode: keeps every row's {@code id}, and the whole row as text, per sink
 * name, in this JVM.
 */
final class CollectingForeachWriter extends ForeachWriter<Row> {

  private static final long serialVersionUID = 1L;
  private static final Map<String, List<Long>> SEEN = new ConcurrentHashMap<>();
  private static final Map<String, List<String>> TEXT = new ConcurrentHashMap<>();

  private final String name;

  CollectingForeachWriter(String name) {
    this.name = name;
    SEEN.put(name, new CopyOnWriteArrayList<>());
    TEXT.put(name, new CopyOnWriteArrayList<>());
  }

  /** Every row as its values joined by {@code |}. */
  static List<String> rows(String name) {
    return TEXT.getOrDefault(name, List.of());
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
    TEXT.get(name).add(row.mkString("|"));
  }

  @Override
  public void close(Throwable errorOrNull) {}
}
