package io.ytstream.spark;

import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cluster side of {@link ProducerLargeShareTest}, in a JVM with room for the backlog and the
 * output: an emulator holding {@code rows} rows in a one-tablet queue, {@link LargeShareDrain}
 * started in a child JVM with {@code -Xmx<heap>} to drain it over HTTP in one batch, then the
 * output queue checked here: every id once. Prints the child's lines, then {@code HOST ok rows=..
 * outputRows=.. duplicates=.. missing=.. consumer=..} (or {@code HOST failed ...}).
 *
 * <p>Arguments: rows, the child's heap (e.g. {@code 256m}).
 */
public final class LargeShareHost {

  static final String QUEUE = "//large/q";
  static final String CONSUMER = "//large/c";
  static final String OUT = "//large/out";
  static final String PRODUCER = "//large/producer";
  static final int OUTPUT_TABLETS = 4;

  private LargeShareHost() {}

  public static void main(String[] args) throws Exception {
    int rows = Integer.parseInt(args[0]);
    String heap = args[1];
    int code = 1;
    try (YtEmulator emulator = YtEmulator.start(EmulatorOptions.defaults())) {
      InMemoryCluster cluster = emulator.cluster();
      List<Column> columns = List.of(new Column("id", "int64", false, false));
      cluster.createOrderedTable(YPath.of(QUEUE), columns, 1);
      cluster.createConsumer(YPath.of(CONSUMER));
      cluster.registerConsumer(YPath.of(QUEUE), YPath.of(CONSUMER), true);
      cluster.createOrderedTable(YPath.of(OUT), columns, OUTPUT_TABLETS);
      cluster.createQueueProducer(YPath.of(PRODUCER));
      // One share of every row: its transaction may write them all (the real default is 100,000).
      cluster.setMaxRowsPerTabletPerTransaction(rows);
      for (int from = 0; from < rows; from += 100_000) {
        List<Row> batch = new ArrayList<>();
        for (long id = from; id < Math.min(rows, from + 100_000); id++) {
          batch.add(Row.of("$tablet_index", 0L, "id", id));
        }
        cluster.outputTables().append(YPath.of(QUEUE), batch);
      }
      int drained = drain(emulator.url(), rows, heap);
      BitSet seen = new BitSet(rows);
      long outputRows = 0;
      long duplicates = 0;
      long outside = 0;
      for (int t = 0; t < OUTPUT_TABLETS; t++) {
        for (Row r : cluster.rows(YPath.of(OUT), t, 0)) {
          outputRows++;
          long id = (Long) r.get("id");
          if (id < 0 || id >= rows) {
            outside++;
          } else if (seen.get((int) id)) {
            duplicates++;
          } else {
            seen.set((int) id);
          }
        }
      }
      long consumer =
          cluster
              .consumerOffsets()
              .read(
                  io.ytstream.core.model.ConsumerId.of(cluster.name(), CONSUMER),
                  QueueId.of(cluster.name(), QUEUE))
              .total();
      System.out.println(
          "HOST "
              + (drained == 0 ? "ok" : "failed child exit " + drained)
              + " rows="
              + rows
              + " outputRows="
              + outputRows
              + " duplicates="
              + duplicates
              + " missing="
              + (rows - seen.cardinality())
              + " outside="
              + outside
              + " consumer="
              + consumer);
      code = 0;
    } catch (Exception | OutOfMemoryError e) {
      System.out.println("HOST failed " + e);
    }
    System.exit(code);
  }

  private static int drain(String url, int rows, String heap) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    for (String jvmArg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!jvmArg.startsWith("-javaagent") && !jvmArg.startsWith("-Xmx")) {
        command.add(jvmArg);
      }
    }
    command.add("-Xmx" + heap);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LargeShareDrain.class.getName());
    command.add(url);
    command.add(Integer.toString(rows));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process child = builder.start();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("RESULT") || line.startsWith("FAILED") || line.contains("Exception")) {
          System.out.println(line);
        }
      }
    }
    if (!child.waitFor(5, TimeUnit.MINUTES)) {
      child.destroyForcibly();
      return -1;
    }
    return child.exitValue();
  }
}
