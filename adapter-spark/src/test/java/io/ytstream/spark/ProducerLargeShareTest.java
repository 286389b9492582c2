package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A producer sink task's memory is bounded by a chunk ({@code spark.yt.write.dynBatchSize}), not by
 * its share of the batch: a backlog of {@value #ROWS} rows drained in one batch by one task, under
 * {@code -Xmx}{@value #HEAP}, lands in the output queue with every row once. The Spark job runs in
 * a child JVM with that heap ({@link LargeShareDrain}), reaching over HTTP an emulator in another
 * child with room for the backlog and the output ({@link LargeShareHost}), which checks the output.
 * A sink that kept its whole share (each row twice over: Spark's and the converted one) fails here
 * with an out-of-memory error or its own memory error. {@code -Dytstream.largeShare.rows=N} changes
 * the rows.
 */
class ProducerLargeShareTest {

  static final int ROWS = 3_000_000;
  static final String HEAP = "256m";

  @Test
  void aShareOfMillionsOfRowsIsPushedUnderASmallHeapWithEveryRowOnce() throws Exception {
    int rows = Integer.getInteger("ytstream.largeShare.rows", ROWS);
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    for (String jvmArg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!jvmArg.startsWith("-javaagent") && !jvmArg.startsWith("-Xmx")) {
        command.add(jvmArg);
      }
    }
    // The emulator holds the backlog, the output and the share's transaction until its commit.
    command.add("-Xmx3g");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LargeShareHost.class.getName());
    command.add(Integer.toString(rows));
    command.add(HEAP);
    Process host = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(host.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("HOST") || line.startsWith("RESULT") || line.startsWith("FAILED")) {
          lines.add(line);
          System.out.println("large share: " + line);
        }
      }
    }
    assertTrue(host.waitFor(6, TimeUnit.MINUTES), "the host did not end: " + lines);
    String result = find(lines, "RESULT");
    String summary = find(lines, "HOST");
    assertTrue(result.startsWith("RESULT"), "the drain failed: " + lines);
    assertTrue(summary.startsWith("HOST ok"), "the host failed: " + lines);
    assertEquals(
        "rows="
            + rows
            + " outputRows="
            + rows
            + " duplicates=0 missing=0 outside=0 consumer="
            + rows,
        summary.substring("HOST ok ".length()),
        "every row once, the consumer at the end");
  }

  private static String find(List<String> lines, String prefix) {
    for (String line : lines) {
      if (line.startsWith(prefix) || (prefix.equals("RESULT") && line.startsWith("FAILED"))) {
        return line;
      }
    }
    return "(no " + prefix + " line) " + lines;
  }
}
