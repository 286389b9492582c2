package io.ytstream.spark;

import java.io.BufferedReader;
import java.io.File;
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
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * {@link SecondDriverMain} started in a child JVM with this JVM's class path and module options
 * (Spark needs the same {@code --add-opens}); its Spark log goes to a file under {@code target/}.
 */
final class SecondDriverProcess implements AutoCloseable {

  private final Process process;
  private final List<String> reports = new CopyOnWriteArrayList<>();
  private final Path log;

  private SecondDriverProcess(Process process, Path log) {
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
                  if (line.startsWith(SecondDriverMain.PREFIX)) {
                    reports.add(line.substring(SecondDriverMain.PREFIX.length()));
                  }
                }
              } catch (IOException e) {
                // The process ended.
              }
            },
            "second-driver-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  static SecondDriverProcess start(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String jvmArg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      // Module options and system properties as this fork has them; no agent (coverage) and
      // no heap size of the parent's.
      if (!jvmArg.startsWith("-javaagent") && !jvmArg.startsWith("-Xmx")) {
        command.add(jvmArg);
      }
    }
    command.add("-Xmx768m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SecondDriverMain.class.getName());
    command.addAll(List.of(args));
    Path dir = Path.of("target", "second-driver");
    Files.createDirectories(dir);
    Path log = Files.createTempFile(dir, "spark-", ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    return new SecondDriverProcess(builder.start(), log);
  }

  /** Its reports so far ({@code running}, {@code failed <message>}, {@code stopped}). */
  List<String> reports() {
    return List.copyOf(reports);
  }

  boolean reported(String prefix) {
    return reports.stream().anyMatch(r -> r.startsWith(prefix));
  }

  /** The message of a {@code failed} report, if it failed. */
  Optional<String> failure() {
    return reports.stream()
        .filter(r -> r.startsWith("failed "))
        .map(r -> r.substring("failed ".length()))
        .findFirst();
  }

  boolean ended() {
    return reported("failed") || reported("stopped") || !process.isAlive();
  }

  /** The last lines of its Spark log, for a failure message. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  File logFile() {
    return log.toFile();
  }

  /** Asks it to stop its query and waits for it to exit. */
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
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop(Duration.ofSeconds(20));
  }
}
