package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.schema.YtType;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One {@code pull_queue_consumer} with an explicit offset per call, or one {@code pull_queue} (the
 * same read without a consumer) for {@link QueueRangeReader}. The answer may be short (a tablet
 * node stops at {@code max_row_count}, {@code max_data_weight} or the end of one store, reference
 * 3.1); that is passed on as it is, since the port allows short reads and its callers loop until
 * their range is read (in Spark, {@code YtPartitionReader}). Looping here as well would only hide
 * the short reads the contract suite checks callers against.
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

  private final YtsaurusCluster cluster;

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

  /** {@code pull_queue}: the same read without a consumer. */
  @Override
  public List<QueueRow> pull(PartitionId partition, long offset, int maxRows) {
    return pull(null, partition, offset, maxRows, false);
  }

  /** Reads through {@code consumer}, or without one ({@code pull_queue}) when it is null. */
  private List<QueueRow> pull(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows, boolean textAsBytes) {
    check(consumer, partition, offset, maxRows);
    URI proxy = cluster.heavyProxies().forHeavyCommand();
    // The schema (cached after the first pull) is read before the rows it decodes.
    Map<String, YtType> types = types(partition);
    byte[] body = send(proxy, consumer, partition, offset, maxRows);
    QueueRowCollector rows =
        new QueueRowCollector(commandName(consumer), partition, offset, maxRows);
    cluster.rows().decode(body, types, textAsBytes, rows);
    return rows.rows();
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
      URI proxy, ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
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
    if (consumer == null) {
      return client.send(proxy, Command.PULL_QUEUE, params, null, Repeat.READ);
    }
    return client.sendRenamed(
        proxy, Command.PULL_QUEUE_CONSUMER, Command.PULL_CONSUMER, params, null, Repeat.READ);
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
    private final List<QueueRow> rows = new ArrayList<>();
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
