package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import io.ytstream.ports.TextSlice;
import io.ytstream.types.v3.YtType;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One {@code pull_queue_consumer} with an explicit offset per call, or one {@code pull_queue} (the
 * same read without a consumer) for {@link QueueRangeReader}. The answer may be short (a tablet
 * node stops at {@code max_row_count}, {@code max_data_weight} or the end of one store, reference
 * 3.1); that is passed on as it is, since the port allows short reads and its callers loop until
 * their range is read (in Spark, {@code YtPartitionReader}). Looping here as well would only hide
 * the short reads the contract suite checks callers against.
 *
 * <p>Sizing: each pull sends {@code data_weight_per_row_hint}, with which the server reads max(1,
 * min(max_row_count, max_data_weight / hint)) rows ({@code
 * yt/yt/client/queue_client/queue_rowset.cpp}, {@code ComputeRowsToRead}; {@code max_data_weight}
 * is left at its default, 16 MiB). The hint is the data weight per row of the last answer for the
 * partition (1 plus each value's weight, as the server counts it), so the server reads what fits in
 * 16 MiB in one round trip; before any answer it is 16 MiB / {@code max_row_count}, which asks for
 * all {@code max_row_count} rows.
 *
 * <p>The answer's {@code start_offset} ({@code X-YT-Response-Parameters}), where the server sends
 * it, is where the read started: above the offset asked for when rows were trimmed. It must be the
 * first row's {@code $row_index}; an answer where it is not is refused.
 *
 * <p>Every returned {@code $row_index} is checked: the first may be above the requested offset
 * (those rows were trimmed; the caller sees it and reports data loss), but after that they must be
 * contiguous. Should an answer skip a row, only the contiguous prefix is returned, so the caller's
 * next pull sees the gap at its start instead of rows silently missing in the middle.
 */
final class HttpQueuePartitionReader implements QueuePartitionReader, QueueRangeReader {

  static final String TABLET_INDEX = "$tablet_index";
  static final String ROW_INDEX = "$row_index";
  static final String TIMESTAMP = "$timestamp";
  static final String CUMULATIVE_DATA_WEIGHT = "$cumulative_data_weight";

  /** {@code max_data_weight} of a pull: the server's default, not sent (16 MiB). */
  static final long MAX_DATA_WEIGHT = 16L << 20;

  /** Rows weighed per answer to estimate the next hint. */
  private static final int WEIGHED_ROWS = 32;

  /**
   * Reads each pull's {@code X-YT-Response-Parameters}; one for all pulls: a mapper per pull, its
   * caches built anew each time, was 6% of a reader's CPU at 10,000 rows a pull.
   */
  private static final ObjectMapper RESPONSE_PARAMETERS = new ObjectMapper();

  private final YtsaurusCluster cluster;

  /** The data weight per row of the last answer, per partition. */
  private final java.util.concurrent.ConcurrentHashMap<PartitionId, Long> rowWeights =
      new java.util.concurrent.ConcurrentHashMap<>();

  HttpQueuePartitionReader(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public List<QueueRow> pull(ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    return pull(consumer, partition, offset, maxRows, false);
  }

  /** Binary YSON carries text as bytes: with this, string and utf8 values stay {@code byte[]}. */
  @Override
  public List<QueueRow> pullKeepingTextBytes(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    return pull(consumer, partition, offset, maxRows, true);
  }

  /**
   * As {@link #pullKeepingTextBytes}, the answer held flat ({@link FlatPull}): no object per row.
   * An answer it does not hold (rows of differing columns) is decoded row by row, as there.
   */
  @Override
  public QueueRowBatch pullBatchKeepingTextBytes(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    check(consumer, partition, offset, maxRows);
    ProxyTarget proxy = cluster.heavyProxies().forHeavyCommand();
    Map<String, YtType> types = types(partition);
    long[] startOffset = {-1};
    byte[] body =
        send(proxy, consumer, partition, offset, maxRows, h -> startOffset[0] = startOffsetOf(h));
    String command = commandName(consumer);
    QueueRowBatch pulled;
    try {
      FlatPull.Collector flat = new FlatPull.Collector(command, partition, offset, maxRows, body);
      cluster.rows().decode(body, types, true, flat);
      pulled = flat.pull();
    } catch (FlatPull.NotFlat e) {
      QueueRowCollector rows = new QueueRowCollector(command, partition, offset, maxRows);
      cluster.rows().decode(body, types, true, rows);
      pulled = QueueRowBatch.of(rows.rows());
    }
    checkStartOffset(command, partition, offset, startOffset[0], pulled);
    rememberWeight(partition, pulled);
    return pulled;
  }

  /** {@code pull_queue}: the same read without a consumer. */
  @Override
  public List<QueueRow> pull(PartitionId partition, long offset, int maxRows) {
    return pull(null, partition, offset, maxRows, false);
  }

  /** Reads through {@code consumer}, or without one ({@code pull_queue}) when it is null. */
  private List<QueueRow> pull(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows, boolean textAsBytes) {
    check(consumer, partition, offset, maxRows);
    ProxyTarget proxy = cluster.heavyProxies().forHeavyCommand();
    // The schema (cached after the first pull) is read before the rows it decodes.
    Map<String, YtType> types = types(partition);
    long[] startOffset = {-1};
    byte[] body =
        send(proxy, consumer, partition, offset, maxRows, h -> startOffset[0] = startOffsetOf(h));
    QueueRowCollector rows =
        new QueueRowCollector(commandName(consumer), partition, offset, maxRows);
    cluster.rows().decode(body, types, textAsBytes, rows);
    List<QueueRow> pulled = rows.rows();
    QueueRowBatch batch = QueueRowBatch.of(pulled);
    checkStartOffset(commandName(consumer), partition, offset, startOffset[0], batch);
    rememberWeight(partition, batch);
    return pulled;
  }

  /** The {@code start_offset} of the answer's response parameters, or -1 without one. */
  private static long startOffsetOf(HttpHeaders headers) {
    Optional<String> parameters = headers.firstValue("X-YT-Response-Parameters");
    if (parameters.isEmpty()) {
      return -1;
    }
    try {
      JsonNode start = RESPONSE_PARAMETERS.readTree(parameters.get()).path("start_offset");
      return start.isIntegralNumber() ? start.asLong() : -1;
    } catch (IOException e) {
      return -1; // parameters this client cannot read: the rows still say where they start
    }
  }

  /**
   * The read's start as the server gives it: at or above {@code offset} (above after a trim), and
   * the first row's index when there are rows.
   */
  private static void checkStartOffset(
      String command, PartitionId partition, long offset, long start, QueueRowBatch rows) {
    if (start < 0) {
      return;
    }
    boolean consistent = start >= offset && (rows.size() == 0 || rows.rowIndex(0) == start);
    if (!consistent) {
      throw new YtTransportException(
          command
              + " on "
              + partition
              + " at offset "
              + offset
              + " answered start_offset "
              + start
              + (rows.size() == 0 ? "" : " with its first row at " + rows.rowIndex(0)),
          null);
    }
  }

  /** The hint for the next pull of {@code partition}: see the class comment. */
  long hint(PartitionId partition, int maxRows) {
    Long known = rowWeights.get(partition);
    return known != null ? known : Math.max(1, MAX_DATA_WEIGHT / maxRows);
  }

  private void rememberWeight(PartitionId partition, QueueRowBatch rows) {
    if (rows.size() == 0) {
      return;
    }
    int n = Math.min(rows.size(), WEIGHED_ROWS);
    long total = 0;
    for (int i = 0; i < n; i++) {
      total += weight(rows.row(i));
    }
    rowWeights.put(partition, Math.max(1, total / n));
  }

  /**
   * A pulled row's data weight as the server counts it ({@code unversioned_row.h}): 1, plus 8 for
   * each of {@code $tablet_index} and {@code $row_index} and of the lag columns present, plus each
   * value's (8 for numbers, 1 for booleans, the length of strings; composite values by their parts,
   * an estimate of their YSON's length).
   */
  private static long weight(QueueRow row) {
    long weight = 1 + 16;
    if (row.timestamp().isPresent()) {
      weight += 8;
    }
    if (row.cumulativeDataWeight().isPresent()) {
      weight += 8;
    }
    Row data = row.data();
    for (int i = 0; i < data.layout().size(); i++) {
      weight += valueWeight(data.valueAt(i));
    }
    return weight;
  }

  private static long valueWeight(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof Boolean) {
      return 1;
    }
    if (value instanceof byte[] bytes) {
      return bytes.length;
    }
    if (value instanceof TextSlice slice) {
      return slice.length();
    }
    if (value instanceof String text) {
      return text.length();
    }
    if (value instanceof List<?> list) {
      long sum = 2;
      for (Object item : list) {
        sum += 1 + valueWeight(item);
      }
      return sum;
    }
    if (value instanceof Map<?, ?> map) {
      long sum = 2;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        sum += 3 + String.valueOf(entry.getKey()).length() + valueWeight(entry.getValue());
      }
      return sum;
    }
    return 8;
  }

  private static String commandName(ConsumerId consumer) {
    return consumer == null ? "pull_queue" : "pull_queue_consumer";
  }

  /** The column types rows of {@code partition} are decoded against. */
  Map<String, YtType> types(PartitionId partition) {
    // A queue on another cluster is read without its schema: columns arrive as plain YSON values.
    return partition.queue().cluster().equals(cluster.name())
        ? cluster.columnTypes(partition.queue().path())
        : Map.of();
  }

  /** The answer of one {@code pull_queue_consumer}, not decoded. */
  byte[] fetch(ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    check(consumer, partition, offset, maxRows);
    return send(cluster.heavyProxies().forHeavyCommand(), consumer, partition, offset, maxRows);
  }

  private byte[] send(
      ProxyTarget proxy, ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    return send(proxy, consumer, partition, offset, maxRows, h -> {});
  }

  private byte[] send(
      ProxyTarget proxy,
      ConsumerId consumer,
      PartitionId partition,
      long offset,
      int maxRows,
      java.util.function.Consumer<HttpHeaders> headers) {
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    if (consumer != null) {
      params.put("consumer_path", consumer.path().value());
    }
    params.put(
        "queue_path",
        Paths.queuePath(cluster.name(), partition.queue().cluster(), partition.queue().path()));
    params.put("partition_index", partition.index());
    params.put("offset", offset);
    params.put("max_row_count", maxRows);
    params.put("data_weight_per_row_hint", hint(partition, maxRows));
    if (consumer == null) {
      return client.send(proxy, Command.PULL_QUEUE, params, null, Repeat.READ, headers);
    }
    return client.sendRenamed(
        proxy,
        Command.PULL_QUEUE_CONSUMER,
        Command.PULL_CONSUMER,
        params,
        null,
        Repeat.READ,
        headers);
  }

  private void check(ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    if (offset < 0) {
      throw new IllegalArgumentException(
          "cannot read " + partition + " at a negative offset " + offset);
    }
    if (maxRows <= 0) {
      throw new IllegalArgumentException("maxRows must be > 0, got " + maxRows);
    }
    if (consumer != null) {
      cluster.checkLocal(consumer.cluster(), consumer.toString());
    }
  }

  /** The rows of an answer {@link #fetch} returned for the same partition, offset and cap. */
  List<QueueRow> decode(
      PartitionId partition,
      long offset,
      int maxRows,
      byte[] body,
      Map<String, YtType> types,
      boolean textAsBytes) {
    QueueRowCollector rows =
        new QueueRowCollector("pull_queue_consumer", partition, offset, maxRows);
    cluster.rows().decode(body, types, textAsBytes, rows);
    return rows.rows();
  }

  /**
   * Builds each {@link QueueRow} as its columns are decoded: system columns go to the row's
   * position and metadata, the others to its data, so no intermediate map of the whole row is made.
   * Rows of one answer share their columns: what each position holds is worked out when its name
   * changes (the decoders hand the same name object for the same column), and each row's data
   * adopts one array on the layout of the row before.
   */
  private static final class QueueRowCollector implements RowVisitor {

    private static final int PRESIZED_ROWS = 16_384;
    private static final int DATA = 0;
    private static final int TABLET = 1;
    private static final int ROW = 2;
    private static final int TIME = 3;
    private static final int WEIGHT = 4;
    private static final int OTHER_SYSTEM = 5;

    private final String command;
    private final PartitionId partition;
    private final long offset;
    private final int maxRows;
    private final List<QueueRow> rows;
    // Per position in the row: the column name last seen there and what it is.
    private String[] names = new String[8];
    private int[] roles = new int[8];
    // The row being decoded: its column count, data values and whether its columns differ from
    // the row before.
    private int columns;
    private int previousColumns = -1;
    private Object[] data = new Object[8];
    private int dataCount;
    private boolean changed;
    private RowLayout layout;
    private Object tablet;
    private Object rowIndex;
    // $tablet_index and $row_index when they came as int64s (the common case), unboxed.
    private boolean tabletIsLong;
    private long tabletLong;
    private boolean rowIndexIsLong;
    private long rowIndexLong;
    private Object timestamp;
    private Object cumulativeDataWeight;

    QueueRowCollector(String command, PartitionId partition, long offset, int maxRows) {
      this.command = command;
      this.partition = partition;
      this.offset = offset;
      this.maxRows = maxRows;
      // Sized for a full answer up to a bound, so the list is not copied as it grows.
      this.rows = new ArrayList<>(Math.min(maxRows, PRESIZED_ROWS));
    }

    @Override
    public void column(String name, Object value) {
      switch (roleAt(name)) {
        case DATA -> addData(value);
        case TABLET -> {
          tablet = value;
          tabletIsLong = false;
        }
        case ROW -> {
          rowIndex = value;
          rowIndexIsLong = false;
        }
        case TIME -> timestamp = value;
        case WEIGHT -> cumulativeDataWeight = value;
        default -> {
          // Other system columns are not part of a queue row.
        }
      }
    }

    @Override
    public void integer(String name, long value) {
      switch (roleAt(name)) {
        case DATA -> addData(value);
        case TABLET -> {
          tabletIsLong = true;
          tabletLong = value;
        }
        case ROW -> {
          rowIndexIsLong = true;
          rowIndexLong = value;
        }
        case TIME -> timestamp = value;
        case WEIGHT -> cumulativeDataWeight = value;
        default -> {
          // Other system columns are not part of a queue row.
        }
      }
    }

    private void addData(Object value) {
      if (dataCount == data.length) {
        data = Arrays.copyOf(data, dataCount * 2);
      }
      data[dataCount++] = value;
    }

    /** The role of the next column, {@code name}; worked out again only when the name changes. */
    private int roleAt(String name) {
      int p = columns++;
      if (p == names.length) {
        names = Arrays.copyOf(names, p * 2);
        roles = Arrays.copyOf(roles, p * 2);
      }
      // String.equals is true at once for the same object, which the decoders hand for a column.
      if (!name.equals(names[p])) {
        names[p] = name;
        roles[p] = roleOf(name);
        changed = true;
      }
      return roles[p];
    }

    private static int roleOf(String name) {
      if (!name.startsWith("$")) {
        return DATA;
      }
      return switch (name) {
        case TABLET_INDEX -> TABLET;
        case ROW_INDEX -> ROW;
        case TIMESTAMP -> TIME;
        case CUMULATIVE_DATA_WEIGHT -> WEIGHT;
        default -> OTHER_SYSTEM;
      };
    }

    @Override
    public boolean endRow() {
      QueueRow row = toQueueRow();
      previousColumns = columns;
      columns = 0;
      dataCount = 0;
      changed = false;
      tablet = null;
      rowIndex = null;
      tabletIsLong = false;
      rowIndexIsLong = false;
      timestamp = null;
      cumulativeDataWeight = null;
      if (rows.isEmpty()) {
        if (row.rowIndex() < offset) {
          throw new YtTransportException(
              command
                  + " on "
                  + partition
                  + " at offset "
                  + offset
                  + " returned row "
                  + row.rowIndex()
                  + ", below the offset",
              null);
        }
      } else if (row.rowIndex() != rows.get(rows.size() - 1).rowIndex() + 1) {
        return false; // a gap: keep the contiguous prefix
      }
      rows.add(row);
      return rows.size() < maxRows;
    }

    private QueueRow toQueueRow() {
      OptionalLong index =
          rowIndexIsLong ? OptionalLong.of(rowIndexLong) : UntypedValues.integer(rowIndex);
      if (index.isEmpty()) {
        throw new YtTransportException(
            command + " returned a row without $row_index for " + partition, null);
      }
      OptionalLong t = tabletIsLong ? OptionalLong.of(tabletLong) : UntypedValues.integer(tablet);
      if (t.isPresent() && t.getAsLong() != partition.index()) {
        throw new YtTransportException(
            command + " for " + partition + " returned a row of tablet " + t.getAsLong(), null);
      }
      return new QueueRow(
          partition.index(),
          index.getAsLong(),
          data(),
          UntypedValues.integer(timestamp),
          UntypedValues.integer(cumulativeDataWeight));
    }

    private Row data() {
      Object[] values = Arrays.copyOf(data, dataCount);
      if (changed || columns != previousColumns || layout == null) {
        List<String> dataNames = new ArrayList<>(dataCount);
        for (int p = 0; p < columns; p++) {
          if (roles[p] == DATA) {
            dataNames.add(names[p]);
          }
        }
        if (new HashSet<>(dataNames).size() != dataNames.size()) {
          // A repeated column name: the map keeps the first position and the last value.
          Map<String, Object> map = new LinkedHashMap<>();
          for (int i = 0; i < dataNames.size(); i++) {
            map.put(dataNames.get(i), values[i]);
          }
          layout = null;
          return Row.of(map);
        }
        layout = RowLayout.of(dataNames);
      }
      return Row.adopting(layout, values);
    }

    List<QueueRow> rows() {
      return rows;
    }
  }
}
