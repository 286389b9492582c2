package io.ytstream.application.offsets;

import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.types.json.JsonReader;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The offsets SPYT's streaming source leaves in Spark's offset log, read as ytstream's, so that a
 * query SPYT ran resumes from its checkpoint under the {@code yt} source.
 *
 * <p>SPYT writes one JSON object per source ({@code YtQueueOffset} in ytsaurus/ytsaurus-spyt,
 * {@code data-source/src/main/scala/tech/ytsaurus/spyt/streaming/YtQueueOffset.scala}, encoded by
 * circe's derived encoder without spaces):
 *
 * <pre>{"cluster":"primary","path":"//home/q","partitions":{"0":41,"1":-1}}</pre>
 *
 * <p>{@code cluster} is the cluster's name as SPYT's {@code YtWrapper.clusterName()} gives it, read
 * here as the name ytstream gives a queue's cluster ({@code //sys/@cluster_name}; that the two
 * agree is not checked against SPYT's wrapper), {@code path} the queue as given to {@code load()},
 * and each partition's value the <em>last row read</em>, -1 for none; partitions are numbered
 * 0..n-1 without gaps (SPYT refuses anything else). ytstream's offset is the next row to read, so
 * each value is one more: the example reads as partition 0 at 42 and partition 1 at 0.
 */
public final class SpytOffsetsJson {

  private static final Set<String> FIELDS = Set.of("cluster", "path", "partitions");

  private SpytOffsetsJson() {}

  /**
   * Whether {@code json} is SPYT's offset: an object of exactly the fields {@code cluster} and
   * {@code path} (strings) and {@code partitions} (an object), and no {@code version}. Offsets of
   * other sources (Kafka's {@code {"topic":{"0":1}}}) and ytstream's own are not.
   */
  public static boolean isSpytOffsets(String json) {
    if (json == null || !json.stripLeading().startsWith("{")) {
      return false;
    }
    Object root;
    try {
      root = JsonReader.read(json);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return root instanceof Map<?, ?> top
        && top.keySet().equals(FIELDS)
        && top.get("cluster") instanceof String
        && top.get("path") instanceof String
        && top.get("partitions") instanceof Map<?, ?>;
  }

  /**
   * SPYT's offset as ytstream's: each partition's last row read plus one.
   *
   * @throws IllegalArgumentException naming what is wrong, when {@code json} is not SPYT's offset
   *     ({@link #isSpytOffsets}) or holds a partition key that is not 0..n-1, a value below -1 or
   *     at {@link Long#MAX_VALUE}, or a cluster or path ytstream cannot name
   */
  public static StreamOffsets parse(String json) {
    if (!isSpytOffsets(json)) {
      throw new IllegalArgumentException(
          "not SPYT's streaming offset {\"cluster\":...,\"path\":...,\"partitions\":{...}}: "
              + abbreviate(json));
    }
    Map<?, ?> top = (Map<?, ?>) JsonReader.read(json);
    String cluster = (String) top.get("cluster");
    String path = (String) top.get("path");
    QueueId queue;
    try {
      queue = new QueueId(cluster, YPath.of(path));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "SPYT's offset names queue \""
              + path
              + "\" on cluster \""
              + cluster
              + "\", which"
              + " ytstream cannot read: "
              + e.getMessage(),
          e);
    }
    Map<?, ?> partitions = (Map<?, ?>) top.get("partitions");
    Map<Integer, Long> next = new TreeMap<>();
    for (Map.Entry<?, ?> entry : partitions.entrySet()) {
      String key = (String) entry.getKey();
      int index = partitionIndex(queue, key, partitions.size());
      if (!(entry.getValue() instanceof Long lastRead)
          || lastRead < -1
          || lastRead == Long.MAX_VALUE) {
        throw new IllegalArgumentException(
            "SPYT's offset of "
                + queue
                + " partition "
                + index
                + " must be the last row read (an integer >= -1), got "
                + entry.getValue());
      }
      next.put(index, lastRead + 1);
    }
    return StreamOffsets.ofQueue(queue, next);
  }

  /** A key of 0..count-1 in plain decimal: with count keys, each once, there is no gap. */
  private static int partitionIndex(QueueId queue, String key, int count) {
    int index = -1;
    try {
      index = Integer.parseInt(key);
    } catch (NumberFormatException e) {
      // refused below
    }
    if (index < 0 || index >= count || !key.equals(Integer.toString(index))) {
      throw new IllegalArgumentException(
          "SPYT's offset of "
              + queue
              + " has partition key \""
              + key
              + "\", but SPYT numbers the "
              + count
              + " partition(s) 0.."
              + (count - 1)
              + " without gaps");
    }
    return index;
  }

  private static String abbreviate(String json) {
    if (json == null) {
      return "null";
    }
    return json.length() <= 200 ? json : json.substring(0, 200) + "...";
  }
}
