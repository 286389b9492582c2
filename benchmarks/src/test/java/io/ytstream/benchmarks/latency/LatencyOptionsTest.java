package io.ytstream.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyOptionsTest {

  @Test
  void eachRoundStartsWithTheNextVariantSoNoneIsAlwaysFirst() {
    List<Variant> all = Variant.standard();
    assertEquals(all, LatencyBench.inRound(all, 1));
    assertEquals(
        List.of(
            Variant.RT_APPEND,
            Variant.KAFKA_RT_APPEND,
            Variant.MICRO_BATCH,
            Variant.RT_EXACTLY_ONCE),
        LatencyBench.inRound(all, 2));
    assertEquals(all, LatencyBench.inRound(all, 5));
    assertEquals(List.of(Variant.RT_APPEND), LatencyBench.inRound(List.of(Variant.RT_APPEND), 2));
  }

  @Test
  void aVariantNamedTwiceIsRefused() {
    IllegalArgumentException twice =
        assertThrows(
            IllegalArgumentException.class,
            () -> LatencyOptions.parse("--variants", "rt-append, rt-append"));
    assertTrue(
        twice.getMessage().contains("--variants names rt-append twice in 'rt-append, rt-append'"),
        twice.getMessage());
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class, () -> LatencyOptions.parse("--variants", "kafka"));
    assertTrue(unknown.getMessage().contains("kafka-rt-append"), unknown.getMessage());
  }

  @Test
  void theDefaultIsTheShortRunAndOptionsOverrideIt() {
    LatencyOptions d = LatencyOptions.parse();
    assertEquals(List.of(1000), d.rates());
    assertEquals(List.of(5), d.triggerSeconds());
    assertEquals(12, d.windowFor(5));
    assertEquals(0, d.primeSeconds());
    assertEquals(3, LatencyOptions.parse("--prime", "3").primeSeconds());
    assertEquals(1, d.repeat());
    assertEquals(3, LatencyOptions.parse("--repeat", "3").repeat());
    assertThrows(IllegalArgumentException.class, () -> LatencyOptions.parse("--repeat", "0"));
    assertTrue(!d.emulatorOwnJvm());
    assertTrue(LatencyOptions.parse("--emulator-jvm", "own").emulatorOwnJvm());
    IllegalArgumentException jvm =
        assertThrows(
            IllegalArgumentException.class, () -> LatencyOptions.parse("--emulator-jvm", "x"));
    assertTrue(jvm.getMessage().contains("shared or own"), jvm.getMessage());
    LatencyOptions o =
        LatencyOptions.parse(
            "--rates",
            "1000,10000",
            "--triggers",
            "5,60",
            "--backends",
            "inmemory,emulator",
            "--variants",
            "kafka-rt-append,rt-append",
            "--window",
            "30");
    assertEquals(List.of(1000, 10000), o.rates());
    assertEquals(List.of(Variant.KAFKA_RT_APPEND, Variant.RT_APPEND), o.variants());
    assertEquals(30, o.windowFor(60));
  }

  @Test
  void badValuesNameTheOptionAndWhatIsAccepted() {
    IllegalArgumentException backend =
        assertThrows(IllegalArgumentException.class, () -> LatencyOptions.parse("--backends", "x"));
    assertTrue(
        backend.getMessage().contains("--backends") && backend.getMessage().contains("emulator"));
    IllegalArgumentException slots =
        assertThrows(
            IllegalArgumentException.class,
            () -> LatencyOptions.parse("--partitions", "4", "--cores", "2"));
    assertTrue(
        slots.getMessage().contains("below the 4 real-time tasks of --partitions 4"),
        slots.getMessage());
    // Read by 2 tasks, the same 4 partitions fit 2 slots.
    assertEquals(
        2,
        LatencyOptions.parse("--partitions", "4", "--cores", "2", "--variants", "rt-append-2-tasks")
            .cores());
    IllegalArgumentException rate =
        assertThrows(IllegalArgumentException.class, () -> LatencyOptions.parse("--rates", "0"));
    assertTrue(rate.getMessage().contains("'0'"), rate.getMessage());
  }

  @Test
  void aStatefulVariantNeedsSlotsForTheShuffleAndKeysThatStayInOnePartition() {
    IllegalArgumentException slots =
        assertThrows(
            IllegalArgumentException.class,
            () -> LatencyOptions.parse("--variants", "rt-count", "--cores", "3"));
    assertTrue(
        slots.getMessage().contains("--cores 3 is below the 4 tasks of a stateful variant"),
        slots.getMessage());
    // The same slots serve the stateless variants: one task per partition.
    assertEquals(3, LatencyOptions.parse("--variants", "rt-append", "--cores", "3").cores());
    IllegalArgumentException keys =
        assertThrows(
            IllegalArgumentException.class,
            () -> LatencyOptions.parse("--variants", "kafka-rt-count", "--keys", "7"));
    assertTrue(
        keys.getMessage().contains("--keys takes a multiple of --partitions 2")
            && keys.getMessage().contains("'7'"),
        keys.getMessage());
    assertEquals(7, LatencyOptions.parse("--variants", "rt-append", "--keys", "7").keys());
    assertFalse(Variant.standard().contains(Variant.RT_COUNT), "Spark 4.3 only: named, not run");
  }

  @Test
  void statefulVariantsAreRefusedBeforeSpark43NamingTheVariantsAndTheWayToRunThem() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LatencyBench.checkSparkVersion(
                    List.of(Variant.RT_APPEND, Variant.RT_COUNT, Variant.KAFKA_RT_COUNT), "4.2.0"));
    assertTrue(
        e.getMessage().contains("--variants names rt-count,kafka-rt-count")
            && e.getMessage().contains("Spark 4.2.0")
            && e.getMessage().contains("--only latency-stateful"),
        e.getMessage());
    LatencyBench.checkSparkVersion(List.of(Variant.RT_COUNT), "4.3.0");
    LatencyBench.checkSparkVersion(List.of(Variant.RT_COUNT), "5.0.0-preview1");
    LatencyBench.checkSparkVersion(List.of(Variant.RT_APPEND), "4.1.1");
  }

  @Test
  void percentilesAreNearestRank() {
    long[] micros = new long[100];
    for (int i = 0; i < 100; i++) {
      micros[i] = (i + 1) * 1000L;
    }
    LatencyStats s = new LatencyStats(100, micros);
    assertEquals(50.0, s.p50);
    assertEquals(99.0, s.p99);
    assertEquals(100.0, s.max);
    assertTrue(s.complete());
    assertTrue(!new LatencyStats(101, micros).complete());
  }

  @Test
  void runsPoolTheirRowsAndTheMaxIsTheMedianOfTheRunsMaxima() {
    LatencyStats a = new LatencyStats(3, new long[] {1000, 2000, 90_000});
    LatencyStats b = new LatencyStats(2, new long[] {3000, 40_000});
    LatencyStats c = new LatencyStats(2, new long[] {4000, 10_000});
    LatencyStats all = LatencyStats.pooled(List.of(a, b, c));
    assertEquals(7, all.expected);
    assertEquals(7, all.delivered);
    assertEquals(4.0, all.p50);
    assertEquals(90.0, all.p99);
    assertEquals(40.0, all.max, "median of 90, 40 and 10");
    assertEquals(3, all.runMaxima.length);
    assertEquals(10.0, LatencyStats.pooled(List.of(c, a)).max, "lower median of two");
  }
}
