package io.ytstream.benchmarks.latency;

import io.ytstream.benchmarks.spark.OutputCheck;
import io.ytstream.core.model.YPath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The emulator and the queue producer in a JVM of their own ({@link StoreMain}), as a YTsaurus
 * cluster runs apart from Spark: the store keeps every queue and output row of a run, and in the
 * benchmark's JVM collecting them paused Spark's threads too (young pauses of 90–170 ms seen in the
 * real-time windows). Send times come from the child's {@link LatencyClock}, sink times from this
 * JVM's; both read the machine's wall clock at start with microsecond precision.
 */
public final class ChildProcessStore implements LatencyStore {

  private final Process process;
  private final Writer commands;
  private final BufferedReader answers;
  private final String url;

  /**
   * Starts the child with this JVM's class path and {@code javaOptions} (for example {@code
   * -Xmx4g}), and hands it {@code token} on stdin.
   */
  public ChildProcessStore(String clusterName, String token, List<String> javaOptions) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(javaOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(StoreMain.class.getName());
    command.add(clusterName);
    try {
      process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the emulator's JVM: " + command.get(0), e);
    }
    commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    answers =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    url = exchange(token, "the token");
  }

  @Override
  public String address() {
    return url;
  }

  @Override
  public void createQueue(YPath queue, YPath consumer, int partitions) {
    call("queue " + queue.value() + " " + consumer.value() + " " + partitions);
  }

  @Override
  public void createOutput(YPath table, OutputTable kind, int partitions) {
    call("output " + table.value() + " " + kind.word + " " + partitions);
  }

  @Override
  public Producer startProducer(YPath queue, int partitions, int rate) {
    call("produce " + queue.value() + " " + partitions + " " + rate);
    return running();
  }

  @Override
  public Producer startKafkaProducer(String bootstrap, String topic, int partitions, int rate) {
    call("produce-kafka " + bootstrap + " " + topic + " " + partitions + " " + rate);
    return running();
  }

  /** The child's producer, driven by commands. */
  private Producer running() {
    return new Producer() {
      private boolean stopped;

      @Override
      public void window(long fromMicros, long toMicros) {
        call("window " + fromMicros + " " + toMicros);
      }

      @Override
      public long stop() {
        stopped = true;
        return Long.parseLong(call("stop"));
      }

      @Override
      public void close() {
        if (!stopped) {
          stop();
        }
      }
    };
  }

  /** The CPU time the emulator's JVM has used so far, in nanoseconds; -1 where not known. */
  public long cpuNanos() {
    return process.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
  }

  /** Creates and fills the peer benchmark's queue ({@code backlog}, see {@link StoreMain}). */
  public void backlog(String queue, int partitions, long rowsPerPartition) {
    call("backlog " + queue + " " + partitions + " " + rowsPerPartition);
  }

  /** Creates an output of the modes benchmark ({@code ModeTables}: ordered, sorted, producer). */
  public void modeTable(String path, String kind) {
    call("mode-table " + path + " " + kind);
  }

  /** The rows in an output of the modes benchmark. */
  public long rows(String path, String kind) {
    return Long.parseLong(call("rows " + path + " " + kind));
  }

  /** Creates {@code consumer} and registers it, vital, for {@code queue}. */
  public void consumer(String queue, String consumer) {
    call("consumer " + queue + " " + consumer);
  }

  /** Creates an empty output queue of the peer rows' columns and a queue producer for it. */
  public void outputQueue(String queue, int tablets, String producer) {
    call("output-queue " + queue + " " + tablets + " " + producer);
  }

  /** Creates an empty sorted table of the peer rows' columns keyed by {@code id}. */
  public void sortedById(String table) {
    call("sorted-by-id " + table);
  }

  /**
   * Sets the rows one tablet transaction may write into one tablet (the server's default: 100,000).
   */
  public void maxRowsPerTabletPerTransaction(int rows) {
    call("tx-limit " + rows);
  }

  /** Counts the ids at {@code table} against the {@code expected} ids {@code [0, expected)}. */
  public OutputCheck check(String table, long expected) {
    return OutputCheck.parse(call("check " + table + " " + expected));
  }

  @Override
  public void forget(YPath directory) {
    call("forget " + directory.value());
  }

  /** Sends one command line and returns the value of its {@code ok} answer. */
  private String call(String line) {
    return exchange(line, "'" + line.split(" ")[0] + "'");
  }

  /** Sends {@code line}; errors name it only as {@code what} (the token's line is never shown). */
  private synchronized String exchange(String line, String what) {
    try {
      commands.write(line + "\n");
      commands.flush();
      String answer = answers.readLine();
      if (answer == null) {
        throw new IllegalStateException(
            "the emulator's JVM ended (exit code "
                + (process.isAlive() ? "unknown" : process.exitValue())
                + "); its log is on stderr");
      }
      if (answer.startsWith("ok")) {
        return answer.length() > 2 ? answer.substring(3) : "";
      }
      throw new IllegalStateException("the emulator's JVM refused " + what + ": " + answer);
    } catch (IOException e) {
      throw new UncheckedIOException("lost the emulator's JVM", e);
    }
  }

  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        call("exit");
      }
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (RuntimeException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
