package io.ytstream.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ThreadsCpuTest {

  private static final ThreadsCpu TASKS = new ThreadsCpu("Executor (task");

  @Test
  void aCompilerThreadCountsItsUserAndSystemTicks() {
    String c2 =
        "14185 (C2 CompilerThre) R 13743 13740 13308 0 -1 4194368 44910 0 0 0 5042 28 0 0 20 0 21"
            + " 0 1251233 3815763968 124715";
    assertEquals(5042 + 28, ThreadsCpu.COMPILER.ticksOf(c2));
    assertEquals(0, TASKS.ticksOf(c2));
  }

  @Test
  void aThreadCountsOnlyWhereItsNameHoldsThePart() {
    String executor =
        "14190 (Executor (task) 1) R 13743 13740 13308 0 -1 4194368 44910 0 0 0 900 12 0 0 20 0";
    assertEquals(900 + 12, TASKS.ticksOf(executor));
    assertEquals(0, ThreadsCpu.COMPILER.ticksOf(executor));
  }

  @Test
  void aNameWithParenthesesIsReadToTheLastOne() {
    String c1 = "14186 (C1 CompilerThre (1)) S 1 1 1 0 -1 0 0 0 0 0 352 24 0 0 20 0";
    assertEquals(352 + 24, ThreadsCpu.COMPILER.ticksOf(c1));
  }

  @Test
  void anIntervalWithAnUnknownEndCountsNothing() {
    assertEquals(0, ThreadsCpu.between(-1, 50));
    assertEquals(0, ThreadsCpu.between(80, 50), "a thread that ended took its time with it");
    assertEquals(30, ThreadsCpu.between(20, 50));
  }

  @Test
  void thisJvmsCompilerThreadsHaveRunWhereProcIsThere() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc here");
    assertTrue(ThreadsCpu.COMPILER.nanos() > 0, "a JVM that ran tests has compiled code");
  }
}
