package io.ytstream.spark.sink;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableNodeSchema;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.types.schema.ColumnSchema;
import io.ytstream.types.schema.SortOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * How the sink finds a static output table ({@code @dynamic=%false}) and what it refuses for one.
 * The table's kind decides the route, not an option: a static table takes only master-transaction
 * appends and a dynamic one only tablet writes, so an option could only repeat the table's kind or
 * contradict it.
 */
final class StaticOutputs {

  private StaticOutputs() {}

  /**
   * The output as a static table, or empty for a dynamic table (and for a path the static describe
   * cannot read: the dynamic describe then reports it with its own message).
   */
  static Optional<TableDescription> describe(YtCluster cluster, YtOptions options) {
    YPath path = options.outputPath();
    TableNodeSchema node;
    try {
      node = cluster.staticTableAppends().describe(path);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (!node.isStatic()) {
      return Optional.empty();
    }
    List<TableDescription.Column> columns = new ArrayList<>();
    for (ColumnSchema c : node.schema().columns()) {
      if (c.sortOrder() != SortOrder.NONE) {
        throw new IllegalArgumentException(
            "option path = '"
                + path
                + "' is a sorted static table (key column '"
                + c.name()
                + "'): appends to it must come in key order, which a stream cannot promise. Write"
                + " a static table without key columns (sort it later with a sort operation), or a"
                + " sorted dynamic table");
      }
      columns.add(TableDescription.Column.of(c.name(), c.type(), false));
    }
    return Optional.of(new TableDescription(path, false, 1, columns));
  }

  /** What a static output cannot be combined with. */
  static void check(YtOptions options, Optional<YPath> producer) {
    if (producer.isPresent()) {
      throw new IllegalArgumentException(
          "option producer_path = '"
              + producer.get()
              + "' pushes into a queue, but option path = '"
              + options.outputPath()
              + "' is a static table (@dynamic=%false): remove producer_path to stream into the"
              + " static table (exactly once through master transactions), or point path at the"
              + " queue");
    }
  }

  static IllegalArgumentException batchWrite(YPath path) {
    return new IllegalArgumentException(
        "option path = '"
            + path
            + "' is a static table (@dynamic=%false): the yt sink streams into static tables"
            + " (writeStream), but does not serve a batch write (df.write) into one. Use"
            + " writeStream, or the YTsaurus client's write_table for a one-off load");
  }

  static Path checkpointRoot(YtOptions options, YPath path) {
    return options
        .checkpointLocation()
        .map(Path::new)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "option path = '"
                        + path
                        + "' is a static table, which the yt sink writes exactly once by"
                        + " recording each batch of the checkpoint in the table: set the"
                        + " checkpoint location as an option of writeStream, e.g."
                        + " .option(\"checkpointLocation\", \"yt:///home/ckpt\")"));
  }
}
