package io.ytstream.benchmarks.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time some of this JVM's live threads have used, picked by a part of their names and read
 * from Linux's {@code /proc/self/task/<tid>/stat} (names cut to 15 characters there). A thread that
 * ends takes its time with it, so a figure over an interval can fall short. -1 where {@code /proc}
 * is not there.
 */
final class ThreadsCpu {

  /**
   * The JIT compiler threads ({@code C1 CompilerThre…}, {@code C2 CompilerThre…}): the part of a
   * drain's CPU that compiles code rather than moves rows. It falls drain by drain as the code of a
   * query settles, so a long-running job pays it once where a short drain pays it per row.
   */
  static final ThreadsCpu COMPILER = new ThreadsCpu("CompilerThre");

  /** The kernel's clock ticks per second ({@code getconf CLK_TCK}), 100 on every Linux we run. */
  private static final long TICKS_PER_SECOND = 100;

  private static final Path TASKS = Path.of("/proc/self/task");

  private final String namePart;

  ThreadsCpu(String namePart) {
    this.namePart = namePart;
  }

  /** Nanoseconds of CPU used so far by the live threads so named, or -1 without {@code /proc}. */
  long nanos() {
    if (!Files.isDirectory(TASKS)) {
      return -1;
    }
    long ticks = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        ticks += ticks(task);
      }
    } catch (IOException e) {
      return -1;
    }
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /** Nanoseconds used between two readings of {@link #nanos}, 0 where either is unknown. */
  static long between(long before, long after) {
    return before < 0 || after < 0 ? 0 : Math.max(0, after - before);
  }

  private long ticks(Path task) {
    String stat;
    try {
      stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return 0; // the thread ended between the listing and the read
    }
    return ticksOf(stat);
  }

  /**
   * utime + stime of one {@code stat} line when its name holds the name part, else 0. The name sits
   * in parentheses and may hold spaces, so the fields are counted after the last ')'.
   */
  long ticksOf(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open) {
      return 0;
    }
    String name = stat.substring(open + 1, close);
    if (!name.contains(namePart)) {
      return 0;
    }
    // After ") ": state(3) ppid(4) ... utime is field 14, stime field 15.
    String[] fields = stat.substring(close + 2).trim().split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
