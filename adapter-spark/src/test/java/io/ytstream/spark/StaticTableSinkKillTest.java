package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.ports.Row;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A job streaming a queue into a static table, its driver JVM killed with SIGKILL three times
 * mid-stream while rows keep arriving, each time started again from the checkpoint: once the queue
 * is drained every source row is in the table exactly once. The driver runs in a child JVM ({@link
 * StaticSinkDriverMain}) and reaches the emulator over HTTP only.
 */
class StaticTableSinkKillTest {

  private static final String QUEUE = "//q";
  private static final String CONSUMER = "//c";
  private static final String OUT = "//static_out";
  private static final String CHECKPOINT = "//ckpt/static-kill";
  private static final int KILLS = 3;

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  @Test
  void threeSigkillsMidStreamLoseAndDuplicateNothing(YtEmulator emulator) throws Exception {
    long began = System.nanoTime();
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue(QUEUE, 2).consumer(CONSUMER, QUEUE);
    c.cluster.createStaticTable(YPath.of(OUT), TestCluster.QUEUE_COLUMNS);
    long[] next = {0, 1_000_000};
    List<Long> produced = new ArrayList<>();
    produce(c, next, produced, 200);
    AtomicBoolean producing = new AtomicBoolean(true);
    Thread producer =
        new Thread(
            () -> {
              while (producing.get()) {
                synchronized (produced) {
                  produce(c, next, produced, 10);
                }
                try {
                  Thread.sleep(50);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "static-kill-producer");
    producer.setDaemon(true);
    producer.start();
    Random random = new Random(20261207L);
    List<String> killedAfter = new ArrayList<>();
    try {
      for (int kill = 1; kill <= KILLS; kill++) {
        Driver driver = Driver.start(c.url(), "yt:/" + CHECKPOINT);
        try {
          Await.until(
              Duration.ofSeconds(120),
              () -> driver.batches() >= 2 || driver.ended(),
              () -> "driver " + driver.reports + " ran no batch\n" + driver.logTail());
          assertTrue(!driver.ended(), "the driver runs: " + driver.reports + driver.logTail());
          // Mid-stream: batches run back to back while rows arrive.
          Thread.sleep(200 + random.nextInt(1500));
          long batches = driver.batches();
          driver.sigkill();
          killedAfter.add(batches + " batches");
        } finally {
          driver.sigkill();
        }
      }
    } finally {
      producing.set(false);
      producer.join();
    }
    int total = produced.size();
    Driver last = Driver.start(c.url(), "yt:/" + CHECKPOINT);
    try {
      Await.until(
          Duration.ofSeconds(180),
          () -> c.consumerTotal(CONSUMER, QUEUE) == total && staticIds(c).size() >= total,
          () ->
              "the queue was not drained: consumer at "
                  + c.consumerTotal(CONSUMER, QUEUE)
                  + " of "
                  + total
                  + ", table "
                  + staticIds(c).size()
                  + " rows; driver "
                  + last.reports
                  + "\n"
                  + last.logTail());
      // A batch that was running anyway finishes; nothing more arrives.
      Thread.sleep(1_000);
      last.stop(Duration.ofSeconds(30));
    } finally {
      last.sigkill();
    }

    List<Long> table = staticIds(c);
    OutputCopies copies = OutputCopies.of(table, produced);
    System.err.printf(
        Locale.ROOT,
        "static table, %d SIGKILLs of the driver (after %s): %d rows produced, %d rows in the"
            + " table, %d lost, %d duplicated, in %.1f s%n",
        KILLS,
        killedAfter,
        total,
        table.size(),
        copies.lost().size(),
        copies.duplicates(),
        (System.nanoTime() - began) / 1e9);
    assertEquals(0, copies.duplicates(), "duplicated rows");
    assertEquals(0, copies.lost().size(), "lost rows: " + copies.lost());
    assertEquals(total, table.size());
  }

  private static List<Long> staticIds(EmulatorCluster c) {
    List<Long> ids = new ArrayList<>();
    for (Row r : c.cluster.staticTableAppends().readAll(YPath.of(OUT))) {
      ids.add((Long) r.get("id"));
    }
    ids.sort(Long::compare);
    return ids;
  }

  private static void produce(EmulatorCluster c, long[] next, List<Long> produced, int perTablet) {
    for (int tablet = 0; tablet < 2; tablet++) {
      c.produce(QUEUE, tablet, next[tablet], next[tablet] + perTablet);
      for (long id = next[tablet]; id < next[tablet] + perTablet; id++) {
        produced.add(id);
      }
      next[tablet] += perTablet;
    }
  }

  /** {@link StaticSinkDriverMain} in a child JVM with this JVM's class path and module options. */
  private static final class Driver {
    private final Process process;
    private final Path log;
    final List<String> reports = new CopyOnWriteArrayList<>();

    private Driver(Process process, Path log) {
      this.process = process;
      this.log = log;
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    if (line.startsWith(StaticSinkDriverMain.PREFIX)) {
                      reports.add(line.substring(StaticSinkDriverMain.PREFIX.length()));
                    }
                  }
                } catch (IOException e) {
                  // The process ended.
                }
              },
              "static-sink-driver-stdout");
      reader.setDaemon(true);
      reader.start();
    }

    static Driver start(String proxy, String checkpoint) throws IOException {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      for (String jvmArg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
        if (!jvmArg.startsWith("-javaagent") && !jvmArg.startsWith("-Xmx")) {
          command.add(jvmArg);
        }
      }
      command.add("-Xmx768m");
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add(StaticSinkDriverMain.class.getName());
      command.addAll(List.of(proxy, QUEUE, CONSUMER, OUT, checkpoint));
      Path dir = Path.of("target", "static-sink-driver");
      Files.createDirectories(dir);
      Path log = Files.createTempFile(dir, "spark-", ".log");
      ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
      builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
      return new Driver(builder.start(), log);
    }

    long batches() {
      return reports.stream().filter(r -> r.startsWith("batch")).count();
    }

    boolean ended() {
      return reports.stream().anyMatch(r -> r.startsWith("failed") || r.startsWith("stopped"))
          || !process.isAlive();
    }

    /** Kills the driver JVM with SIGKILL ({@code destroyForcibly} on Linux) and waits for it. */
    void sigkill() throws InterruptedException {
      if (process.isAlive()) {
        process.destroyForcibly();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the driver JVM died");
        assertEquals(137, process.exitValue(), "the driver died of SIGKILL");
      }
    }

    void stop(Duration timeout) throws InterruptedException {
      if (process.isAlive()) {
        try {
          OutputStream in = process.getOutputStream();
          in.write("stop\n".getBytes(StandardCharsets.UTF_8));
          in.flush();
          in.close();
        } catch (IOException e) {
          // It has already exited.
        }
      }
      process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    String logTail() {
      try {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
      } catch (IOException e) {
        return "(no log: " + e + ")";
      }
    }
  }
}
