package io.ytstream.benchmarks.latency;

import io.ytstream.benchmarks.spark.ModeTables;
import io.ytstream.benchmarks.spark.OutputCheck;
import io.ytstream.benchmarks.spark.PeerRows;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The child process of {@link ChildProcessStore}: the emulator and the queue producer in a JVM of
 * their own, driven by one-line commands on stdin, each answered by one line on stdout ({@code ok
 * [value]} or {@code error <message>}). The first line is the token the emulator requires (never on
 * the command line, where {@code ps} shows it); the answer is {@code ok <url>}. Commands: {@code
 * queue <queue> <consumer> <partitions>}, {@code output <table> ordered|sorted|by-key
 * <partitions>}, {@code produce <queue> <partitions> <rate>}, {@code produce-kafka <bootstrap>
 * <topic> <partitions> <rate>}, {@code window <fromMicros> <toMicros>}, {@code stop} (answers the
 * rows sent in the window), {@code forget <directory>}, {@code backlog <queue> <partitions>
 * <rowsPerPartition>} (the peer benchmark's rows, {@link PeerRows}), {@code consumer <queue>
 * <consumer>}, {@code output-queue <queue> <tablets> <producer>} and {@code sorted-by-id <table>}
 * (the end-to-end benchmark's outputs), {@code tx-limit <rows>} (the rows one tablet transaction
 * may write into one tablet), {@code check <table> <expected>} (answers {@link
 * OutputCheck#line()}), {@code mode-table <path> <kind>} and {@code rows <path> <kind>} (the modes
 * benchmark's outputs, {@link ModeTables}; {@code rows} answers their row count), {@code exit}.
 */
public final class StoreMain {

  private StoreMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println(
          "usage: StoreMain <cluster name> (token on the first stdin line); started by"
              + " ChildProcessStore, not by hand");
      System.exit(2);
    }
    PrintStream answers = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(System.err); // anything else printed must not look like an answer
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String token = in.readLine();
    YtEmulator emulator =
        YtEmulator.start(
            EmulatorOptions.defaults().withToken(token).withClusterName(args[0]).withPort(0));
    InProcessStore store = InProcessStore.behind(emulator.cluster(), emulator.url());
    answers.println("ok " + emulator.url());
    LatencyStore.Producer producer = null;
    try {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] w = line.split(" ");
        try {
          switch (w[0]) {
            case "queue" ->
                store.createQueue(YPath.of(w[1]), YPath.of(w[2]), Integer.parseInt(w[3]));
            case "output" ->
                store.createOutput(
                    YPath.of(w[1]), OutputTable.ofWord(w[2]), Integer.parseInt(w[3]));
            case "produce" ->
                producer =
                    store.startProducer(
                        YPath.of(w[1]), Integer.parseInt(w[2]), Integer.parseInt(w[3]));
            case "backlog" ->
                PeerRows.fill(
                    emulator.cluster(), w[1], Integer.parseInt(w[2]), Long.parseLong(w[3]));
            case "mode-table" -> ModeTables.create(emulator.cluster(), w[1], w[2]);
            case "rows" -> {
              answers.println("ok " + ModeTables.rows(emulator.cluster(), w[1], w[2]));
              continue;
            }
            case "consumer" -> {
              emulator.cluster().createConsumer(YPath.of(w[2]));
              emulator.cluster().registerConsumer(YPath.of(w[1]), YPath.of(w[2]), true);
            }
            case "output-queue" ->
                PeerRows.createOutputQueue(emulator.cluster(), w[1], Integer.parseInt(w[2]), w[3]);
            case "sorted-by-id" -> PeerRows.createSortedById(emulator.cluster(), w[1]);
            case "tx-limit" ->
                emulator.cluster().setMaxRowsPerTabletPerTransaction(Integer.parseInt(w[1]));
            case "check" -> {
              answers.println(
                  "ok " + OutputCheck.of(emulator.cluster(), w[1], Long.parseLong(w[2])).line());
              continue;
            }
            case "produce-kafka" ->
                producer =
                    store.startKafkaProducer(
                        w[1], w[2], Integer.parseInt(w[3]), Integer.parseInt(w[4]));
            case "window" -> producer.window(Long.parseLong(w[1]), Long.parseLong(w[2]));
            case "stop" -> {
              answers.println("ok " + producer.stop());
              producer = null;
              continue;
            }
            case "forget" -> {
              store.forget(YPath.of(w[1]));
              System.gc();
            }
            case "exit" -> {
              answers.println("ok");
              return;
            }
            default -> throw new IllegalArgumentException("unknown command " + w[0]);
          }
          answers.println("ok");
        } catch (RuntimeException e) {
          answers.println("error " + String.valueOf(e).replace('\n', ' '));
        }
      }
    } finally {
      if (producer != null) {
        producer.close();
      }
      emulator.close();
    }
  }
}
